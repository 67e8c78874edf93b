#!/usr/bin/python3
"""Checks mav-translate --export-dot on a model: Graphviz renders it as SVG,
and the SVG holds exactly the nodes the graph has: every node of the
--export-json export, or, with --collapse-depth D, one box per scope of
depth D (a scope holding a single node and no other scope is that node),
computed here from the nodes' scopes. Every edge of the JSON export
appears between the drawn elements. Prints "OK: ..." or "FAIL: ..."."""

import argparse
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def drawn_names(nodes, depth):
    if depth == 0:
        return {n["name"]: n["name"] for n in nodes}
    inside = {}
    for node in nodes:
        parts = node["scope"].split(".") if node["scope"] else []
        if len(parts) >= depth:
            inside.setdefault(".".join(parts[:depth]), []).append(node)
    drawn = {}
    for node in nodes:
        parts = node["scope"].split(".") if node["scope"] else []
        box = ".".join(parts[:depth]) if len(parts) >= depth else None
        members = inside.get(box, [])
        single = len(members) == 1 and members[0]["scope"] == box
        drawn[node["name"]] = "scope:" + box if box and not single \
            else node["name"]
    return drawn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("json")
    parser.add_argument("dot")
    parser.add_argument("--collapse-depth", type=int, default=0)
    args = parser.parse_args()
    graph = json.load(open(args.json))["graphs"][0]
    drawn = drawn_names(graph["nodes"], args.collapse_depth)
    svg = subprocess.run(["dot", "-Tsvg", args.dot], check=True,
                         capture_output=True).stdout
    root = ET.fromstring(svg)
    titles, edges = set(), set()
    for group in root.iter(SVG + "g"):
        title = group.find(SVG + "title")
        if group.get("class") == "node":
            titles.add(title.text)
        elif group.get("class") == "edge":
            edges.add(tuple(title.text.split("->")))
    expected = set(drawn.values())
    failures = []
    if titles != expected:
        failures.append("nodes missing %s, unexpected %s" %
                        (sorted(expected - titles)[:5],
                         sorted(titles - expected)[:5]))
    wanted = {(drawn[e["from"]], drawn[e["to"]]) for e in graph["edges"]
              if drawn[e["from"]] != drawn[e["to"]]}
    if edges != wanted:
        failures.append("edges missing %s, unexpected %s" %
                        (sorted(wanted - edges)[:5],
                         sorted(edges - wanted)[:5]))
    if failures:
        print("FAIL: " + "; ".join(failures))
        sys.exit(1)
    print("OK: %d nodes, %d edges, %d of %d graph nodes drawn in boxes" %
          (len(titles), len(edges),
           sum(1 for n, d in drawn.items() if d != n), len(drawn)))


if __name__ == "__main__":
    main()
