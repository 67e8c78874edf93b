#!/usr/bin/python3
"""Checks -mav-add-hardware-metadata's numbers on real models against PyTorch.

For each model: import it with the generator's input shapes, run
`mav-opt -mav-raise -mav-add-hardware-metadata=max-parallelism=...
--mav-elide-weights`, export with `mav-translate --export-json`
(docs/ExportJson.md), and check every node whose toolchain is INTERNAL_RTL:
for each tensor argument and result of its common metadata (`data_in_0`,
`data_in_1`, `weight`, `bias`, `data_out_0`, ...) `verilog_param` holds
exactly

    ARG_PRECISION_0         the dtype's width (32 for float32)
    ARG_TENSOR_SIZE_DIM_d   shape[-1-d]                       (d = 0 innermost)
    ARG_PARALLELISM_DIM_d   min(max_parallelism[-1-d], shape[-1-d]), 1 beyond

and nothing else, except for the streams (`data_in_k`, `data_out_0`): their
parallelism is the component's legal choice within MASE's budget (the
product of the values above), on the one dimension the component streams in
parallel (an image's channels, d = 2 of a 4-d tensor; else d = 0): that
dimension's value divides its size and is at most the budget, every other
dimension's is 1 (docs/Hardware.md, "Parallelism"); where every shape and dtype is PyTorch's, from the
generator's NAME.json, never mav's own metadata:

  - a call_module's results: leaf_module_output_types, in call order
    (the calls' targets must be leaf_module_call_sequence);
  - a call_function's / call_method's results: value_shapes, matched by
    operator and module scope in graph order (as check_raise.py does);
  - a placeholder: input_shapes; a get_attr: state_dict_keys;
  - a call_module's weight, bias, ...: state_dict_keys["TARGET.NAME"], and
    its tensor arguments that are not data_in_* must be exactly the module's
    own state dict entries;
  - a data_in_k: the PyTorch value of the producer the edge names.

Also checks the pass outputs (the `#mav.pass_output` in the MLIR): every node
has a hardware section whose toolchain is INTERNAL_RTL or UNSUPPORTED,
`supported` + `unsupported` is the node count and they count those
toolchains, `unsupported_ops` counts the UNSUPPORTED nodes by mase_op, every
node named in `unfit_nodes` is UNSUPPORTED; and each node's max_parallelism
is the option's.

--unsupported CLASS (repeatable): every call of that torch.nn class is an
UNSUPPORTED node, and the pass's unsupported_ops count for their mase_op is
the number of calls PyTorch made (leaf_modules_by_class).

Leaves its files in WORK/NAME: in.mlir (imported), hw.mlir (mav-opt's
output, which FileCheck may read), hw.json (exported).

Prints "NAME: OK: N nodes checked, M params" (N INTERNAL_RTL nodes, M
verilog parameters compared) or "NAME: FAIL: reason"; exits non-zero when
one fails.

Usage: check_hardware_metadata.py --models DIR --translate PATH --opt PATH
           --work DIR [--max-parallelism 4,4] [--unsupported CLASS] NAME...
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "models"))
import mavtest  # noqa: E402

# The width MASE's precision[0] takes for a float dtype, by mav's spelling
# and torch's.
FLOAT_BITS = {"f32": 32, "f64": 64, "f16": 16, "bf16": 16}
TORCH_DTYPE = {"torch.float32": "f32", "torch.float64": "f64",
               "torch.float16": "f16", "torch.bfloat16": "bf16"}

NODE = re.compile(r'^\s*%([\w]+)(?::\d+)? = mav\.(call_function|call_method) ')
SCOPE = re.compile(r'scope = #mav\.scope<"([^"]*)"')
PASS_OUTPUT = '#mav.pass_output<"mav-add-hardware-metadata", {'


class Failure(Exception):
    pass


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def parse_type(mav_type):
    """'1x3x16x16xf32' -> ([1, 3, 16, 16], 'f32'); 'f32' -> ([], 'f32')."""
    parts = mav_type.split("x")
    return [int(d) for d in parts[:-1]], parts[-1]


def bits_of(dtype):
    if dtype not in FLOAT_BITS:
        raise Failure("no precision rule for dtype %s" % dtype)
    return FLOAT_BITS[dtype]


def expected_params(arg, shape, dtype, max_parallelism):
    """MASE's verilog parameters of one tensor argument or result."""
    name = arg.upper()
    params = {name + "_PRECISION_0": bits_of(dtype)}
    for d in range(len(shape)):
        size = shape[-1 - d]
        params["%s_TENSOR_SIZE_DIM_%d" % (name, d)] = size
        params["%s_PARALLELISM_DIM_%d" % (name, d)] = (
            min(max_parallelism[-1 - d], size) if d < len(max_parallelism)
            else 1)
    return params


