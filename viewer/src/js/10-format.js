  // 10-format.js: small helpers: DOM and SVG elements, formatting numbers, shapes and names, text widths.

  const SVG_NS = 'http://www.w3.org/2000/svg';

  function $(id) { return document.getElementById(id); }

  function escapeHtml(s) {
    return String(s).replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  }

  function svgEl(tag, attrs, parent) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function svgText(parent, x, y, cls, text, anchor) {
    const t = svgEl('text', { x: x, y: y, class: cls }, parent);
    if (anchor) t.setAttribute('text-anchor', anchor);
    t.textContent = text;
    return t;
  }

  function isNum(v) { return typeof v === 'number' && isFinite(v); }

  /** 11689512 -> "11,689,512" */
  function fmtInt(n) { return isNum(n) ? Math.round(n).toLocaleString('en-US') : '–'; }

  /** 11689512 -> "11.7M" */
  function fmtShort(n) {
    if (!isNum(n)) return '–';
    const a = Math.abs(n);
    if (a >= 1e12) return (n / 1e12).toFixed(a >= 1e13 ? 1 : 2) + 'T';
    if (a >= 1e9) return (n / 1e9).toFixed(a >= 1e10 ? 1 : 2) + 'G';
    if (a >= 1e6) return (n / 1e6).toFixed(a >= 1e7 ? 1 : 2) + 'M';
    if (a >= 1e3) return (n / 1e3).toFixed(a >= 1e4 ? 1 : 2) + 'K';
    return String(Math.round(n));
  }

  function fmtShape(shape) {
    if (!Array.isArray(shape)) return '';
    return shape.map(d => (d === null ? '?' : String(d))).join('×');
  }

  function fmtShapeList(shape) {
    if (!Array.isArray(shape)) return '–';
    return '[' + shape.map(d => (d === null ? '?' : String(d))).join(', ') + ']';
  }

  /** "torch.nn.modules.conv.Conv2d" -> "Conv2d" */
  function shortClass(cls) {
    if (!cls) return '';
    const i = cls.lastIndexOf('.');
    return i < 0 ? cls : cls.slice(i + 1);
  }

  /**
   * idlmav-style shortening: keep the first and the last components of a
   * dotted/underscored name and elide the middle ("layer4.…downsample.0");
   * a single overlong component is cut in its middle.
   */
  function shortenName(name, max) {
    max = max || CFG.labelMax;
    if (!name || name.length <= max) return name || '';
    const parts = name.split(/(?=[._])/); // keep the separators with the parts
    if (parts.length > 2) {
      let tail = parts[parts.length - 1];
      for (let i = parts.length - 2; i > 0 && (parts[0] + '…' + parts[i] + tail).length <= max; i--) tail = parts[i] + tail;
      const head = parts[0];
      const joined = head + '…' + tail;
      if (joined.length <= max) return joined;
      if (('…' + tail).length <= max) return '…' + tail;
    }
    const keep = max - 1;
    const front = Math.ceil(keep / 2);
    return name.slice(0, front) + '…' + name.slice(name.length - (keep - front));
  }

  let measureCtx = null;
  const measureCache = new Map();
  function textWidth(text, font) {
    const key = font + '\u0000' + text;
    let w = measureCache.get(key);
    if (w === undefined) {
      if (!measureCtx) measureCtx = document.createElement('canvas').getContext('2d');
      measureCtx.font = font;
      w = measureCtx.measureText(text).width;
      measureCache.set(key, w);
    }
    return w;
  }
