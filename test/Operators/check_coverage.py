#!/usr/bin/python3
"""Checks mav's op registry against PyTorch's own lists of operators.

Reads OUT/operators.json and the bundles that pytorch_operators.py wrote,
and `mav-opt --list-operators`. Prints one line per family and per bundle,
then every failure, and exits 1 on any:

  - every operator on PyTorch's lists has a registry entry (an aten target,
    overload dropped), or is on the registry's list of deliberately
    unsupported operators, or is a node kind the importer turns into graph
    structure; a registry entry of the elementwise, comparison and
    reduction families has a cost formula unless it is an implicit_func
    (a view: real), and every entry has a mase_type;
  - no operator is both a registry entry and unsupported;
  - every bundle imports with its input shapes, and raises
    (-mav-raise -mav-count-flops): every node has a mase_op, the graph's
    outputs have PyTorch's shapes and dtypes, and an entry that traced to
    one operator of the elementwise or comparison families costs a whole
    number of FLOPs per element of its result (one for most, five for
    softmax), of the reduction family per element of its input
    (docs/Visualization.md);
  - a `_values` bundle computes what PyTorch computes on the same inputs:
    mav-run --inputs BUNDLE.io.pt --reference BUNDLE.pt.

Usage: check_coverage.py --lists DIR --opt PATH --translate PATH --run PATH
                         --work DIR
"""

import argparse
import collections
import json
import os
import subprocess
import sys

COSTED = ("elementwise", "comparison", "reduction")
DTYPE = {"torch.float32": "f32", "torch.float64": "f64", "torch.int64": "si64",
         "torch.int32": "si32", "torch.bool": "i1", "torch.int8": "si8",
         "torch.uint8": "ui8", "torch.int16": "si16", "torch.float16": "f16",
         "torch.bfloat16": "bf16", "torch.complex64": "complex<f32>",
         "torch.complex128": "complex<f64>"}


def registry_index(registry):
    by_aten = {}
    for entry in registry["operators"]:
        for target in entry["aten_ops"]:
            by_aten[target] = entry
    unsupported = {u["aten_op"]: u["reason"] for u in registry["unsupported"]}
    return by_aten, unsupported, set(registry["structural_node_kinds"])


def check_lists(lists, registry, failures):
    by_aten, unsupported, structural = registry_index(registry)
    for name in sorted(set(by_aten) & set(unsupported)):
        failures.append("%s is a registry entry and unsupported" % name)
    counts = collections.defaultdict(collections.Counter)
    for kind, info in sorted(lists["operators"].items()):
        if not kind.startswith(("aten::", "prim::")):
            failures.append("%s (from %s): not a torch operator" % (
                kind, ", ".join(info["sources"][:3])))
            continue
        for family in info["families"]:
            counts[family]["listed"] += 1
        if kind in structural:
            for family in info["families"]:
                counts[family]["structure"] += 1
            continue
        if kind in unsupported:
            for family in info["families"]:
                counts[family]["unsupported"] += 1
            continue
        entry = by_aten.get(kind)
        if entry is None:
            failures.append("%s (%s; from %s): no registry entry" % (
                kind, ", ".join(info["families"]),
                ", ".join(info["sources"][:3])))
            continue
        for family in info["families"]:
            counts[family]["entries"] += 1
        if not entry["mase_type"]:
            failures.append("%s: entry %s has no mase_type" % (
                kind, entry["mase_op"]))
        costed = [f for f in info["families"] if f in COSTED]
        # implicit_func is shape and view plumbing: no arithmetic to count.
        if costed and not entry["cost"] and \
                entry["mase_type"] != "implicit_func":
            failures.append("%s (%s): entry %s has no cost formula" % (
                kind, costed[0], entry["mase_op"]))
    for source, why in sorted(lists.get("untraceable_builders", {}).items()):
        print("untraceable builder: %s: %s" % (source, why))
    for label, why in sorted(lists.get("untraced", {}).items()):
        print("untraced op_db entry: %s: %s" % (label, why))
    for family in sorted(counts):
        c = counts[family]
        print("%s: %d operators: %d registry entries, %d unsupported, "
              "%d structure" % (family, c["listed"], c["entries"],
                                c["unsupported"], c["structure"]))


def type_text(shape, dtype):
    return "x".join([str(d) if d is not None else "?" for d in shape] +
                    [DTYPE.get(dtype, dtype)])


