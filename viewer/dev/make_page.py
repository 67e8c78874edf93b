#!/usr/bin/env python3
"""Fills viewer/src/viewer.html the way `mav-translate --export-html` does.

    make_page.py GRAPH.json -o PAGE.html [--mlir GRAPH.mlir] [--title T] [--dev-flops]

The template's five placeholders are replaced in one pass (inserted text is
never searched again), each exactly once:

    @MAV_TITLE@   the html-escaped title (the model file name)
    @MAV_STYLE@   viewer/src/viewer.css
    @MAV_ELK@     viewer/node_modules/elkjs/lib/elk.bundled.js (`npm ci` in viewer/)
    @MAV_SCRIPT@  viewer/src/js/*.js concatenated in file-name order, joined by "\\n"
    @MAV_DATA@    the graph JSON with every "<" written as "\\u003c"

A version-2 document (with "scope", "modules", "summary") is embedded as the
exporter embeds it: compact, with "title" after "version". A version-1 document is development scaffolding only: its version-2
fields are synthesised here, the scopes from the `scope = #mav.scope<...>`
attributes of the .mlir it was exported from (--mlir), or else from
call_module targets; --dev-flops adds rough FLOP/MAC estimates (conv,
linear: MACs from the weight shape; others: output elements) so the heat
map can be looked at before -mav-count-flops exists. The C++ exporter never
does any of this.
"""

import argparse
import glob
import html
import json
import math
import os
import re
import sys

VIEWER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLACEHOLDERS = ("@MAV_TITLE@", "@MAV_STYLE@", "@MAV_ELK@", "@MAV_SCRIPT@", "@MAV_DATA@")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def page_script():
    """The page script: viewer/src/js/*.js in file-name order, joined by "\\n" (as EmbedViewer.cmake does)."""
    parts = sorted(glob.glob(os.path.join(VIEWER, "src", "js", "*.js")))
    if not parts:
        sys.exit(f"make_page: {os.path.join(VIEWER, 'src', 'js')} holds no .js file")
    return "\n".join(read(p) for p in parts)


def fill_template(template, values):
    """Replaces each placeholder once, in one pass over the template."""
    for name in PLACEHOLDERS:
        count = template.count(name)
        if count != 1:
            raise SystemExit(f"make_page: the template has {name} {count} times, not once")
    pattern = re.compile("|".join(re.escape(p) for p in PLACEHOLDERS))
    return pattern.sub(lambda m: values[m.group(0)], template)


def escape_data(text):
    return text.replace("<", "\\u003c")


# ---------------------------------------------------------------- scaffolding

SCOPE_RE = re.compile(r'scope = #mav\.scope<"((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)">')
DEF_RE = re.compile(r"^\s*%([^\s:=]+)(?::\d+)? = ")


def scopes_from_mlir(path, graph_name):
    """node name -> (scope path, class) from the public graph of a .mlir file."""
    out = {}
    inside = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if "mav.graph " in line:
                inside = "private" not in line and f"@{graph_name}(" in line
                continue
            if not inside:
                continue
            d = DEF_RE.match(line)
            if not d:
                continue
            s = SCOPE_RE.search(line)
            if s:
                out[d.group(1)] = (s.group(1), s.group(2))
    return out


def prod(xs):
    return math.prod(x for x in xs if isinstance(x, int))


def dev_flops(node):
    """A rough estimate, for looking at the heat map only."""
    res = (node.get("results") or [{}])[0]
    shape = res.get("shape")
    if not isinstance(shape, list) or node.get("op") in ("placeholder", "output", "get_attr"):
        return None
    out = prod(shape)
    op = node.get("mase_op", "")
    args = (node.get("common") or {}).get("args") or {}
    weight = (args.get("weight") or {}).get("shape")
    if weight and ("conv" in op or "linear" in op):
        macs = out * prod(weight) // max(1, weight[0])
        return macs, 2 * macs
    return 0, out


