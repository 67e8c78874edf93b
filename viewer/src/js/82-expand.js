  // 82-expand.js: expanding and collapsing scopes, revealing items, the depth menu, within the box limit.

  function message(text) {
    const box = $('mav-message');
    box.textContent = text;
    box.hidden = false;
    clearTimeout(S.messageTimer);
    S.messageTimer = setTimeout(() => { box.hidden = true; }, 6000);
  }

  function tooMany(count, what) {
    message(what + ' would draw ' + fmtInt(count) + ' boxes; the viewer draws at most ' + fmtInt(CFG.maxVisible) +
      ' at once. Collapse other scopes first, or search for a node to go straight to it.');
  }

  function descendantsOf(scope, set) {
    for (const it of scope.items) if (it.kind !== 'node') { set.add(it); descendantsOf(it, set); }
    return set;
  }

  async function expandScope(scope) {
    const next = new Set(S.expanded);
    next.add(scope);
    for (const a of ancestorsOf(scope)) next.add(a);
    let n = countWith(next);
    if (n > CFG.maxVisible) { // forget what was open inside it
      for (const d of descendantsOf(scope, new Set())) next.delete(d);
      n = countWith(next);
    }
    if (n > CFG.maxVisible) { tooMany(n, 'Expanding ' + scope.path); return false; }
    const previous = S.expanded;
    S.expanded = next;
    openRowFor(scope);
    return relayout(scope, previous);
  }

  /** Expanding a module in the graph opens its row in the summary table too. */
  function openRowFor(scope) {
    if (scope.kind !== 'scope' || !S.summary) return;
    const row = S.summary.byPath.get(scope.path);
    if (!row || !row.hasKids) return;
    let changed = false;
    for (let r = row; r; r = r.parentRow) if (!S.openRows.has(r.path)) { S.openRows.add(r.path); changed = true; }
    if (changed) renderSummaryRows();
  }

  async function collapseScope(scope) {
    if (scope === S.model.root || !S.expanded.has(scope)) return false;
    const previous = S.expanded;
    S.expanded = new Set(previous);
    S.expanded.delete(scope);
    if (S.selected && S.selected !== scope && !staysDrawn(S.selected)) S.selected = null;
    return relayout(scope, previous);
  }

  /** Whether an item is drawn with the current expansion. */
  function staysDrawn(it) {
    for (const a of ancestorsOf(it)) if (!S.expanded.has(a)) return false;
    return true;
  }

  /** Boxes drawn if the scopes in `expanded` (and the root) were open. */
  function countWith(expanded) { return countVisible(new Set([S.model.root, ...expanded])); }

  /** Opens every scope above the items, closing others if needed; then centres them. */
  async function reveal(items, mark) {
    items = items.filter(Boolean);
    if (!items.length) return false;
    const need = new Set();
    for (const it of items) for (const a of ancestorsOf(it)) need.add(a);
    const missing = [...need].some(a => !S.expanded.has(a));
    if (missing) {
      let next = new Set([...S.expanded, ...need]);
      if (countWith(next) > CFG.maxVisible) next = need; // close the others
      const n = countWith(next);
      if (n > CFG.maxVisible) { tooMany(n, 'Showing ' + itemName(items[0])); return false; }
      const previous = S.expanded;
      S.expanded = next;
      if (!await relayout(null, previous)) return false;
    }
    if (mark) { S.highlight = new Set(items); refreshMarks(); }
    centreOn(items);
    return true;
  }

  async function setDepth(depth) {
    const next = depth === 'all' ? expandedToDepth(Infinity) : expandedToDepth(Number(depth));
    const n = countWith(next);
    if (n > CFG.maxVisible) { tooMany(n, 'Opening to that depth'); syncDepthSelect(); return; }
    const previous = S.expanded;
    S.expanded = next;
    if (await relayout(null, previous)) initialView();
  }

  function syncDepthSelect() {
    const sel = $('mav-depth');
    if (!sel) return;
    let value = 'custom';
    const maxD = S.depthCounts.length - 1;
    for (let d = 1; d <= maxD; d++) {
      const want = expandedToDepth(d);
      if (want.size === S.expanded.size && [...want].every(s => S.expanded.has(s))) { value = d === maxD ? 'all' : String(d); break; }
    }
    sel.value = value;
  }

  function buildDepthSelect() {
    const sel = $('mav-depth');
    S.depthCounts = depthCounts(S.model);
    const maxD = S.depthCounts.length - 1;
    let html = '<option value="custom" hidden>custom</option>';
    for (let d = 1; d <= maxD; d++) {
      const n = S.depthCounts[d];
      const value = d === maxD ? 'all' : String(d);
      const label = (d === maxD ? 'all' : String(d)) + ' (' + fmtInt(n) + (n === 1 ? ' box)' : ' boxes)');
      html += '<option value="' + value + '"' + (n > CFG.maxVisible ? ' disabled' : '') + '>' + label + '</option>';
    }
    sel.innerHTML = html;
  }
