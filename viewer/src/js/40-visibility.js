  // 40-visibility.js: what a set of open scopes draws: visible items and counts; the default and per-depth sets.

  function isExpanded(scope) { return scope === S.model.root || S.expanded.has(scope); }

  /** Visible items for an expansion set: drawn nodes and collapsed boxes, and open scopes. */
  function visibleItems(expanded) {
    const out = { nodes: [], collapsed: [], open: [] };
    const root = S.model.root;
    (function walk(scope) {
      for (const it of scope.items) {
        if (it.kind === 'node') out.nodes.push(it);
        else if (expanded.has(it)) { out.open.push(it); walk(it); }
        else out.collapsed.push(it);
      }
    })(root);
    return out;
  }

  function countVisible(expanded) {
    let c = 0;
    (function walk(scope) {
      for (const it of scope.items) {
        if (it.kind !== 'node' && expanded.has(it)) walk(it);
        else c++;
      }
    })(S.model.root);
    return c;
  }

  function visibleNodeCount() {
    let c = 0;
    for (const it of S.elems.keys()) if (it.kind === 'node' || !isExpanded(it)) c++;
    return c;
  }

  /** The outermost collapsed scope holding a node, or the node itself. */
  function representative(node) {
    let rep = node;
    for (let s = node.up; s && s !== S.model.root; s = s.up) if (!S.expanded.has(s)) rep = s;
    return rep;
  }

  function ancestorsOf(item) {
    const out = [];
    for (let s = item.up; s && s !== S.model.root; s = s.up) out.push(s);
    return out;
  }

  function defaultExpanded(model) {
    const set = new Set();
    if (model.nodes.length <= CFG.expandAllMaxNodes) {
      for (const s of model.display.values()) if (s !== model.root) set.add(s);
      if (countVisible(set) <= CFG.maxVisible) return set;
      set.clear();
    }
    return set; // only the root open: the top-level scopes (depth 1) collapsed
  }

  function expandedToDepth(depth) {
    const set = new Set();
    for (const s of S.model.display.values()) if (s !== S.model.root && s.ddepth < depth) set.add(s);
    return set;
  }

  /** Boxes shown when everything above a display depth is open, for every depth. */
  function depthCounts(model) {
    const nodesAt = [], scopesAt = [];
    (function walk(scope) {
      for (const it of scope.items) {
        const arr = it.kind === 'node' ? nodesAt : scopesAt;
        arr[it.ddepth] = (arr[it.ddepth] || 0) + 1;
        if (it.kind !== 'node') walk(it);
      }
    })(model.root);
    const maxDepth = Math.max(nodesAt.length, scopesAt.length) - 1;
    const counts = [];
    let nodesAbove = 0;
    for (let d = 1; d <= maxDepth; d++) {
      nodesAbove += nodesAt[d] || 0;
      counts[d] = nodesAbove + (scopesAt[d] || 0);
    }
    return counts;
  }
