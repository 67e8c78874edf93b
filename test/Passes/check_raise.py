#!/usr/bin/python3
"""Checks -mav-raise against PyTorch on real models.

For each model written by test/models/generate.py: import it with its input
shapes, run `mav-opt -mav-raise` (shape propagation on the meta device), and
check that
  - every node of @forward has a mase_op and a mase_type;
  - every call_module result has the types PyTorch's forward hooks recorded
    for that call (leaf_module_output_types, in call order);
  - every inlined call_function / call_method result has the shape and dtype
    of the same value in PyTorch's traced graph (value_shapes, matched in
    order by operator and module scope);
  - the graph's results have PyTorch's output types.
A dimension mav propagates as dynamic ('?': its size depends on the input's
values, such as a packed sequence's rows when its lengths come from the
input) matches the size PyTorch's input gave; every other dimension and the
dtype must be equal.
Prints one line per model; exits non-zero naming the first mismatch.

Usage: check_raise.py --models DIR --translate PATH --opt PATH --work DIR
"""

import collections
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "models"))
import mavtest  # noqa: E402

NODE = re.compile(r'^\s*%([\w]+)(?::\d+)? = mav\.(call_module|call_function|'
                  r'call_method|get_attr) ')
TARGET = re.compile(r'mav\.\w+ "([^"]*)"')
SCOPE = re.compile(r'scope = #mav\.scope<"([^"]*)"')
COMMON = re.compile(r'common = #mav\.common<mase_type = "(\w+)", '
                    r'mase_op = "(\w+)"')
RESULTS = re.compile(r'-> (.*)$')
TENSOR = re.compile(r'tensor<([^>]*)>')



def matches(ours, theirs):
    """Whether mav's type `ours` is PyTorch's `theirs`, where a dynamic
    dimension ('?': its size depends on the input's values) stands for the
    size PyTorch's input gave. A nested tensor (TransformerEncoder's fast
    path) has no sizes: mav lowers it to a padded tensor
    (-mav-lower-nested-tensors), which any tensor type stands for."""
    if theirs == "nested":
        return ours not in ("none", "object")
    a, b = ours.split("x"), theirs.split("x")
    return len(a) == len(b) and all(x == y or (x == "?" and y.isdigit())
                                    for x, y in zip(a, b))


def all_match(ours, theirs):
    return len(ours) == len(theirs) and all(map(matches, ours, theirs))


def is_subsequence(short, long):
    """Whether `short` is `long` with some elements left out."""
    rest = iter(long)
    return all(any(matches(item, other) for other in rest) for item in short)

def fail(model, message):
    sys.exit(f"check_raise: {model}: {message}")


def result_types(line):
    match = RESULTS.search(line)
    if not match:
        return [t for t in [line.rsplit(" : ", 1)[-1]]]
    text = match.group(1)
    if text.startswith("!mav.tuple<"):
        inner = text[len("!mav.tuple<"):-1]
        return [TENSOR.fullmatch(t).group(1) if TENSOR.fullmatch(t) else
                ("none" if t == "!mav.none" else t)
                for t in split_top(inner)]
    if text.startswith("("):
        text = text[1:-1]
    return [TENSOR.fullmatch(t).group(1) if TENSOR.fullmatch(t) else t
            for t in split_top(text)]


def split_top(text):
    parts, depth, current = [], 0, ""
    for c in text:
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += c
    if current.strip():
        parts.append(current.strip())
    return parts