def matches(ours, theirs):
    """Whether mav's type is PyTorch's, where a dynamic dimension ('?', a
    size that depends on the input's values) stands for the size PyTorch's
    sample gave."""
    a, b = ours.split("x"), theirs.split("x")
    return len(a) == len(b) and all(x == y or (x == "?" and y.isdigit())
                                    for x, y in zip(a, b))


def all_match(ours, theirs):
    return len(ours) == len(theirs) and all(map(matches, ours, theirs))


def check_bundle(args, name, failures):
    spec = json.load(open(os.path.join(args.lists, name + ".json")))
    pt = os.path.join(args.lists, name + ".pt")
    mlir = os.path.join(args.work, name + ".mlir")
    shapes = ["--input-shape=" + s for s in spec["input_shapes"]]
    run = subprocess.run([args.translate, "--import-torchscript", pt, *shapes,
                          "-o", mlir], capture_output=True, text=True)
    if run.returncode:
        failures.append("%s: import: %s" % (name, run.stderr.strip()))
        return
    verdict = "not run"
    if spec["compare"]:
        run = subprocess.run([args.run, mlir, "--inputs=" + os.path.join(
            args.lists, name + ".io.pt"), "--reference=" + pt],
            capture_output=True, text=True)
        verdict = (run.stdout.strip().splitlines() or [""])[-1]
        if run.returncode:
            failures.append("%s: mav-run: %s %s" % (name, verdict,
                                                    run.stderr.strip()))
    raised = os.path.join(args.work, name + ".raised.mlir")
    run = subprocess.run([args.opt, mlir, "-mav-raise", "-mav-count-flops",
                          "-o", raised], capture_output=True, text=True)
    if run.returncode:
        failures.append("%s: raise: %s" % (name, run.stderr.strip()))
        return
    exported = subprocess.run([args.translate, "--export-json", raised],
                              capture_output=True, text=True)
    if exported.returncode:
        failures.append("%s: export-json: %s" % (name,
                                                 exported.stderr.strip()))
        return
    graph = json.loads(exported.stdout)["graphs"][0]
    outputs = [type_text(o["shape"], o["dtype"]) for o in graph["outputs"]]
    if not all_match(outputs, spec["output_types"]):
        wrong = [(i, a, b) for i, (a, b) in
                 enumerate(zip(outputs, spec["output_types"]))
                 if not matches(a, b)]
        failures.append("%s: output types differ from PyTorch's (output, "
                        "mav, PyTorch): %s" % (name, wrong[:5] or (
                            len(outputs), len(spec["output_types"]))))
    nodes_by_scope = collections.defaultdict(list)
    for node in graph["nodes"]:
        if node["op"] in ("placeholder", "output"):
            continue
        if not node.get("mase_op"):
            failures.append("%s: node %s has no mase_op" % (name,
                                                           node["name"]))
        nodes_by_scope[node["scope"].split(".")[0]].append(node)
    costs = 0
    for op in spec["ops"]:
        if spec["family"] not in COSTED or len(op["kinds"]) != 1:
            continue
        calls = [n for n in nodes_by_scope[op["module"]]
                 if n["target"].split(".")[0] == op["kinds"][0] and
                 n["mase_type"] != "implicit_func"]
        if len(calls) != 1:
            continue
        elements = op["input_numel"][0] if spec["family"] == "reduction" \
            else op["output_numel"][0]
        flops = calls[0].get("flops")
        costs += 1
        if not elements:
            continue
        if not flops or flops % elements:
            failures.append("%s: %s (%s): %s FLOPs, not a positive multiple "
                            "of its %d %s elements" % (
                                name, op["label"], calls[0]["target"], flops,
                                elements, "input" if spec["family"] ==
                                "reduction" else "result"))
    print("%s: %d entries, %d nodes, %d costs checked, run: %s" % (
        name, len(spec["ops"]), sum(map(len, nodes_by_scope.values())), costs,
        verdict))


def main():
    parser = argparse.ArgumentParser()
    for option in ("lists", "opt", "translate", "run", "work"):
        parser.add_argument("--" + option, required=True)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    lists = json.load(open(os.path.join(args.lists, "operators.json")))
    registry = json.loads(subprocess.run(
        [args.opt, "--list-operators"], check=True, capture_output=True,
        text=True).stdout)
    failures = []
    check_lists(lists, registry, failures)
    for file in sorted(os.listdir(args.lists)):
        if file.endswith(".json") and file != "operators.json":
            check_bundle(args, file[:-5], failures)
    for failure in failures:
        print("FAIL: " + failure)
    print("%d failures" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
