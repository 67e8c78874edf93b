  // 75-marks.js: the selection, hover and highlight marks on the drawing.

  /** Re-applies the selection, hover and search/summary highlights to the SVG. */
  function refreshMarks() {
    for (const [it, grp] of S.elems) {
      grp.classList.toggle('mav-selected', it === S.selected);
      grp.classList.toggle('mav-highlight', S.highlight.has(it));
    }
    const focus = S.hovered || S.selected;
    for (const e of S.edgeElems) {
      const hot = !!focus && (e.a === focus || e.b === focus);
      e.el.classList.toggle('mav-edge-hot', hot);
      e.el.setAttribute('marker-end', hot ? 'url(#mav-arrow-hot)' : 'url(#mav-arrow)');
    }
  }

  function setHovered(it) {
    if (S.hovered === it) return;
    if (S.hovered && S.elems.get(S.hovered)) S.elems.get(S.hovered).classList.remove('mav-hover');
    S.hovered = it;
    if (it && S.elems.get(it)) S.elems.get(it).classList.add('mav-hover');
    refreshMarks();
    showDetails(it || S.selected);
    // back to the selection when the pointer leaves: the table is not scrolled
    // then, or it would move under a pointer on its way to it
    highlightRowFor(it || S.selected, !!it);
  }

  function select(it) {
    S.selected = it;
    refreshMarks();
    showDetails(it);
    highlightRowFor(it);
  }