def check_stream_parallelism(node_name, arg, shape, expected, actual):
    """The stream `arg` of an INTERNAL_RTL node: its parallelism lies on one
    dimension, divides it and fits MASE's budget. Moves the keys from
    `expected` into a checked set by setting them to the actual values."""
    name = arg.upper()
    budget = 1
    for d in range(len(shape)):
        budget *= expected["%s_PARALLELISM_DIM_%d" % (name, d)]
    parallel = 2 if len(shape) == 4 else 0
    for d in range(len(shape)):
        key = "%s_PARALLELISM_DIM_%d" % (name, d)
        value = actual.get(key)
        size = shape[-1 - d]
        if d == parallel:
            ok = isinstance(value, int) and 1 <= value <= budget and \
                size % value == 0
        else:
            ok = value == 1
        if not ok:
            raise Failure("%s: %s = %s: the stream's parallelism must lie on "
                          "dimension %d, divide its size %d and fit MASE's "
                          "budget %d" % (node_name, key, value, parallel,
                                         size, budget))
        expected[key] = value


def node_scopes(mlir_path):
    """Module scope of each call_function / call_method node, by name."""
    scopes = {}
    for line in open(mlir_path):
        match = NODE.match(line)
        if match:
            scope = SCOPE.search(line)
            scopes[match.group(1)] = scope.group(1) if scope else ""
    return scopes


def pass_output(mlir_path):
    """supported, unsupported, unsupported_ops and unfit_nodes of the one
    -mav-add-hardware-metadata pass output."""
    text = open(mlir_path).read()
    if text.count(PASS_OUTPUT) != 1:
        raise Failure("%d pass outputs of -mav-add-hardware-metadata" %
                      text.count(PASS_OUTPUT))
    body = text[text.index(PASS_OUTPUT) + len(PASS_OUTPUT):]

    def count(key):
        match = re.search(r"(?<![\w])%s = (\d+) : i64" % key, body)
        if not match:
            raise Failure("pass output has no %s" % key)
        return int(match.group(1))

    def dictionary(key, entry):
        start = body.index(key + " = {") + len(key + " = {")
        items, pos = {}, start
        while body[pos] != "}":
            match = re.compile(r'\s*(\w+|"[^"]*") = ' + entry +
                               r'\s*(,\s*)?').match(body, pos)
            if not match:
                raise Failure("cannot read %s at %r" % (key,
                                                       body[pos:pos + 40]))
            items[match.group(1).strip('"')] = match.group(2)
            pos = match.end()
        return items

    ops = {op: int(n) for op, n in
           dictionary("unsupported_ops", r"(\d+) : i64").items()}
    unfit = dictionary("unfit_nodes", r'"((?:[^"\\]|\\.)*)"')
    return count("supported"), count("unsupported"), ops, unfit


def match_values(ref, nodes, scopes):
    """PyTorch's (shape, dtype) of each call_function / call_method node's
    results: value_shapes by (operator, scope), in graph order. A key whose
    values PyTorch typed differently in number is used only when all its
    values have one type."""
    values = collections.defaultdict(list)
    for value in ref["value_shapes"].values():
        values[(value["kind"], value["scope"])].append(value["type"])
    ours = collections.defaultdict(list)
    for node in nodes:
        if node["op"] in ("call_function", "call_method"):
            kind = node["target"].split(".")[0]
            if node["op"] == "call_method":
                kind = "aten::" + kind
            ours[(kind, scopes.get(node["name"], ""))].append(node)
    result = {}
    for key, group in ours.items():
        counts = [len([r for r in n.get("results", []) if "shape" in r])
                  for n in group]
        theirs = values.get(key, [])
        if len(theirs) == sum(counts):
            it = iter(theirs)
            for node, n in zip(group, counts):
                result[node["name"]] = [parse_type(next(it)) for _ in range(n)]
        elif len(set(theirs)) == 1:
            for node, n in zip(group, counts):
                result[node["name"]] = [parse_type(theirs[0])] * n
        # Otherwise unknown: a node that needs it fails below.
    return result


