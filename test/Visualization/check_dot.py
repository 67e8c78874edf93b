#!/usr/bin/python3
"""Checks mav-translate --export-dot on a model against PyTorch.

The graph PyTorch expects (test/models/expect.py, expected_nodes): the nodes
of its traced graph outside the leaf modules (the generator's entry_exit)
and one call_module per leaf call its forward hooks saw, by kind and scope,
and a placeholder per input of its forward. The --export-json export the
drawing is compared with must hold exactly these, none missing, none extra;
its node names and edges are then what the drawing must show.

Graphviz renders the DOT file as SVG, and the SVG must hold exactly:
  - the nodes: every node of the graph, or, with --collapse-depth D, one box
    per scope of depth D (a scope holding a single node and no other scope
    is that node), computed here from the nodes' scopes;
  - the clusters: one per scope (of depth below D, with --collapse-depth D)
    other than a scope drawn as its single node;
  - the edges: every edge of the JSON export between the drawn elements.
Without --collapse-depth, every call_module node's label carries its output
shape as PyTorch's forward hooks saw it (leaf_module_output_types) and its
parameters as module.parameters() counts them (shown when not 0).
Prints "OK: ..." or "FAIL: ..."."""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "models"))
import expect  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


def parts(scope):
    return scope.split(".") if scope else []


def drawn_names(nodes, depth):
    if depth == 0:
        return {n["name"]: n["name"] for n in nodes}
    inside = {}
    for node in nodes:
        if len(parts(node["scope"])) >= depth:
            inside.setdefault(".".join(parts(node["scope"])[:depth]),
                              []).append(node)
    drawn = {}
    for node in nodes:
        scope = parts(node["scope"])
        box = ".".join(scope[:depth]) if len(scope) >= depth else None
        members = inside.get(box, [])
        single = len(members) == 1 and members[0]["scope"] == box
        drawn[node["name"]] = "scope:" + box if box and not single \
            else node["name"]
    return drawn


def expected_clusters(nodes, depth):
    """Scopes drawn as clusters: every scope and its ancestors (of depth
    below `depth` when collapsed), except a scope holding a single node."""
    members = collections.Counter()
    direct = collections.Counter()
    for node in nodes:
        scope = parts(node["scope"])
        direct[node["scope"]] += 1
        for length in range(1, len(scope) + 1):
            members[".".join(scope[:length])] += 1
    return {"cluster_" + s for s, n in members.items()
            if (depth == 0 or len(parts(s)) < depth)
            and not (n == 1 and direct[s] == 1)}


def dot_labels(path):
    labels = {}
    for line in open(path):
        match = re.match(r'\s*"([^"]+)" \[(?:[^]]*, )?label="([^"]*)"', line)
        if match:
            labels[match.group(1)] = match.group(2).split("\\n")
    return labels


def check_labels(args, ref, graph, labels):
    model, _ = expect.eager_model(args.model)
    modules = dict(model.named_modules())
    outputs = collections.defaultdict(list)
    for path, types in zip(ref["leaf_module_call_sequence"],
                           ref["leaf_module_output_types"]):
        outputs[path].append(types)
    failures, calls = [], collections.Counter()
    for node in graph["nodes"]:
        if node["op"] != "call_module":
            continue
        path = node["target"]
        types = outputs[path][calls[path]]
        calls[path] += 1
        params = sum(p.numel() for p in modules[path].parameters())
        want = ["x".join(str(d) for d in expect.shape_of(types[0]))] + (
            ["{:,} params".format(params)] if params else [])
        if labels.get(node["name"], [])[2:] != want:
            failures.append("label of %s: %s, PyTorch %s" % (
                node["name"], labels.get(node["name"], [])[2:], want))
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("json")
    parser.add_argument("dot")
    parser.add_argument("--models", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--collapse-depth", type=int, default=0)
    args = parser.parse_args()
    doc = json.load(open(args.json))
    graph = doc["graphs"][0]
    ref = expect.reference(args.models, args.model)
    failures = []
    difference = expect.difference(expect.expected_nodes(ref),
                                   expect.graph_nodes(doc, graph["name"]))
    if difference:
        failures.append("graph nodes differ from PyTorch's traced graph: " +
                        difference)
    inputs = [n for n in graph["nodes"] if n["op"] == "placeholder"]
    if len(inputs) != len(ref["input_shapes"]):
        failures.append("%d placeholders, PyTorch's forward takes %d inputs"
                        % (len(inputs), len(ref["input_shapes"])))

    drawn = drawn_names(graph["nodes"], args.collapse_depth)
    svg = subprocess.run(["dot", "-Tsvg", args.dot], check=True,
                         capture_output=True).stdout
    root = ET.fromstring(svg)
    titles, edges, clusters = [], set(), []
    for group in root.iter(SVG + "g"):
        title = group.find(SVG + "title")
        if group.get("class") == "node":
            titles.append(title.text)
        elif group.get("class") == "cluster":
            clusters.append(title.text)
        elif group.get("class") == "edge":
            edges.add(tuple(title.text.split("->")))
    difference = expect.difference(collections.Counter(set(drawn.values())),
                                   collections.Counter(titles))
    if difference:
        failures.append("drawn nodes: " + difference)
    difference = expect.difference(
        collections.Counter(expected_clusters(graph["nodes"],
                                              args.collapse_depth)),
        collections.Counter(clusters))
    if difference:
        failures.append("clusters: " + difference)
    wanted = {(drawn[e["from"]], drawn[e["to"]]) for e in graph["edges"]
              if drawn[e["from"]] != drawn[e["to"]]}
    if edges != wanted:
        failures.append("edges missing %s, unexpected %s" %
                        (sorted(wanted - edges)[:5],
                         sorted(edges - wanted)[:5]))
    labelled = 0
    if args.collapse_depth == 0 and not failures:
        failures += check_labels(args, ref, graph, dot_labels(args.dot))
        labelled = sum(1 for n in graph["nodes"] if n["op"] == "call_module")
    if failures:
        print("FAIL: " + "; ".join(failures))
        sys.exit(1)
    print("OK: %d graph nodes as PyTorch's; drawn: %d nodes, %d edges, %d "
          "clusters, %d graph nodes in boxes, %d module labels as PyTorch's"
          % (len(drawn), len(titles), len(edges), len(clusters),
             sum(1 for n, d in drawn.items() if d != n), labelled))


if __name__ == "__main__":
    main()
