  // 70-colour.js: box fills for each colouring (mase_op, entry/exit, FLOPs, params) and the legend.

  const OP_FAMILIES = [
    { hue: 212, re: /conv/ },
    { hue: 265, re: /linear|matmul|^mm$|bmm|addmm|einsum|attention|baddbmm|embedding/ },
    { hue: 130, re: /norm/ },
    { hue: 28, re: /relu|gelu|silu|swish|sigmoid|tanh|hardswish|hardsigmoid|hardtanh|softmax|elu|mish|softplus|prelu/ },
    { hue: 175, re: /pool/ },
    { hue: 50, re: /^(add|sub|mul|div|neg|pow|sqrt|rsqrt|exp|log|abs|clamp|iadd|truediv|floordiv|mean|sum|max|min)(_|$)/ },
    { hue: 340, re: /dropout/ },
    { hue: 0, sat: 0, re: /view|reshape|flatten|permute|transpose|cat|concat|stack|split|chunk|size|getitem|getattr|contiguous|expand|squeeze|unsqueeze|slice|select|to$|type_as|clone/ },
  ];
  const OTHER_HUES = [195, 300, 95, 240, 10, 155, 320, 70];
  const IO_FILL = '#ffffff';
  const NEUTRAL_FILL = '#f3f4f6';
  const SCOPE_FILL = '#eef2f8';

  function hashString(s) {
    let h = 2166136261;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
    return h >>> 0;
  }

  /** mase_op -> fill; ops of one family share a hue, with distinct lightness. */
  function buildOpPalette(model) {
    const ops = [...new Set(model.nodes.map(opKey))].sort();
    const perFamily = new Map();
    const palette = new Map();
    for (const op of ops) {
      if (op === 'placeholder' || op === 'output') { palette.set(op, IO_FILL); continue; }
      let fam = OP_FAMILIES.findIndex(f => f.re.test(op));
      let hue, sat = 62;
      if (fam >= 0) { hue = OP_FAMILIES[fam].hue; if (OP_FAMILIES[fam].sat !== undefined) sat = OP_FAMILIES[fam].sat; }
      else { fam = 100 + (hashString(op) % OTHER_HUES.length); hue = OTHER_HUES[fam - 100]; }
      const k = perFamily.get(fam) || 0;
      perFamily.set(fam, k + 1);
      const light = [82, 72, 88, 66, 77, 92][k % 6];
      const hueShift = Math.floor(k / 6) * 14;
      palette.set(op, 'hsl(' + ((hue + hueShift) % 360) + ',' + sat + '%,' + light + '%)');
    }
    return palette;
  }

  const ENTRY_COLOURS = {
    normal: '#cfe0f5', learnable: '#f8d38d', 'learn-split': '#f3a9a0', buffer: '#b8e2c4', special: '#d9c2f0',
  };
  const HEAT = ['#fff5c0', '#fee08b', '#fdc04e', '#fb9a36', '#ef6a25', '#d6421c', '#a51f12', '#6b0d0a'];

  function heatColour(t) {
    t = Math.max(0, Math.min(1, t)) * (HEAT.length - 1);
    const i = Math.min(HEAT.length - 2, Math.floor(t));
    return mix(HEAT[i], HEAT[i + 1], t - i);
  }
  function mix(c1, c2, t) {
    const a = parseInt(c1.slice(1), 16), b = parseInt(c2.slice(1), 16);
    const ch = s => Math.round(((a >> s) & 255) * (1 - t) + ((b >> s) & 255) * t);
    return 'rgb(' + ch(16) + ',' + ch(8) + ',' + ch(0) + ')';
  }

  function itemValue(it, key) {
    if (it.kind === 'node') return it[key];
    return it[key] || null;
  }

  /** Colour of every drawn node and collapsed scope, for the current mode. */
  function computeFills() {
    const mode = S.colour;
    const fills = new Map(); // item -> {fill, dark}
    const legend = { kind: 'cat', entries: new Map(), note: '' };
    const items = [...S.elems.keys()].filter(it => it.kind === 'node' || !isExpanded(it));
    if (mode === 'flops' || mode === 'params') {
      const key = mode;
      const has = mode === 'flops' ? S.model.has.flops : S.model.has.params;
      let lo = Infinity, hi = 0;
      for (const it of items) {
        const v = itemValue(it, key);
        if (v > 0) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      }
      for (const it of items) {
        const v = itemValue(it, key);
        if (!(v > 0)) { fills.set(it, { fill: it.kind === 'node' ? NEUTRAL_FILL : SCOPE_FILL, dark: false }); continue; }
        const t = hi > lo ? (Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo)) : 1;
        fills.set(it, { fill: heatColour(t), dark: t > 0.62 });
      }
      legend.kind = 'heat';
      legend.lo = lo; legend.hi = hi;
      legend.label = mode === 'flops' ? 'FLOPs' : 'parameters';
      if (!has) legend.note = mode === 'flops' ? 'no FLOPs in this graph (run -mav-count-flops)' : 'no parameter counts in this graph (run -mav-count-params)';
      return { fills: fills, legend: legend };
    }
    if (mode === 'entry_exit') {
      for (const it of items) {
        if (it.kind !== 'node') { fills.set(it, { fill: SCOPE_FILL, dark: false }); continue; }
        if (it.raw.op === 'placeholder' || it.raw.op === 'output') { fills.set(it, { fill: IO_FILL, dark: false }); continue; }
        const entry = it.entry || 'unknown';
        const fill = ENTRY_COLOURS[entry] || NEUTRAL_FILL;
        const special = it.exit === 'special';
        fills.set(it, { fill: fill, dark: false, special: special });
        const label = 'entry ' + entry + (special ? ', exit special' : '');
        const e = legend.entries.get(label) || { fill: fill, count: 0, special: special };
        e.count++;
        legend.entries.set(label, e);
      }
      if (!S.model.has.entry) legend.note = 'no entry/exit classes in this graph (run -mav-classify-entry-exit)';
      return { fills: fills, legend: legend };
    }
    // mase_op
    for (const it of items) {
      if (it.kind !== 'node') { fills.set(it, { fill: SCOPE_FILL, dark: false }); continue; }
      const op = opKey(it);
      const fill = S.opPalette.get(op) || NEUTRAL_FILL;
      fills.set(it, { fill: fill, dark: false });
      const e = legend.entries.get(op) || { fill: fill, count: 0 };
      e.count++;
      legend.entries.set(op, e);
    }
    return { fills: fills, legend: legend };
  }

  function applyColours() {
    const { fills, legend } = computeFills();
    for (const [it, f] of fills) {
      const grp = S.elems.get(it);
      if (!grp) continue;
      const box = grp.querySelector('.mav-box');
      box.setAttribute('fill', f.fill);
      grp.classList.toggle('mav-dark', !!f.dark);
      grp.classList.toggle('mav-exit-special', !!f.special);
    }
    drawLegend(legend);
  }

  function drawLegend(legend) {
    const box = $('mav-legend');
    let html = '';
    if (legend.kind === 'heat') {
      html += '<div class="mav-legend-title" title="click to fold">' + escapeHtml(legend.label) + ' <span class="mav-note">(log scale; scopes summed)</span></div>';
      if (legend.hi > 0) {
        const stops = HEAT.map((c, i) => c + ' ' + Math.round(100 * i / (HEAT.length - 1)) + '%').join(',');
        html += '<div class="mav-heatbar" style="background:linear-gradient(to right,' + stops + ')"></div>' +
          '<div class="mav-heatlabels"><span>' + fmtShort(legend.lo) + '</span><span>' + fmtShort(legend.hi) + '</span></div>';
      }
      html += '<div class="mav-legend-row"><span class="mav-swatch" style="background:' + NEUTRAL_FILL + '"></span>none or not set</div>';
    } else {
      html += '<div class="mav-legend-title" title="click to fold">' + (S.colour === 'entry_exit' ? 'entry / exit class' : 'mase_op') + '</div>';
      const entries = [...legend.entries].sort((a, b) => b[1].count - a[1].count);
      const shown = entries.slice(0, 16);
      for (const [label, e] of shown) {
        html += '<div class="mav-legend-row"><span class="mav-swatch' + (e.special ? ' mav-swatch-special' : '') +
          '" style="background:' + e.fill + '"></span>' + escapeHtml(label) + ' <span class="mav-note">' + e.count + '</span></div>';
      }
      if (entries.length > shown.length) html += '<div class="mav-note">+ ' + (entries.length - shown.length) + ' more</div>';
    }
    if (legend.note) html += '<div class="mav-note mav-legend-warn">' + escapeHtml(legend.note) + '</div>';
    box.innerHTML = html;
  }