def check(name, args, max_parallelism):
    ref = mavtest.reference(args.models, name)
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    mavtest.import_model(args.translate, args.models, name, work + "/in.mlir")
    option = "-mav-add-hardware-metadata"
    if max_parallelism:
        option += "=max-parallelism=" + ",".join(map(str, max_parallelism))
    run([args.opt, work + "/in.mlir", "-mav-raise", option,
         "--mav-elide-weights", "-o", work + "/hw.mlir"])
    run([args.translate, "--export-json", work + "/hw.mlir", "-o",
         work + "/hw.json"])
    doc = json.load(open(work + "/hw.json"))
    scopes = node_scopes(work + "/hw.mlir")

    state = {}
    for key in ref["state_dict_keys"]:
        state[key["key"]] = (key["shape"], TORCH_DTYPE.get(key["dtype"],
                                                           key["dtype"]))

    checked = params = 0
    toolchains = collections.Counter()
    unsupported_ops = collections.Counter()
    by_name = {}
    for graph in doc["graphs"]:
        nodes = graph["nodes"]
        # PyTorch's (shape, dtype) of every node's results.
        pytorch = match_values(ref, nodes, scopes)
        inputs = [n for n in nodes if n["op"] == "placeholder"]
        if len(inputs) != len(ref["input_shapes"]):
            raise Failure("%d placeholders, PyTorch has %d inputs" % (
                len(inputs), len(ref["input_shapes"])))
        for node, mav_type in zip(inputs, ref["input_shapes"]):
            pytorch[node["name"]] = [parse_type(mav_type)]
        calls = [n for n in nodes if n["op"] == "call_module"]
        if [n["target"] for n in calls] != ref["leaf_module_call_sequence"]:
            raise Failure("call_module sequence differs from PyTorch's")
        for node, types in zip(calls, ref["leaf_module_output_types"]):
            pytorch[node["name"]] = [parse_type(t) for t in types
                                     if t != "none"]
        for node in nodes:
            if node["op"] == "get_attr" and node["target"] in state:
                pytorch[node["name"]] = [state[node["target"]]]

        operands = collections.defaultdict(dict)
        for edge in graph["edges"]:
            operands[edge["to"]][edge["operand"]] = (edge["from"],
                                                     edge["result"])

        for node in nodes:
            if node["op"] in ("placeholder", "output"):
                continue
            by_name[node["name"]] = node
            hardware = node.get("hardware")
            if not hardware or hardware.get("toolchain") not in (
                    "INTERNAL_RTL", "UNSUPPORTED"):
                raise Failure("%s: no INTERNAL_RTL / UNSUPPORTED hardware "
                              "section" % node["name"])
            toolchains[hardware["toolchain"]] += 1
            if hardware.get("max_parallelism", []) != max_parallelism:
                raise Failure("%s: max_parallelism %s" % (
                    node["name"], hardware.get("max_parallelism")))
            if hardware["toolchain"] == "UNSUPPORTED":
                unsupported_ops[node["mase_op"]] += 1
                continue
            expected = {}
            streams = []
            arguments = list(node["common"]["args"].items())
            tensor_args = [arg for arg, meta in arguments if "shape" in meta]
            for position, (arg, meta) in enumerate(arguments):
                if "shape" not in meta:
                    continue
                producer = operands[node["name"]].get(position)
                if producer:
                    types = pytorch.get(producer[0])
                    if types is None or producer[1] >= len(types):
                        raise Failure("%s: %s: no PyTorch value for %s#%d" % (
                            node["name"], arg, producer[0], producer[1]))
                    shape, dtype = types[producer[1]]
                elif node["op"] == "call_module" and \
                        not arg.startswith("data_in_"):
                    key = node["target"] + "." + arg
                    if key not in state:
                        raise Failure("%s: %s: PyTorch's state dict has no %s"
                                      % (node["name"], arg, key))
                    shape, dtype = state[key]
                else:
                    raise Failure("%s: %s: no operand %d" % (
                        node["name"], arg, position))
                expected.update(expected_params(arg, shape, dtype,
                                                max_parallelism))
                if arg.startswith("data_in_"):
                    streams.append((arg, shape))
            for position, (producer, result) in operands[node["name"]].items():
                if position >= len(arguments) or \
                        arguments[position][0] not in tensor_args:
                    types = pytorch.get(producer, [])
                    if result < len(types):
                        raise Failure("%s: tensor operand %d (%s) is no "
                                      "tensor argument" % (node["name"],
                                                           position, producer))
            if node["op"] == "call_module":
                own = sorted(key[len(node["target"]) + 1:] for key in state
                             if key.startswith(node["target"] + ".") and
                             "." not in key[len(node["target"]) + 1:])
                ours = sorted(arg for arg in tensor_args
                              if not arg.startswith("data_in_"))
                if own != ours:
                    raise Failure("%s: tensor arguments %s, the module's "
                                  "state dict %s" % (node["name"], ours, own))
            results = list(node["common"]["results"].items())
            types = pytorch.get(node["name"])
            if types is None:
                raise Failure("%s: no PyTorch value for %s" % (
                    node["name"], node["target"]))
            tensor_results = [arg for arg, meta in results if "shape" in meta]
            if len(tensor_results) != len(types):
                raise Failure("%s: %d tensor results, PyTorch has %d" % (
                    node["name"], len(tensor_results), len(types)))
            for arg, (shape, dtype) in zip(tensor_results, types):
                expected.update(expected_params(arg, shape, dtype,
                                                max_parallelism))
                if arg == "data_out_0":
                    streams.append((arg, shape))
            actual = hardware.get("verilog_param", {})
            for arg, shape in streams:
                check_stream_parallelism(node["name"], arg, shape, expected,
                                         actual)
            for key in sorted(set(expected) | set(actual)):
                if expected.get(key) != actual.get(key):
                    raise Failure("%s: %s = %s, PyTorch gives %s" % (
                        node["name"], key, actual.get(key), expected.get(key)))
            checked += 1
            params += len(expected)

    supported, unsupported, ops, unfit = pass_output(work + "/hw.mlir")
    if supported + unsupported != len(by_name):
        raise Failure("supported %d + unsupported %d != %d nodes" % (
            supported, unsupported, len(by_name)))
    if (supported, unsupported) != (toolchains["INTERNAL_RTL"],
                                    toolchains["UNSUPPORTED"]):
        raise Failure("supported %d, unsupported %d; the nodes say %d, %d" % (
            supported, unsupported, toolchains["INTERNAL_RTL"],
            toolchains["UNSUPPORTED"]))
    if ops != dict(unsupported_ops):
        raise Failure("unsupported_ops %s; the nodes say %s" % (
            ops, dict(unsupported_ops)))
    for node, reason in unfit.items():
        if node not in by_name:
            raise Failure("unfit node %s is no node" % node)
        if by_name[node]["hardware"]["toolchain"] != "UNSUPPORTED":
            raise Failure("unfit node %s is %s" % (
                node, by_name[node]["hardware"]["toolchain"]))
    for cls in args.unsupported:
        calls = ref["leaf_modules_by_class"].get(cls, 0)
        nodes = [n for n in by_name.values()
                 if n["op"] == "call_module" and n.get("module_class") == cls]
        if len(nodes) != calls:
            raise Failure("%d %s nodes, PyTorch called %d" % (
                len(nodes), cls, calls))
        for node in nodes:
            if node["hardware"]["toolchain"] != "UNSUPPORTED":
                raise Failure("%s (%s) is %s" % (
                    node["name"], cls, node["hardware"]["toolchain"]))
        for op in sorted(set(n["mase_op"] for n in nodes)):
            if ops.get(op) != calls:
                raise Failure("unsupported_ops %s = %s, PyTorch called %s %d "
                              "times" % (op, ops.get(op), cls, calls))
    return checked, params


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", required=True)
    parser.add_argument("--translate", required=True)
    parser.add_argument("--opt", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--max-parallelism", default="4,4",
                        help="outermost first; empty for none")
    parser.add_argument("--unsupported", action="append", default=[],
                        metavar="CLASS")
    parser.add_argument("names", nargs="+")
    args = parser.parse_args()
    max_parallelism = [int(v) for v in args.max_parallelism.split(",") if v]
    failed = False
    for name in args.names:
        try:
            checked, params = check(name, args, max_parallelism)
            print("%s: OK: %d nodes checked, %d params" % (name, checked,
                                                           params))
        except (Failure, subprocess.CalledProcessError, KeyError,
                ValueError, OSError) as e:
            failed = True
            print("%s: FAIL: %s" % (name, e if isinstance(e, Failure)
                                    else repr(e)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
