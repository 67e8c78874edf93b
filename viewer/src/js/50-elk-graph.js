  // 50-elk-graph.js: ELK's input for what is visible (box sizes, merged edges), and relayout(), which lays it out and draws it.

  const ELK_ROOT_OPTIONS = {
    'elk.algorithm': 'layered',
    'elk.direction': 'DOWN',
    'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
    'elk.json.shapeCoords': 'ROOT',
    'elk.json.edgeCoords': 'ROOT',
    'elk.edgeRouting': 'ORTHOGONAL',
    'elk.layered.spacing.nodeNodeBetweenLayers': '26',
    'elk.layered.spacing.edgeNodeBetweenLayers': '14',
    'elk.spacing.nodeNode': '22',
    'elk.spacing.edgeNode': '12',
    'elk.spacing.edgeEdge': '8',
    'elk.spacing.componentComponent': '30',
    'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
    // fx order is topological: edges against it (only through collapsed boxes) are the ones to reverse
    'elk.layered.cycleBreaking.strategy': 'MODEL_ORDER',
    'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
    'elk.layered.nodePlacement.bk.fixedAlignment': 'BALANCED',
    'elk.padding': '[top=16,left=16,bottom=16,right=16]',
  };
  const ELK_SCOPE_OPTIONS = {
    'elk.padding': '[top=' + (CFG.scopeHead + 12) + ',left=12,bottom=12,right=12]',
  };

  function nodeBoxLines(n) {
    const l1 = n.label;
    const l2 = shortenName(n.name);
    let l3 = fmtShape(n.shape);
    if (!l3 && n.raw.results && n.raw.results[0] && n.raw.results[0].type) l3 = String(n.raw.results[0].type);
    const right = n.params ? fmtShort(n.params) : '';
    return { l1: l1, l2: l2, l3: l3, right: right };
  }

  function scopeBoxLines(s) {
    const lastNode = s.last;
    if (s.kind === 'chunk') {
      return {
        l1: shortenName(s.firstName, 22) + ' … ' + shortenName(s.lastName, 22),
        l2: (s.last - s.first + 1) + ' of ' + s.total + ' items · ' + fmtInt(s.nodeCount) + ' nodes',
        l3: lastNode ? fmtShape(lastNode.shape) : '',
        right: s.params ? fmtShort(s.params) : '',
      };
    }
    const name = s.path.slice(s.path.lastIndexOf('.') + 1);
    return {
      l1: shortenName(s.depth > 1 ? s.path : name),
      l2: (shortClass(s.cls) || 'module') + ' · ' + fmtInt(s.nodeCount) + (s.nodeCount === 1 ? ' node' : ' nodes'),
      l3: lastNode ? fmtShape(lastNode.shape) : '',
      right: s.params ? fmtShort(s.params) : '',
    };
  }

  function boxWidth(lines, icon) {
    const w = Math.max(
      textWidth(lines.l1, CFG.fontBold) + (lines.right ? textWidth(lines.right, CFG.fontSmall) + 12 : 0) + (icon ? 16 : 0),
      textWidth(lines.l2, CFG.fontSmall),
      textWidth(lines.l3, CFG.fontSmall));
    return Math.max(CFG.nodeMinWidth, Math.ceil(w) + 20);
  }

  function scopeHeaderText(s) {
    if (s.kind === 'chunk') return shortenName(s.firstName, 24) + ' … ' + shortenName(s.lastName, 24);
    const cls = shortClass(s.cls);
    return shortenName(s.path, 40) + (cls ? ' · ' + cls : '');
  }

  function elkId(it) { return (it.kind === 'node' ? 'n:' : 's:') + (it.kind === 'node' ? it.name : it.path); }

  function buildElkGraph(vis) {
    const root = S.model.root;
    const elkRoot = { id: 'mav-root', layoutOptions: ELK_ROOT_OPTIONS, children: [], edges: [] };
    const elkOf = new Map([[root, elkRoot]]);
    const byId = new Map();
    (function add(scope, parent) {
      for (const it of scope.items) {
        const id = elkId(it);
        byId.set(id, it);
        if (it.kind === 'node') {
          it.lines = nodeBoxLines(it);
          parent.children.push({ id: id, width: boxWidth(it.lines, false), height: CFG.nodeHeight });
        } else if (S.expanded.has(it)) {
          const minW = Math.ceil(textWidth(scopeHeaderText(it), CFG.fontBold) + (it.params ? textWidth(fmtShort(it.params), CFG.fontSmall) + 16 : 0) + 44);
          // elkjs 0.12.1 applies a compound node's minimum size transposed when the
          // direction is DOWN with INCLUDE_CHILDREN, hence (height, width) here;
          // drawOpenScope() still shortens a header that does not fit.
          const e = { id: id, layoutOptions: Object.assign({ 'elk.nodeSize.minimum': '(40,' + minW + ')', 'elk.nodeSize.constraints': 'MINIMUM_SIZE' }, ELK_SCOPE_OPTIONS), children: [], edges: [] };
          parent.children.push(e);
          elkOf.set(it, e);
          add(it, e);
        } else {
          it.lines = scopeBoxLines(it);
          parent.children.push({ id: id, width: boxWidth(it.lines, true) + 5, height: CFG.nodeHeight + 5 });
        }
      }
    })(root, elkRoot);

    const seen = new Set();
    const edges = [];
    for (const [a, b] of S.model.edges) {
      const ra = representative(a), rb = representative(b);
      if (ra === rb) continue;
      const key = elkId(ra) + '\u0000' + elkId(rb);
      if (seen.has(key)) continue;
      seen.add(key);
      const container = commonContainer(ra, rb);
      const e = { id: 'e' + edges.length, sources: [elkId(ra)], targets: [elkId(rb)] };
      elkOf.get(container).edges.push(e);
      edges.push({ id: e.id, a: ra, b: rb });
    }
    return { elkRoot: elkRoot, byId: byId, edges: edges, vis: vis };
  }

  function commonContainer(a, b) {
    const mine = new Set();
    for (let s = a.up; s; s = s.up) mine.add(s);
    for (let s = b.up; s; s = s.up) if (mine.has(s)) return s;
    return S.model.root;
  }

  function collectGeometry(elkNode, byId, out) {
    for (const c of elkNode.children || []) {
      const it = byId.get(c.id);
      if (it) out.set(it, { x: c.x, y: c.y, w: c.width, h: c.height });
      collectGeometry(c, byId, out);
    }
  }

  function collectEdges(elkNode, out) {
    for (const e of elkNode.edges || []) out.set(e.id, e);
    for (const c of elkNode.children || []) collectEdges(c, out);
  }

  /**
   * Lays out and draws what is visible. anchor: an item whose screen position
   * is kept (the scope just expanded or collapsed).
   */
  function relayout(anchor, previous) {
    const run = async () => {
      const vis = visibleItems(new Set([S.model.root, ...S.expanded]));
      let before = null;
      if (anchor && S.geometry.has(anchor)) before = screenPos(S.geometry.get(anchor));
      const busy = setTimeout(() => { $('mav-busy').hidden = false; }, 250);
      try {
        const t0 = performance.now();
        const g = buildElkGraph(vis);
        S.lastElkInput = g.elkRoot;
        let laid;
        try {
          laid = await engineLayout(S.engine, g.elkRoot, CFG.layoutTimeoutMs);
        } catch (err) {
          if (!previous) throw err; // the first layout: nothing to go back to
          S.expanded = previous; // back to what is drawn
          message((err.stopped ? 'Stopped: ' : 'The layout failed: ') + err.message +
            '. The drawing is as it was; collapse other scopes first.');
          return false;
        }
        const t1 = performance.now();
        S.layoutMs = t1 - t0;
        render(laid, g);
        S.renderMs = performance.now() - t1;
        if (before && S.geometry.has(anchor)) {
          const after = screenPos(S.geometry.get(anchor));
          S.view.x += before.x - after.x;
          S.view.y += before.y - after.y;
          applyView();
        }
        updateStats();
        syncDepthSelect();
        return true;
      } finally {
        clearTimeout(busy);
        $('mav-busy').hidden = true;
      }
    };
    S.layoutChain = S.layoutChain.then(run, run);
    return S.layoutChain;
  }