def synthesise_v2(doc, mlir, title):
    graph = doc["graphs"][0]
    scoped = scopes_from_mlir(mlir, graph.get("name", "forward")) if mlir else {}
    classes = {"": ""}
    for node in graph["nodes"]:
        if node["name"] in scoped:
            path, cls = scoped[node["name"]]
            classes.setdefault(path, cls)
    for node in graph["nodes"]:
        if node["op"] in ("placeholder", "output"):
            node["scope"] = ""
        elif node["name"] in scoped:
            node["scope"] = scoped[node["name"]][0]
        elif node["op"] == "call_module":
            node["scope"] = node.get("target", "")
            classes.setdefault(node["scope"], node.get("module_class", ""))
        else:
            node["scope"] = ""
    paths = set()
    for node in graph["nodes"]:
        parts = node["scope"].split(".") if node["scope"] else []
        for i in range(1, len(parts) + 1):
            paths.add(".".join(parts[:i]))
    order = {}
    for i, node in enumerate(graph["nodes"]):
        parts = node["scope"].split(".") if node["scope"] else []
        for k in range(1, len(parts) + 1):
            order.setdefault(".".join(parts[:k]), i)

    def tree_key(path):
        parts = path.split(".")
        return [order[".".join(parts[:k])] for k in range(1, len(parts) + 1)]

    ordered = sorted(paths, key=tree_key)
    doc["version"] = 2
    doc["title"] = title
    doc = {k: doc[k] for k in ["format", "version", "title"] + [k for k in doc if k not in ("format", "version", "title")]}
    doc["modules"] = [{"path": "", "class": classes.get("", "")}] + [
        {"path": p, "class": classes.get(p, "")} for p in ordered]
    rows, last = [], {}
    sums = {p: {"params": 0, "macs": 0, "flops": 0} for p in ordered}
    for node in graph["nodes"]:
        sw = node.get("software") or {}
        parts = node["scope"].split(".") if node["scope"] else []
        for k in range(1, len(parts) + 1):
            p = ".".join(parts[:k])
            sums[p]["params"] += sw.get("params", 0)
            sums[p]["macs"] += sw.get("macs", 0)
            sums[p]["flops"] += sw.get("flops", 0)
            res = (node.get("results") or [{}])[0]
            last[p] = res.get("shape")
    for p in ordered:
        rows.append({"path": p, "depth": p.count(".") + 1, "class": classes.get(p, ""),
                     "output_shape": last.get(p), "params": sums[p]["params"], "frozen": 0,
                     "macs": sums[p]["macs"], "flops": sums[p]["flops"]})
    total_params = sum((n.get("software") or {}).get("params", 0) for n in graph["nodes"])
    doc["summary"] = {"rows": rows, "totals": {
        "params": total_params, "trainable": total_params, "frozen": 0,
        "macs": sum((n.get("software") or {}).get("macs", 0) for n in graph["nodes"]),
        "flops": sum((n.get("software") or {}).get("flops", 0) for n in graph["nodes"]),
        "input_mb": sum(prod(i.get("shape") or []) * 4 for i in graph.get("inputs", [])) / 1e6,
        "params_mb": total_params * 4 / 1e6}}
    return doc


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", help="a mav-translate --export-json document")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--mlir", help="the .mlir the JSON came from (version 1 only: its scopes)")
    ap.add_argument("--title", help="the page title (default: the .mlir or .json file name)")
    ap.add_argument("--dev-flops", action="store_true", help="version 1 only: add rough FLOP estimates")
    ap.add_argument("--keep-v1", action="store_true", help="embed a version-1 document as it is")
    args = ap.parse_args()

    text = read(args.json)
    doc = json.loads(text)
    title = args.title or os.path.basename(args.mlir or args.json)
    if doc.get("version", 1) < 2 and not args.keep_v1:
        doc = synthesise_v2(doc, args.mlir, title)
        if args.dev_flops:
            for node in doc["graphs"][0]["nodes"]:
                est = dev_flops(node)
                if est is not None:
                    node.setdefault("software", {}).update({"macs": est[0], "flops": est[1]})
            doc = synthesise_v2(doc, args.mlir, title)  # the summary sums them
        text = json.dumps(doc, separators=(",", ":"))
    else:
        # as the exporter writes it: compact, with the title after the version
        title = args.title or doc.get("title") or title
        if "title" not in doc and not args.keep_v1:
            doc = {k: v for k, v in [("format", doc.get("format")), ("version", doc.get("version")),
                                     ("title", title)] + list(doc.items())}
        text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    elk = os.path.join(VIEWER, "node_modules", "elkjs", "lib", "elk.bundled.js")
    if not os.path.exists(elk):
        sys.exit(f"make_page: {elk} is missing: run `npm ci` in {VIEWER}")
    page = fill_template(read(os.path.join(VIEWER, "src", "viewer.html")), {
        "@MAV_TITLE@": html.escape(title),
        "@MAV_STYLE@": read(os.path.join(VIEWER, "src", "viewer.css")),
        "@MAV_ELK@": read(elk),
        "@MAV_SCRIPT@": page_script(),
        "@MAV_DATA@": escape_data(text),
    })
    tmp = args.output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(page)
    os.replace(tmp, args.output)


if __name__ == "__main__":
    main()
