  // 60-render.js: the SVG of a layout: open scopes, edges, nodes and collapsed boxes.

  function render(laid, g) {
    const viewport = $('mav-viewport');
    viewport.textContent = '';
    S.geometry = new Map();
    collectGeometry(laid, g.byId, S.geometry);
    S.graphSize = { w: laid.width || 0, h: laid.height || 0 };
    S.elems = new Map();
    S.edgeElems = [];

    const gScopes = svgEl('g', { class: 'mav-layer-scopes' }, viewport);
    const gEdges = svgEl('g', { class: 'mav-layer-edges' }, viewport);
    const gNodes = svgEl('g', { class: 'mav-layer-nodes' }, viewport);

    const open = g.vis.open.slice().sort((a, b) => a.ddepth - b.ddepth);
    for (const s of open) drawOpenScope(gScopes, s);

    const laidEdges = new Map();
    collectEdges(laid, laidEdges);
    for (const e of g.edges) {
      const le = laidEdges.get(e.id);
      if (le) drawEdge(gEdges, e, le);
    }
    for (const s of g.vis.collapsed) drawCollapsedScope(gNodes, s);
    for (const n of g.vis.nodes) drawNode(gNodes, n);

    applyColours();
    refreshMarks();
  }

  function drawNode(parent, n) {
    const geo = S.geometry.get(n);
    if (!geo) return;
    const grp = svgEl('g', { class: 'mav-node mav-op-' + n.raw.op, 'data-name': n.name, transform: 'translate(' + geo.x + ',' + geo.y + ')' }, parent);
    const title = svgEl('title', {}, grp);
    title.textContent = n.name + '\n' + n.raw.op + (n.raw.target !== undefined ? ' ' + n.raw.target : '') +
      (n.shape ? '\n' + fmtShapeList(n.shape) : '') + (n.params ? '\n' + fmtInt(n.params) + ' params' : '');
    svgEl('rect', { class: 'mav-box', width: geo.w, height: geo.h, rx: 6, ry: 6 }, grp);
    const L = n.lines;
    svgText(grp, 10, 17, 'mav-l1', L.l1);
    if (L.right) svgText(grp, geo.w - 8, 17, 'mav-right', L.right, 'end');
    svgText(grp, 10, 32, 'mav-l2', L.l2);
    svgText(grp, 10, 45, 'mav-l3', L.l3);
    S.elems.set(n, grp);
  }

  function drawCollapsedScope(parent, s) {
    const geo = S.geometry.get(s);
    if (!geo) return;
    const w = geo.w - 5, h = geo.h - 5;
    const grp = svgEl('g', {
      class: 'mav-scope mav-collapsed' + (s.kind === 'chunk' ? ' mav-chunk' : ''), 'data-path': s.path,
      'data-collapsed': 'true', transform: 'translate(' + geo.x + ',' + geo.y + ')',
    }, parent);
    const title = svgEl('title', {}, grp);
    title.textContent = (s.kind === 'chunk' ? 'range ' + s.path : s.path + (s.cls ? '\n' + s.cls : '')) +
      '\n' + fmtInt(s.nodeCount) + ' nodes' + (s.params ? ', ' + fmtInt(s.params) + ' params' : '') + '\nclick to expand';
    svgEl('rect', { class: 'mav-stack', x: 5, y: 5, width: w, height: h, rx: 6, ry: 6 }, grp);
    svgEl('rect', { class: 'mav-box', width: w, height: h, rx: 6, ry: 6 }, grp);
    const L = s.lines;
    svgText(grp, 10, 17, 'mav-toggle', '+');
    svgText(grp, 24, 17, 'mav-l1', L.l1);
    if (L.right) svgText(grp, w - 8, 17, 'mav-right', L.right, 'end');
    svgText(grp, 10, 32, 'mav-l2', L.l2);
    svgText(grp, 10, 45, 'mav-l3', L.l3);
    S.elems.set(s, grp);
  }

  function drawOpenScope(parent, s) {
    const geo = S.geometry.get(s);
    if (!geo) return;
    const grp = svgEl('g', {
      class: 'mav-scope mav-open mav-depth-' + (s.ddepth % 4) + (s.kind === 'chunk' ? ' mav-chunk' : ''),
      'data-path': s.path, 'data-collapsed': 'false', transform: 'translate(' + geo.x + ',' + geo.y + ')',
    }, parent);
    svgEl('rect', { class: 'mav-scope-bg', width: geo.w, height: geo.h, rx: 8, ry: 8 }, grp);
    const head = svgEl('g', { class: 'mav-scope-head' }, grp);
    const title = svgEl('title', {}, head);
    title.textContent = (s.kind === 'chunk' ? 'range ' + s.path : s.path + (s.cls ? '\n' + s.cls : '')) +
      '\n' + fmtInt(s.nodeCount) + ' nodes' + (s.params ? ', ' + fmtInt(s.params) + ' params' : '') + '\nclick to collapse';
    svgEl('rect', { class: 'mav-head-hit', width: geo.w, height: CFG.scopeHead, rx: 8, ry: 8 }, head);
    svgText(head, 10, 16, 'mav-toggle', '−');
    const fitted = fitHeader(scopeHeaderText(s), s.params ? fmtShort(s.params) : '', geo.w - 34);
    svgText(head, 24, 16, 'mav-scope-title', fitted.text);
    if (fitted.right) svgText(head, geo.w - 10, 16, 'mav-right', fitted.right, 'end');
    S.elems.set(s, grp);
  }

  /** A scope header that fits a width: the right-hand figure goes first, then characters. */
  function fitHeader(text, right, width) {
    const rw = right ? textWidth(right, CFG.fontSmall) + 14 : 0;
    if (textWidth(text, CFG.fontBold) + rw <= width) return { text: text, right: right };
    const full = text;
    let n = full.length;
    while (n > 4 && textWidth(text, CFG.fontBold) > width) text = shortenName(full, --n);
    return { text: text, right: '' };
  }

  function edgePath(sections) {
    let d = '';
    for (const sec of sections) {
      const pts = [sec.startPoint].concat(sec.bendPoints || [], [sec.endPoint]);
      d += 'M' + pts[0].x + ' ' + pts[0].y;
      for (let i = 1; i < pts.length; i++) {
        const p = pts[i];
        if (i < pts.length - 1) {
          // round the corner at p
          const a = pts[i - 1], b = pts[i + 1];
          const r = Math.min(6, dist(a, p) / 2, dist(p, b) / 2);
          const p1 = towards(p, a, r), p2 = towards(p, b, r);
          d += 'L' + p1.x + ' ' + p1.y + 'Q' + p.x + ' ' + p.y + ' ' + p2.x + ' ' + p2.y;
        } else {
          d += 'L' + p.x + ' ' + p.y;
        }
      }
    }
    return d;
  }
  function dist(a, b) { return Math.hypot(a.x - b.x, a.y - b.y); }
  function towards(p, q, r) {
    const d = dist(p, q) || 1;
    return { x: p.x + (q.x - p.x) * r / d, y: p.y + (q.y - p.y) * r / d };
  }

  function drawEdge(parent, e, laidEdge) {
    if (!laidEdge.sections || !laidEdge.sections.length) return;
    const el = svgEl('path', { class: 'mav-edge', d: edgePath(laidEdge.sections), 'marker-end': 'url(#mav-arrow)' }, parent);
    S.edgeElems.push({ a: e.a, b: e.b, el: el });
  }
