  // 20-layout-engine.js: ELK in a Web Worker (or in the page): layouts with a timeout, and Stop.

  /**
   * ELK runs in a Web Worker made from the text of <script id="mav-elk">, so a
   * slow layout never freezes the page and can be stopped. Where a worker
   * cannot be made, the same text runs in the page instead.
   */
  function workerMain() {
    /* global ELK */
    const elk = new ELK();
    self.onmessage = e => {
      const id = e.data.id;
      elk.layout(e.data.graph).then(
        graph => self.postMessage({ id: id, graph: graph }),
        err => self.postMessage({ id: id, error: String(err && err.message ? err.message : err) }));
    };
  }

  function startLayoutEngine() {
    const source = $('mav-elk').textContent;
    const engine = { worker: null, url: null, pending: new Map(), nextId: 1, inPage: null };
    try {
      engine.url = URL.createObjectURL(new Blob([source, '\n;(' + workerMain.toString() + ')();\n'], { type: 'text/javascript' }));
      spawnWorker(engine);
      // warm the engine up while the page reads the graph
      engine.warm = engineLayout(engine, { id: 'warm', children: [{ id: 'a', width: 10, height: 10 }, { id: 'b', width: 10, height: 10 }], edges: [{ id: 'e', sources: ['a'], targets: ['b'] }] }, 0).catch(() => null);
    } catch (err) {
      engine.worker = null;
    }
    engine.source = source;
    return engine;
  }

  function spawnWorker(engine) {
    const w = new Worker(engine.url);
    w.onmessage = e => {
      const p = engine.pending.get(e.data.id);
      if (!p) return;
      engine.pending.delete(e.data.id);
      clearTimeout(p.timer);
      if (e.data.error) p.reject(new Error(e.data.error)); else p.resolve(e.data.graph);
    };
    w.onerror = e => {
      e.preventDefault();
      // the worker could not start (or died): finish what waits on it in the page
      useInPage(engine);
      for (const [id, p] of engine.pending) { clearTimeout(p.timer); inPageLayout(engine, p.graph).then(p.resolve, p.reject); engine.pending.delete(id); }
    };
    engine.worker = w;
  }

  function useInPage(engine) {
    if (engine.worker) { engine.worker.terminate(); engine.worker = null; }
    if (!engine.inPage) {
      if (typeof window.ELK !== 'function') {
        const script = document.createElement('script');
        script.textContent = engine.source;
        document.head.appendChild(script);
      }
      engine.inPage = new window.ELK();
    }
  }

  function inPageLayout(engine, graph) {
    useInPage(engine);
    return engine.inPage.layout(graph);
  }

  /** Lays a graph out; timeoutMs > 0 stops the worker after that long (rejecting with a 'stopped' error). */
  function engineLayout(engine, graph, timeoutMs) {
    if (!engine.worker) return inPageLayout(engine, graph);
    return new Promise((resolve, reject) => {
      const id = engine.nextId++;
      const p = { resolve: resolve, reject: reject, graph: graph, timer: null };
      if (timeoutMs > 0) p.timer = setTimeout(() => stopEngine(engine, 'the layout took longer than ' + Math.round(timeoutMs / 1000) + ' s'), timeoutMs);
      engine.pending.set(id, p);
      engine.worker.postMessage({ id: id, graph: graph });
    });
  }

  /** Stops a running layout: the worker is replaced by a fresh one. */
  function stopEngine(engine, why) {
    if (!engine.worker) return false;
    engine.worker.terminate();
    const err = new Error(why);
    err.stopped = true;
    for (const p of engine.pending.values()) { clearTimeout(p.timer); p.reject(err); }
    engine.pending.clear();
    spawnWorker(engine);
    return true;
  }

  function nextFrame() {
    return new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
