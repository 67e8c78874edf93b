  // 86-summary.js: the summary table (#mav-summary) and totals, linked both ways to the graph.

  /** The summary rows: the exporter's, or derived from the graph when it has none. */
  function buildSummary(model) {
    const doc = model.doc;
    let rows, totals, derived = false;
    if (doc.summary && Array.isArray(doc.summary.rows)) {
      rows = doc.summary.rows.filter(r => r && typeof r.path === 'string').map(r => Object.assign({}, r));
      totals = doc.summary.totals || null;
    } else {
      derived = true;
      rows = [];
      (function walk(scope) {
        const kids = scope.children.slice().sort((a, b) => a.order - b.order);
        for (const c of kids) {
          rows.push({
            path: c.path, depth: c.depth, class: c.cls, output_shape: c.last ? c.last.shape : null,
            params: model.has.params ? c.params : null, frozen: null,
            macs: model.has.macs ? c.macs : null, flops: model.has.flops ? c.flops : null,
          });
          walk(c);
        }
      })(model.root);
      const r = model.root;
      totals = { params: model.has.params ? r.params : null, macs: model.has.macs ? r.macs : null, flops: model.has.flops ? r.flops : null };
    }
    const byPath = new Map();
    const stack = [];
    for (const r of rows) {
      if (!isNum(r.depth)) r.depth = r.path ? r.path.split('.').length : 0;
      while (stack.length && stack[stack.length - 1].depth >= r.depth) stack.pop();
      r.parentRow = stack.length ? stack[stack.length - 1] : null;
      r.hasKids = false;
      if (r.parentRow) r.parentRow.hasKids = true;
      stack.push(r);
      byPath.set(r.path, r);
    }
    return { rows: rows, totals: totals, derived: derived, byPath: byPath };
  }

  function defaultOpenRows(summary) {
    const open = new Set();
    const perDepth = [];
    for (const r of summary.rows) perDepth[r.depth] = (perDepth[r.depth] || 0) + 1;
    let shown = 0;
    for (let d = 1; d < perDepth.length; d++) {
      shown += perDepth[d] || 0;
      const nextCount = perDepth[d + 1] || 0;
      if (shown + nextCount > CFG.summaryOpenRows) break;
      for (const r of summary.rows) if (r.depth === d) open.add(r.path);
    }
    return open;
  }

  function rowVisible(r) {
    for (let p = r.parentRow; p; p = p.parentRow) if (!S.openRows.has(p.path)) return false;
    return true;
  }

  /** Draws the rows whose ancestors are open; scrollToHot: bring the marked row into view. */
  function renderSummaryRows(scrollToHot) {
    const sum = S.summary;
    const tbody = $('mav-summary').tBodies[0];
    let html = '';
    let minDepth = Infinity;
    for (const r of sum.rows) minDepth = Math.min(minDepth, r.depth);
    for (const r of sum.rows) {
      if (!rowVisible(r)) continue;
      const name = r.path.slice(r.path.lastIndexOf('.') + 1);
      const cls = shortClass(r.class);
      const indent = (r.depth - minDepth) * 12;
      const tog = r.hasKids ? (S.openRows.has(r.path) ? '▾' : '▸') : '';
      const paramsText = isNum(r.params) ? fmtInt(r.params) + (isNum(r.frozen) && r.frozen ? ' <span class="mav-note" title="frozen">(' + fmtShort(r.frozen) + ' frozen)</span>' : '') : '–';
      html += '<tr data-path="' + escapeHtml(r.path) + '" title="' + escapeHtml(r.path + (r.class ? '\n' + r.class : '')) + '">' +
        '<td class="mav-col-layer"><span class="mav-indent" style="width:' + indent + 'px"></span>' +
        '<span class="mav-tog">' + tog + '</span><span class="mav-rname">' + escapeHtml(shortenName(name, 24)) + '</span>' +
        (cls ? ' <span class="mav-rclass">' + escapeHtml(cls) + '</span>' : '') + '</td>' +
        '<td class="mav-mono">' + escapeHtml(r.output_shape ? fmtShape(r.output_shape) : '–') + '</td>' +
        '<td class="mav-num">' + paramsText + '</td>' +
        '<td class="mav-num" title="' + (isNum(r.flops) ? fmtInt(r.flops) + ' FLOPs' : '') + '">' + fmtShort(r.macs) + '</td></tr>';
    }
    tbody.innerHTML = html;
    markSummaryRow(!!scrollToHot);
  }

  function renderTotals() {
    const t = S.summary.totals || {};
    const rows = [
      ['Total params', fmtInt(t.params)], ['Trainable params', fmtInt(t.trainable)], ['Frozen params', fmtInt(t.frozen)],
      ['Total MACs', isNum(t.macs) ? fmtShort(t.macs) + ' (' + fmtInt(t.macs) + ')' : '–'],
      ['Total FLOPs', isNum(t.flops) ? fmtShort(t.flops) : '–'],
      ['Nodes with no FLOP formula', isNum(t.uncounted) && t.uncounted > 0 ? fmtInt(t.uncounted) : '–'],
      ['Input size (MB)', isNum(t.input_mb) ? t.input_mb.toFixed(2) : '–'],
      ['Forward pass size (MB)', isNum(t.forward_mb) ? t.forward_mb.toFixed(2) : '–'],
      ['Params size (MB)', isNum(t.params_mb) ? t.params_mb.toFixed(2) : '–'],
      ['Estimated total size (MB)', isNum(t.total_mb) ? t.total_mb.toFixed(2) : '–'],
    ].filter(r => r[1] !== '–');
    let html = '<table class="mav-totals">';
    for (const [k, v] of rows) html += '<tr><th>' + k + '</th><td>' + v + '</td></tr>';
    html += '</table>';
    if (!rows.length) html = '<div class="mav-note">No totals: the graph carries no parameter or FLOP counts.</div>';
    $('mav-totals').innerHTML = html;
    $('mav-summary-note').textContent = S.summary.derived ? '(from node metadata)' : '';
  }

  /** The summary row of a graph item: its module, or the nearest enclosing one with a row. */
  function rowPathOf(it) {
    if (!it || !S.summary) return null;
    let path = it.kind === 'node' ? it.scopePath : it.kind === 'chunk' ? it.owner.path : it.path;
    while (path) {
      if (S.summary.byPath.has(path)) return path;
      const dot = path.lastIndexOf('.');
      path = dot < 0 ? '' : path.slice(0, dot);
    }
    return null;
  }

  /** Marks the summary row of a graph item; scroll: open and scroll the table to it. */
  function highlightRowFor(it, scroll) {
    const path = rowPathOf(it);
    S.rowPath = path;
    if (path && scroll !== false) {
      const row = S.summary.byPath.get(path);
      let changed = false;
      for (let p = row.parentRow; p; p = p.parentRow) if (!S.openRows.has(p.path)) { S.openRows.add(p.path); changed = true; }
      if (changed) { renderSummaryRows(true); return; }
    }
    markSummaryRow(scroll !== false);
  }

  function markSummaryRow(scroll) {
    const tbody = $('mav-summary').tBodies[0];
    const old = tbody.querySelector('tr.mav-row-hot');
    if (old) old.classList.remove('mav-row-hot');
    if (!S.rowPath) return;
    const tr = tbody.querySelector('tr[data-path="' + cssEscape(S.rowPath) + '"]');
    if (tr) {
      tr.classList.add('mav-row-hot');
      if (scroll === false) return;
      const scroller = $('mav-summary-scroll');
      const top = tr.offsetTop, bottom = top + tr.offsetHeight;
      if (top < scroller.scrollTop + 30 || bottom > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = top - scroller.clientHeight / 3;
    }
  }

  function cssEscape(s) { return window.CSS && CSS.escape ? CSS.escape(s) : s.replace(/["\\]/g, '\\$&'); }

  /** The graph items that show a module path: its box, or its nodes when it is drawn as them. */
  function itemsForPath(path) {
    const scope = S.model.scopes.get(path);
    if (!scope || !scope.nodeCount) return [];
    if (scope.flat) return scope.directNodes.slice();
    if (S.model.display.get(path) === scope) return [scope];
    return [];
  }

  async function revealPath(path) {
    const items = itemsForPath(path);
    if (!items.length) { message('No node of ' + path + ' is in the graph.'); return false; }
    const ok = await reveal(items, true);
    if (ok) {
      S.selected = items.length === 1 ? items[0] : null;
      refreshMarks();
      showDetails(items[0]);
      highlightRowFor(items[0]);
    }
    return ok;
  }

  function installSummary() {
    const tbody = $('mav-summary').tBodies[0];
    tbody.addEventListener('click', e => {
      const tr = e.target.closest('tr[data-path]');
      if (!tr) return;
      const path = tr.getAttribute('data-path');
      if (e.target.closest('.mav-tog')) {
        const row = S.summary.byPath.get(path);
        if (row && row.hasKids) {
          if (S.openRows.has(path)) S.openRows.delete(path); else S.openRows.add(path);
          renderSummaryRows();
        }
        return;
      }
      revealPath(path);
    });
  }
