// 00-prologue.js: opens the IIFE; CFG, the configuration, and S, the state every part shares.
/* mav graph viewer (mav-translate --export-html).
 *
 * Plain ES2017, no framework, no network. The page embeds the graph JSON
 * (docs/ExportJson.md, version 2) in <script id="mav-data"> and elkjs's
 * bundled build, which provides the global ELK. See viewer/README.md.
 *
 * The page script is the files of viewer/src/js joined in file-name order
 * (dev/make_page.py and lib/Export/Html/EmbedViewer.cmake do the same); they
 * share this one function scope, and each opens with a line saying its job.
 * Until 90-main.js only declarations run, so a file may call a later one.
 */
(function () {
  'use strict';

  // ------------------------------------------------------------------ config

  const CFG = {
    expandAllMaxNodes: 300, // graphs with at most this many nodes open fully expanded
    chunkMax: 300,          // a scope with more direct items shows them in ranges...
    chunkSize: 100,         // ...of this many (ranges of ranges beyond chunkMax * chunkSize)
    maxVisible: 2000,       // most boxes laid out at once (ELK's time and stack)
    layoutTimeoutMs: 30000, // a longer layout is stopped, and the expansion undone
    summaryOpenRows: 400,   // the summary table opens as deep as this many rows allow
    nodeHeight: 50,
    nodeMinWidth: 96,
    scopeHead: 24,
    labelMax: 30,           // characters of a name before it is shortened
    font: '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    fontBold: '600 12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    fontSmall: '11px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  };

  // ------------------------------------------------------------------ state

  const S = {
    model: null,
    elk: null,
    expanded: new Set(), // display scopes (and chunks) drawn open; the root always is
    colour: 'mase_op',
    selected: null,      // the pinned item (node or scope)
    hovered: null,
    highlight: new Set(),// items highlighted by search or the summary table
    geometry: new Map(), // item -> {x, y, w, h} from the last layout
    elems: new Map(),    // item -> its <g>
    edgeElems: [],       // {a, b, el}
    view: { x: 0, y: 0, k: 1 },
    layoutChain: Promise.resolve(),
    layoutMs: 0,
    renderMs: 0,
    graphSize: { w: 0, h: 0 },
    searchMatches: [],
    searchIndex: -1,
    summary: null,
    openRows: new Set(),
  };
