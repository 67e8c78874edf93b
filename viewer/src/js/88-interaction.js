  // 88-interaction.js: clicks and hovers on the graph, the toolbar and keys; the stats line.

  function itemOfElement(el) {
    const g = el && el.closest && el.closest('.mav-node, .mav-scope');
    if (!g) return null;
    if (g.classList.contains('mav-node')) return S.model.nodeByName.get(g.getAttribute('data-name')) || null;
    return S.model.display.get(g.getAttribute('data-path')) || null;
  }

  function installGraphEvents() {
    const svg = $('mav-svg');
    svg.addEventListener('click', e => {
      if (S.suppressClick) return;
      const head = e.target.closest('.mav-scope-head');
      if (head) { collapseScope(itemOfElement(head)); return; }
      const it = itemOfElement(e.target);
      if (!it) { S.highlight = new Set(); select(null); return; }
      if (it.kind === 'node') select(it);
      else if (!isExpanded(it)) { select(it); expandScope(it); }
    });
    svg.addEventListener('pointerover', e => {
      const g = e.target.closest && e.target.closest('.mav-node, .mav-scope[data-collapsed="true"], .mav-scope-head');
      setHovered(g ? itemOfElement(g) : null);
    });
    svg.addEventListener('pointerleave', () => setHovered(null));
    $('mav-details').addEventListener('click', e => {
      const a = e.target.closest('[data-goto]');
      if (!a) return;
      e.preventDefault();
      const n = S.model.nodeByName.get(a.getAttribute('data-goto'));
      if (n) reveal([n], true).then(ok => ok && select(n));
    });
  }

  function installToolbar() {
    $('mav-colour').addEventListener('change', e => { S.colour = e.target.value; applyColours(); });
    $('mav-depth').addEventListener('change', e => { if (e.target.value !== 'custom') setDepth(e.target.value); });
    $('mav-fit').addEventListener('click', fitView);
    $('mav-cancel').addEventListener('click', () => stopEngine(S.engine, 'stopped'));
    $('mav-legend').addEventListener('click', e => {
      if (e.target.closest('.mav-legend-title')) $('mav-legend').classList.toggle('mav-legend-min');
    });
    $('mav-toggle-summary').addEventListener('click', () => { document.body.classList.toggle('mav-hide-summary'); });
    $('mav-toggle-details').addEventListener('click', () => { document.body.classList.toggle('mav-hide-details'); });
    document.addEventListener('keydown', e => {
      if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT')) return;
      if (e.key === 'f' || e.key === 'F') fitView();
      else if (e.key === '/') { e.preventDefault(); $('mav-search').focus(); }
    });
  }

  function updateStats() {
    const m = S.model;
    const r = m.root;
    const parts = [fmtInt(m.nodes.length) + ' nodes'];
    if (m.has.params) parts.push(fmtShort(S.summary && S.summary.totals && isNum(S.summary.totals.params) ? S.summary.totals.params : r.params) + ' params');
    if (m.has.macs) parts.push(fmtShort(r.macs) + ' MACs');
    parts.push(fmtInt(visibleNodeCount()) + ' shown');
    $('mav-stats').textContent = parts.join(' · ');
  }
