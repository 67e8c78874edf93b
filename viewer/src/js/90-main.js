  // 90-main.js: start-up, and window.mavViewer, the hooks for tests.

  function readData() {
    const el = $('mav-data');
    return JSON.parse(el.textContent);
  }

  async function main() {
    if (!S.engine) S.engine = startLayoutEngine();
    const doc = readData();
    const title = doc.title || document.title.replace(/ · mav$/, '');
    $('mav-title').textContent = title;
    $('mav-title').title = title;
    S.model = buildModel(doc);
    setDisplayDepths(S.model.root);
    S.opPalette = buildOpPalette(S.model);
    S.summary = buildSummary(S.model);
    S.openRows = defaultOpenRows(S.summary);
    installPanZoom();
    installGraphEvents();
    installToolbar();
    installSearch();
    installSummary();
    buildDepthSelect();
    renderSummaryRows();
    renderTotals();
    showDetails(null);
    S.expanded = defaultExpanded(S.model);
    await relayout(null);
    initialView();
  }

  const api = {
    get layoutMs() { return S.layoutMs; },
    get renderMs() { return S.renderMs; },
    readyAt: null,
    visibleNodeCount: visibleNodeCount,
    expand: path => {
      const s = S.model.display.get(path);
      return s && s !== S.model.root ? expandScope(s) : Promise.resolve(false);
    },
    collapse: path => {
      const s = S.model.display.get(path);
      return s ? collapseScope(s) : Promise.resolve(false);
    },
    reveal: name => {
      const n = S.model.nodeByName.get(name);
      return n ? reveal([n], false) : Promise.resolve(false);
    },
    revealPath: revealPath,
    idle: () => S.layoutChain.then(() => true, () => true), // after the layouts asked for so far
    setColour: mode => { $('mav-colour').value = mode; S.colour = mode; applyColours(); },
    expandedPaths: () => [...S.expanded].map(s => s.path),
    elkInput: () => JSON.stringify(S.lastElkInput), // the last graph given to ELK, for debugging layouts
  };
  api.ready = new Promise((resolve, reject) => {
    const start = () => main().then(() => {
      api.readyAt = performance.now();
      document.body.setAttribute('data-ready', 'true');
      resolve(api);
    }, err => {
      const box = $('mav-message');
      box.textContent = 'The viewer failed: ' + (err && err.message ? err.message : err);
      box.hidden = false;
      box.classList.add('mav-error');
      console.error(err);
      reject(err);
    });
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
    else start();
  });
  window.mavViewer = api;
  // the layout engine starts compiling while the page reads the graph
  try { S.engine = startLayoutEngine(); } catch (err) { S.engine = null; }
