  // 87-search.js: the search box (#mav-search): matching nodes and scopes, stepping through them.

  function searchMatches(query) {
    const q = query.trim().toLowerCase();
    if (!q) return [];
    const exact = [], prefix = [], inner = [];
    for (const n of S.model.nodes) {
      const name = n.name.toLowerCase();
      const target = typeof n.raw.target === 'string' ? n.raw.target.toLowerCase() : '';
      if (name === q || target === q) exact.push(n);
      else if (name.startsWith(q)) prefix.push(n);
      else if (name.includes(q) || target.includes(q)) inner.push(n);
    }
    for (const s of S.model.display.values()) {
      if (s.kind !== 'scope' || s === S.model.root) continue;
      const p = s.path.toLowerCase();
      if (p === q) exact.unshift(s); else if (p.includes(q)) inner.push(s);
    }
    return exact.concat(prefix, inner);
  }

  async function searchNext(step) {
    const m = S.searchMatches;
    const status = $('mav-search-status');
    if (!m.length) { status.textContent = $('mav-search').value.trim() ? 'no match' : ''; return; }
    S.searchIndex = (S.searchIndex + step + m.length) % m.length;
    const it = m[S.searchIndex];
    status.textContent = (S.searchIndex + 1) + '/' + m.length;
    if (await reveal([it], true)) select(it);
  }

  function installSearch() {
    const input = $('mav-search');
    let timer = null;
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        S.searchMatches = searchMatches(input.value);
        S.searchIndex = -1;
        $('mav-search-status').textContent = input.value.trim() ? (S.searchMatches.length ? S.searchMatches.length + ' found, Enter' : 'no match') : '';
      }, 120);
    });
    input.addEventListener('keydown', e => {
      if (e.key === 'Enter') {
        e.preventDefault();
        clearTimeout(timer);
        if (S.searchIndex < 0) S.searchMatches = searchMatches(input.value);
        searchNext(e.shiftKey ? -1 : 1);
      } else if (e.key === 'Escape') {
        input.value = '';
        S.searchMatches = [];
        S.searchIndex = -1;
        S.highlight = new Set();
        $('mav-search-status').textContent = '';
        refreshMarks();
      }
    });
  }
