#!/usr/bin/python3
"""Checks `mav-translate --export-json` on real models against PyTorch.

For each model: import, -mav-raise, -mav-add-hardware-metadata, export twice.
The JSON must parse with json.load and be byte-identical across runs; hold
the nodes of PyTorch's traced graph, none missing and none extra (a
placeholder per input of its forward, the generator's entry_exit nodes
outside the leaf modules and one call_module per leaf call its forward
hooks saw, by kind and scope: test/models/expect.py, then the output); have
edges that match the operands (each consumer's operand indices 0..n-1, each
producer a node, call_module inputs of the producer's shape); and carry the
shapes the generator recorded from PyTorch (inputs, outputs, leaf module
outputs, weights). Prints "NAME: OK" or "NAME: FAIL: reason".
"""

import argparse
import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "models"))
import expect  # noqa: E402
import mavtest  # noqa: E402


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def shape_of(mav_type):
    """'1x3x16x16xf32' -> [1, 3, 16, 16]."""
    return [int(d) for d in mav_type.split("x")[:-1]]


def check(name, args):
    ref = mavtest.reference(args.models, name)
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    mavtest.import_model(args.translate, args.models, name, work + "/in.mlir")
    run([args.opt, work + "/in.mlir", "-mav-raise",
         "-mav-add-hardware-metadata=max-parallelism=4,4", "--mav-elide-weights",
         "-o", work + "/hw.mlir"])
    run([args.translate, "--export-json", work + "/hw.mlir", "-o",
         work + "/a.json"])
    run([args.translate, "--export-json", work + "/hw.mlir", "-o",
         work + "/b.json"])
    if open(work + "/a.json", "rb").read() != open(work + "/b.json",
                                                   "rb").read():
        return "two exports differ"
    doc = json.load(open(work + "/a.json"))
    graph = [g for g in doc["graphs"] if g["name"] == "forward"][0]
    nodes = {n["name"]: n for n in graph["nodes"]}
    if len(nodes) != len(graph["nodes"]):
        return "node names repeat"
    # The nodes PyTorch's traced graph has (test/models/expect.py): a
    # placeholder per input, its nodes outside the leaf modules, one
    # call_module per leaf call, the output. None missing, none extra.
    difference = expect.difference(expect.expected_nodes(ref),
                                   expect.graph_nodes(doc))
    if difference:
        return "nodes differ from PyTorch's traced graph: " + difference
    placeholders = [n for n in graph["nodes"] if n["op"] == "placeholder"]
    if len(placeholders) != len(ref["input_shapes"]):
        return "%d placeholders, PyTorch's forward takes %d inputs" % (
            len(placeholders), len(ref["input_shapes"]))
    if [n["op"] for n in graph["nodes"]].count("output") != 1 or \
            graph["nodes"][-1]["op"] != "output":
        return "the graph does not end in one output node"

    operands = collections.defaultdict(list)
    for edge in graph["edges"]:
        if edge["from"] not in nodes or edge["to"] not in nodes:
            return "edge names an unknown node: %s" % edge
        producer = nodes[edge["from"]]
        if edge["result"] >= len(producer.get("results", [])):
            return "edge from a missing result: %s" % edge
        operands[edge["to"]].append(edge["operand"])
        consumer = nodes[edge["to"]]
        if consumer["op"] == "call_module" and edge["operand"] == 0:
            arg = consumer["common"]["args"]["data_in_0"]["shape"]
            if producer["results"][edge["result"]]["shape"] != arg:
                return "edge %s: shape %s, data_in_0 %s" % (
                    edge, producer["results"][edge["result"]]["shape"], arg)
    for consumer, indices in operands.items():
        if sorted(indices) != list(range(len(indices))):
            return "operands of %s: %s" % (consumer, sorted(indices))
    if len(operands["output"]) != len(graph["outputs"]):
        return "output edges differ from the outputs"

    if [i["shape"] for i in graph["inputs"]] != [
            shape_of(s) for s in ref["input_shapes"]]:
        return "input shapes differ"
    if [i["dtype"] for i in graph["inputs"]] != ref["input_dtypes"]:
        return "input dtypes differ"
    if [o["shape"] for o in graph["outputs"]] != ref["output_shapes"]:
        return "output shapes differ"
    calls = [n for n in graph["nodes"] if n["op"] == "call_module"]
    if [n["target"] for n in calls] != ref["leaf_module_call_sequence"]:
        return "call_module sequence differs"
    for node, types in zip(calls, ref["leaf_module_output_types"]):
        if [r["shape"] for r in node["results"]] != [shape_of(t) for t in types]:
            return "%s: result shapes differ" % node["name"]
        if node["common"]["results"]["data_out_0"]["shape"] != shape_of(
                types[0]):
            return "%s: common result shape differs" % node["name"]
    weights = {w["name"]: w for w in doc["weights"]}
    for key in ref["state_dict_keys"]:
        weight = weights.get(key["key"])
        if not weight or weight["shape"] != key["shape"] or \
                weight["dtype"] != key["dtype"]:
            return "weight %s differs" % key["key"]
    for node in calls:
        if node["mase_op"] == "linear" and (
                node["hardware"]["module"] != "fixed_linear" or
                node["hardware"]["toolchain"] != "INTERNAL_RTL"):
            return "%s: linear without fixed_linear" % node["name"]
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", required=True)
    parser.add_argument("--translate", required=True)
    parser.add_argument("--opt", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("names", nargs="+")
    args = parser.parse_args()
    failed = False
    for name in args.names:
        try:
            error = check(name, args)
        except (subprocess.CalledProcessError, KeyError, ValueError) as e:
            error = repr(e)
        failed |= error is not None
        print("%s: %s" % (name, "OK" if error is None else "FAIL: " + error))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
