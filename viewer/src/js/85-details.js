  // 85-details.js: the details panel (#mav-details) of a node or a scope.

  function jsonLeaf(v) {
    return v === null || typeof v !== 'object' ||
      (Array.isArray(v) && v.every(x => x === null || typeof x !== 'object'));
  }

  function fmtLeaf(v) {
    if (typeof v === 'string') return v;
    if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) >= 10000 ? v.toLocaleString('en-US') : String(v);
    if (Array.isArray(v)) {
      const shown = v.length > 32 ? v.slice(0, 32) : v;
      return '[' + shown.map(x => (typeof x === 'string' ? JSON.stringify(x) : String(x))).join(', ') + (v.length > 32 ? ', … ' + v.length + ' items' : '') + ']';
    }
    return JSON.stringify(v);
  }

  /** A readable tree of a metadata dictionary; every leaf carries data-key and data-value. */
  function treeHtml(obj, prefix) {
    let html = '';
    const keys = Array.isArray(obj) ? obj.map((_, i) => String(i)) : Object.keys(obj);
    if (!keys.length) return '<div class="mav-empty">empty</div>';
    for (const k of keys) {
      const v = obj[k];
      const key = prefix + '.' + k;
      if (jsonLeaf(v)) {
        html += '<div class="mav-kv" data-key="' + escapeHtml(key) + '" data-value="' + escapeHtml(JSON.stringify(v)) + '">' +
          '<span class="mav-k">' + escapeHtml(k) + '</span><span class="mav-v">' + escapeHtml(fmtLeaf(v)) + '</span></div>';
      } else {
        html += '<details open class="mav-sub"><summary>' + escapeHtml(k) + '</summary>' + treeHtml(v, key) + '</details>';
      }
    }
    return html;
  }

  function fieldRow(field, label, value, raw) {
    return '<tr data-field="' + field + '"><th>' + escapeHtml(label) + '</th><td' + (raw ? '' : ' class="mav-mono"') + '>' + value + '</td></tr>';
  }

  function nodeLinks(list) {
    if (!list.length) return '<span class="mav-note">none</span>';
    return list.map(n => '<a href="#" class="mav-link" data-goto="' + escapeHtml(n.name) + '">' + escapeHtml(n.name) + '</a>').join(', ');
  }

  function showDetails(it) {
    const box = $('mav-details');
    if (!it) {
      box.innerHTML = '<div class="mav-placeholder">Hover over or click a node to see its metadata. Click a scope header to collapse it, a stacked box to expand it.</div>';
      box.removeAttribute('data-name');
      box.removeAttribute('data-path');
      return;
    }
    if (it.kind === 'node') box.innerHTML = nodeDetailsHtml(it);
    else box.innerHTML = scopeDetailsHtml(it);
    if (it.kind === 'node') { box.setAttribute('data-name', it.name); box.removeAttribute('data-path'); }
    else { box.setAttribute('data-path', it.path); box.removeAttribute('data-name'); }
  }

  function nodeDetailsHtml(n) {
    const raw = n.raw;
    let html = '<div class="mav-d-title">' + escapeHtml(n.name) + '</div><div class="mav-d-sub">' + escapeHtml(n.label) + '</div>';
    html += '<table class="mav-d-basic">';
    html += fieldRow('name', 'name', escapeHtml(n.name));
    html += fieldRow('op', 'op', escapeHtml(raw.op));
    if (raw.target !== undefined) html += fieldRow('target', 'target', escapeHtml(raw.target));
    if (raw.module_class) html += fieldRow('module_class', 'module class', escapeHtml(raw.module_class));
    if (raw.mase_op) html += fieldRow('mase_op', 'mase_op', escapeHtml(raw.mase_op));
    if (raw.mase_type) html += fieldRow('mase_type', 'mase_type', escapeHtml(raw.mase_type));
    html += fieldRow('scope', 'scope', n.scopePath ? escapeHtml(n.scopePath) : '<span class="mav-note">(top level)</span>');
    const results = Array.isArray(raw.results) ? raw.results : [];
    results.forEach((r, i) => {
      const v = Array.isArray(r.shape) ? fmtShapeList(r.shape) + (r.dtype ? ' ' + r.dtype : '') : String(r.type || r.dtype || '');
      html += fieldRow(i === 0 ? 'shape' : 'shape' + i, results.length > 1 ? 'result ' + i : 'shape', escapeHtml(v));
    });
    const ins = [], outs = [];
    for (const [a, b] of S.model.edges) { if (b === n && !ins.includes(a)) ins.push(a); if (a === n && !outs.includes(b)) outs.push(b); }
    html += fieldRow('inputs', 'inputs', nodeLinks(ins), true);
    html += fieldRow('users', 'users', nodeLinks(outs), true);
    if (n.params !== null) html += fieldRow('params', 'params', fmtInt(n.params));
    if (n.macs !== null) html += fieldRow('macs', 'MACs', fmtInt(n.macs));
    if (n.flops !== null) html += fieldRow('flops', 'FLOPs', fmtInt(n.flops));
    html += '</table>';
    const isIo = raw.op === 'placeholder' || raw.op === 'output';
    for (const sec of ['common', 'hardware', 'software']) {
      html += '<section class="mav-d-section" data-section="' + sec + '"><h3>' + sec + '</h3>';
      const v = raw[sec];
      if (v && typeof v === 'object' && Object.keys(v).length) html += treeHtml(v, sec);
      else if (v && typeof v === 'object') html += '<div class="mav-empty">empty</div>';
      else html += '<div class="mav-empty">' + (isIo ? 'none (input and output nodes carry no metadata)' : 'not set (the pass that fills it did not run)') + '</div>';
      html += '</section>';
    }
    return html;
  }

  function scopeDetailsHtml(s) {
    const row = S.summary && S.summary.byPath.get(s.kind === 'chunk' ? '\u0000' : s.path);
    let html = '<div class="mav-d-title">' + escapeHtml(s.kind === 'chunk' ? s.path : (s.path || '(model)')) + '</div>' +
      '<div class="mav-d-sub">' + escapeHtml(s.kind === 'chunk' ? 'a range of ' + s.owner.path : (s.cls || 'module')) + '</div>';
    html += '<table class="mav-d-basic">';
    if (s.kind === 'chunk') html += fieldRow('range', 'items', (s.last - s.first + 1) + ' of ' + s.total + ': ' + escapeHtml(s.firstName) + ' … ' + escapeHtml(s.lastName));
    else html += fieldRow('path', 'path', escapeHtml(s.path));
    if (s.cls) html += fieldRow('class', 'class', escapeHtml(s.cls));
    html += fieldRow('nodes', 'nodes', fmtInt(s.nodeCount));
    const outShape = row && row.output_shape ? row.output_shape : s.last && s.last.shape;
    if (outShape) html += fieldRow('shape', 'output shape', escapeHtml(fmtShapeList(outShape)));
    const params = row && isNum(row.params) ? row.params : (S.model.has.params ? s.params : null);
    if (params !== null) html += fieldRow('params', 'params', fmtInt(params));
    if (row && isNum(row.frozen) && row.frozen) html += fieldRow('frozen', 'frozen params', fmtInt(row.frozen));
    const macs = row && isNum(row.macs) ? row.macs : (S.model.has.macs ? s.macs : null);
    if (macs !== null) html += fieldRow('macs', 'MACs', fmtInt(macs));
    const flops = row && isNum(row.flops) ? row.flops : (S.model.has.flops ? s.flops : null);
    if (flops !== null) html += fieldRow('flops', 'FLOPs', fmtInt(flops));
    html += '</table><div class="mav-note">' + (isExpanded(s) ? 'Click its header to collapse it.' : 'Click the box to expand it.') + '</div>';
    return html;
  }
