  // 30-model.js: the document read into nodes, module scopes, and the display tree with its ranges (chunks).

  /** Reads a software metadata number, or null when it is not set. */
  function swNumber(raw, key) {
    const sw = raw.software;
    return sw && isNum(sw[key]) ? sw[key] : null;
  }

  /** The key a node is coloured by in the mase_op mode. */
  function opKey(n) {
    if (n.raw.op === 'placeholder' || n.raw.op === 'output') return n.raw.op;
    return n.raw.mase_op || n.label;
  }

  function nodeLabel(raw) {
    switch (raw.op) {
      case 'placeholder': return 'input';
      case 'output': return 'output';
      case 'get_attr': return 'get_attr';
      case 'call_module': return shortClass(raw.module_class) || raw.mase_op || 'module';
      default: {
        if (raw.mase_op && raw.mase_op !== 'placeholder' && raw.mase_op !== 'output') return raw.mase_op;
        const t = String(raw.target || raw.op || '?');
        return t.replace(/^aten::/, '').replace(/^torch\./, '');
      }
    }
  }

  function makeScope(model, path) {
    let s = model.scopes.get(path);
    if (s) return s;
    const dot = path.lastIndexOf('.');
    const parent = path === '' ? null : makeScope(model, dot < 0 ? '' : path.slice(0, dot));
    s = {
      kind: 'scope', path: path, cls: '', parentScope: parent, children: [], directNodes: [],
      depth: parent ? parent.depth + 1 : 0, order: Infinity, nodeCount: 0,
      params: 0, flops: 0, macs: 0, last: null, flat: false, items: null, up: null, ddepth: 0,
    };
    if (parent) parent.children.push(s);
    model.scopes.set(path, s);
    return s;
  }

  function buildModel(doc) {
    const graph = Array.isArray(doc.graphs) ? doc.graphs[0] : null;
    if (!graph || !Array.isArray(graph.nodes)) throw new Error('the document has no graph to draw');
    const model = {
      doc: doc, graph: graph, nodes: [], nodeByName: new Map(), scopes: new Map(),
      display: new Map(), edges: [], root: null, has: { params: false, flops: false, macs: false, entry: false },
      hasScopeField: false,
    };
    model.root = makeScope(model, '');
    for (const m of doc.modules || []) {
      if (m && typeof m.path === 'string') makeScope(model, m.path).cls = m.class || '';
    }
    graph.nodes.forEach((raw, i) => {
      const res = Array.isArray(raw.results) && raw.results[0] ? raw.results[0] : null;
      let scopePath = raw.scope;
      if (typeof scopePath === 'string') model.hasScopeField = true;
      else scopePath = raw.op === 'call_module' && typeof raw.target === 'string' ? raw.target : '';
      const n = {
        kind: 'node', raw: raw, i: i, order: i, name: String(raw.name), label: nodeLabel(raw),
        shape: res && Array.isArray(res.shape) ? res.shape : null,
        params: swNumber(raw, 'params'), flops: swNumber(raw, 'flops'), macs: swNumber(raw, 'macs'),
        entry: raw.software && typeof raw.software.entry === 'string' ? raw.software.entry : null,
        exit: raw.software && typeof raw.software.exit === 'string' ? raw.software.exit : null,
        scopePath: scopePath, scope: null, leafScope: null, up: null, ddepth: 0,
      };
      if (n.params !== null) model.has.params = true;
      if (n.flops !== null) model.has.flops = true;
      if (n.macs !== null) model.has.macs = true;
      if (n.entry !== null || n.exit !== null) model.has.entry = true;
      n.scope = makeScope(model, scopePath);
      n.scope.directNodes.push(n);
      model.nodes.push(n);
      model.nodeByName.set(n.name, n);
    });
    for (const e of graph.edges || []) {
      const a = model.nodeByName.get(e.from), b = model.nodeByName.get(e.to);
      if (a && b && a !== b) model.edges.push([a, b]);
    }
    aggregateScopes(model);
    markFlatScopes(model);
    buildDisplayTree(model, model.root);
    return model;
  }

  /** Node counts, first/last node and metadata sums of every module scope. */
  function aggregateScopes(model) {
    for (const n of model.nodes) {
      for (let s = n.scope; s; s = s.parentScope) {
        s.nodeCount++;
        if (n.order < s.order) s.order = n.order;
        if (!s.last || n.order > s.last.order) s.last = n;
        s.params += n.params || 0;
        s.flops += n.flops || 0;
        s.macs += n.macs || 0;
      }
    }
  }

  /**
   * A leaf module scope (no child scopes) that holds one node, or only calls
   * of that very module (a module called twice), is drawn as its nodes.
   */
  function markFlatScopes(model) {
    for (const s of model.scopes.values()) {
      if (s === model.root || s.children.length || !s.directNodes.length) continue;
      s.flat = s.directNodes.length === 1 ||
        s.directNodes.every(n => n.raw.op === 'call_module' && n.raw.target === s.path);
    }
  }

  function buildDisplayTree(model, scope) {
    const items = scope.directNodes.slice();
    for (const c of scope.children) {
      if (!c.nodeCount) continue;
      if (c.flat) {
        for (const n of c.directNodes) { n.leafScope = c; items.push(n); }
      } else {
        buildDisplayTree(model, c);
        items.push(c);
      }
    }
    items.sort((a, b) => a.order - b.order);
    scope.items = chunkItems(model, scope, items, 0);
    for (const it of scope.items) it.up = scope;
    model.display.set(scope.path, scope);
  }

  /** Splits a long item list into ranges (display-only "chunk" scopes). */
  function chunkItems(model, owner, items, offset) {
    if (items.length <= CFG.chunkMax) return items;
    let size = CFG.chunkSize;
    while (Math.ceil(items.length / size) > CFG.chunkMax) size *= CFG.chunkSize;
    const chunks = [];
    for (let a = 0; a < items.length; a += size) {
      const part = items.slice(a, a + size);
      const first = offset + a, last = offset + a + part.length - 1;
      const chunk = {
        kind: 'chunk', path: owner.path + '[' + first + '-' + last + ']', cls: '', owner: owner,
        first: first, last: last, total: null, order: part[0].order, nodeCount: 0,
        params: 0, flops: 0, macs: 0, lastNode: null, up: null, ddepth: 0,
        firstName: itemName(part[0]), lastName: itemName(part[part.length - 1]),
      };
      for (const it of part) {
        chunk.nodeCount += it.kind === 'node' ? 1 : it.nodeCount;
        chunk.params += it.params || 0;
        chunk.flops += it.flops || 0;
        chunk.macs += it.macs || 0;
      }
      chunk.last = lastNodeOf(part[part.length - 1]);
      chunk.items = chunkItems(model, owner, part, first);
      for (const it of chunk.items) it.up = chunk;
      model.display.set(chunk.path, chunk);
      chunks.push(chunk);
    }
    for (const c of chunks) c.total = items.length;
    return chunks;
  }

  function itemName(it) {
    if (it.kind === 'node') return it.name;
    if (it.kind === 'chunk') return it.firstName;
    return it.path;
  }

  function lastNodeOf(it) { return it.kind === 'node' ? it : it.last; }

  function setDisplayDepths(scope) {
    for (const it of scope.items) {
      it.ddepth = scope.ddepth + 1;
      if (it.kind !== 'node') setDisplayDepths(it);
    }
  }
