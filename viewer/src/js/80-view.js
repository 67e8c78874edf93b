  // 80-view.js: the view transform: pan, zoom, fit, the first view and centring.

  function applyView() {
    $('mav-viewport').setAttribute('transform', 'translate(' + S.view.x + ',' + S.view.y + ') scale(' + S.view.k + ')');
  }

  function screenPos(geo) { return { x: S.view.x + geo.x * S.view.k, y: S.view.y + geo.y * S.view.k }; }

  function canvasSize() {
    const r = $('mav-canvas').getBoundingClientRect();
    return { w: r.width || 800, h: r.height || 600 };
  }

  function zoomAt(px, py, factor) {
    const k = Math.max(0.02, Math.min(4, S.view.k * factor));
    const f = k / S.view.k;
    S.view.x = px - (px - S.view.x) * f;
    S.view.y = py - (py - S.view.y) * f;
    S.view.k = k;
    applyView();
  }

  function fitView() {
    const c = canvasSize(), g = S.graphSize;
    if (!g.w || !g.h) return;
    const k = Math.min(2, (c.w - 40) / g.w, (c.h - 40) / g.h);
    S.view = { k: k, x: (c.w - g.w * k) / 2, y: (c.h - g.h * k) / 2 };
    applyView();
  }

  /** The first view: the whole graph when it fits legibly, else its top at a readable zoom. */
  function initialView() {
    const c = canvasSize(), g = S.graphSize;
    if (!g.w || !g.h) return;
    const fit = Math.min((c.w - 40) / g.w, (c.h - 40) / g.h);
    if (fit >= 0.6) { S.view = { k: Math.min(1, fit), x: 0, y: 0 }; }
    else {
      const k = Math.max(fit, Math.min(1, (c.w - 40) / g.w));
      S.view = { k: k, x: 0, y: 20 - 0 };
    }
    S.view.x = (c.w - g.w * S.view.k) / 2;
    if (g.h * S.view.k <= c.h) S.view.y = (c.h - g.h * S.view.k) / 2;
    else S.view.y = 20;
    applyView();
  }

  function centreOn(items) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const it of items) {
      const g = S.geometry.get(it);
      if (!g) continue;
      x0 = Math.min(x0, g.x); y0 = Math.min(y0, g.y); x1 = Math.max(x1, g.x + g.w); y1 = Math.max(y1, g.y + g.h);
    }
    if (x0 === Infinity) return;
    const c = canvasSize();
    let k = S.view.k;
    const fit = Math.min((c.w - 60) / (x1 - x0), (c.h - 60) / (y1 - y0));
    if (k > fit) k = fit;
    if (k < 0.5) k = Math.min(0.9, fit);
    S.view.k = k;
    S.view.x = c.w / 2 - (x0 + x1) / 2 * k;
    S.view.y = c.h / 2 - (y0 + y1) / 2 * k;
    applyView();
  }

  function installPanZoom() {
    const svg = $('mav-svg');
    svg.addEventListener('wheel', e => {
      e.preventDefault();
      const r = svg.getBoundingClientRect();
      const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
      zoomAt(e.clientX - r.left, e.clientY - r.top, Math.exp(-e.deltaY * unit * 0.0015));
    }, { passive: false });
    let drag = null;
    svg.addEventListener('pointerdown', e => {
      if (e.button !== 0) return;
      drag = { x: e.clientX, y: e.clientY, vx: S.view.x, vy: S.view.y, moved: false, id: e.pointerId };
    });
    svg.addEventListener('pointermove', e => {
      if (!drag) return;
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) > 4) {
        drag.moved = true;
        svg.setPointerCapture(drag.id);
        svg.classList.add('mav-panning');
      }
      if (drag.moved) { S.view.x = drag.vx + dx; S.view.y = drag.vy + dy; applyView(); }
    });
    const end = e => {
      if (!drag) return;
      if (drag.moved) { S.suppressClick = true; setTimeout(() => { S.suppressClick = false; }, 0); }
      svg.classList.remove('mav-panning');
      drag = null;
    };
    svg.addEventListener('pointerup', end);
    svg.addEventListener('pointercancel', end);
  }