def check(args, name):
    reference = mavtest.reference(args.models, name)
    imported = os.path.join(args.work, name + ".mlir")
    raised = os.path.join(args.work, name + ".raised.mlir")
    mavtest.import_model(args.translate, args.models, name, imported,
                         "--emit-bytecode")
    report = os.path.join(args.work, name + ".raise-report.json")
    run = subprocess.run([args.opt, imported, "-mav-raise",
                          "--mav-elide-weights", "--mav-report=" + report,
                          "-o", raised],
                         capture_output=True, text=True)
    if run.returncode != 0:
        fail(name, "-mav-raise failed: " + run.stderr.strip())
    # The nodes -mav-lower-nested-tensors made have no value in PyTorch's
    # trace: the graph's results and their users check them.
    inserted = {node for entry in (json.load(open(report))
                                   if os.path.exists(report) else [])
                if entry["pass"] == "mav-lower-nested-tensors"
                for node in entry["outputs"]["inserted"]}
    remarks = run.stderr.count("remark:")

    leaf_types = list(reference["leaf_module_output_types"])
    values = collections.defaultdict(list)
    for value in reference["value_shapes"].values():
        values[(value["kind"], value["scope"])].append(value["type"])
    cursor = collections.Counter()

    # Values PyTorch's trace typed completely, per (operator, scope). When a
    # key has as many values as mav has results, they are compared in order;
    # otherwise (PyTorch left some values untyped) each mav result must be
    # one of PyTorch's types for that key.
    ours = collections.Counter()
    for line in open(raised):
        match = NODE.match(line)
        if match and match.group(2) in ("call_function", "call_method") \
                and match.group(1) not in inserted:
            target = TARGET.search(line).group(1).split(".")[0]
            if match.group(2) == "call_method":
                target = "aten::" + target
            ours[(target, SCOPE.search(line).group(1))] += len(
                [t for t in result_types(line)
                 if re.fullmatch(r"[0-9?x]*[a-z0-9]+", t)])

    nodes = leaves = compared = 0
    in_forward = False
    for line in open(raised):
        if line.lstrip().startswith("mav.graph"):
            in_forward = "@forward(" in line
            continue
        if not in_forward:
            continue
        if line.lstrip().startswith("mav.output"):
            types = [TENSOR.fullmatch(t).group(1) for t in
                     split_top(line.rsplit(" : ", 1)[1].strip())]
            if not all_match(types, reference["output_types"]):
                fail(name, f"graph results {types} != PyTorch's "
                           f"{reference['output_types']}")
            continue
        match = NODE.match(line)
        if not match:
            continue
        node, kind = match.groups()
        nodes += 1
        common = COMMON.search(line)
        if not common:
            fail(name, f"node {node} has no mase_type / mase_op")
        if kind == "get_attr":
            continue
        types = result_types(line)
        if kind == "call_module":
            # A traced module that returned (tensor, None) may return just
            # the tensor in TorchScript: None carries no shape, so the
            # tensors are compared.
            expected = [t for t in leaf_types[leaves] if t != "none"]
            types = [t for t in types if t != "none"]
            leaves += 1
            # The tracer also drops outputs the caller does not use (an
            # LSTM on a packed sequence returns only the packed data):
            # then mav's results are PyTorch's, in order, with gaps.
            if len(types) < len(expected) and is_subsequence(types,
                                                             expected):
                expected = types
            if not all_match(types, expected):
                fail(name, f"call_module {node}: {types} != PyTorch's "
                           f"{expected}")
            compared += 1
            continue
        if node in inserted:
            continue
        target = TARGET.search(line).group(1).split(".")[0]
        if kind == "call_method":
            target = "aten::" + target
        scope = SCOPE.search(line).group(1)
        key = (target, scope)
        for result in types:
            if not re.fullmatch(r"[0-9?x]*[a-z0-9]+", result):
                continue
            recorded = values.get(key, [])
            if not recorded:
                fail(name, f"node {node}: PyTorch has no value of {key}")
            if len(recorded) == ours[key]:
                expected = recorded[cursor[key]]
                cursor[key] += 1
                if not matches(result, expected):
                    fail(name, f"node {node}: {result} != PyTorch's "
                               f"{expected}")
            elif not any(matches(result, other) for other in recorded):
                fail(name, f"node {node}: {result} is none of PyTorch's "
                           f"{sorted(set(recorded))} for {key}")
            compared += 1
    if leaves != len(leaf_types):
        fail(name, f"{leaves} call_module nodes, PyTorch {len(leaf_types)}")
    print(f"{name}: OK: {nodes} nodes with mase_op, {compared} results equal "
          f"to PyTorch's, {remarks} cpu fallbacks")


def main():
    args = mavtest.parse_arguments("models", "translate", "opt", "work")
    for name in args.names:
        check(args, name)


if __name__ == "__main__":
    main()
