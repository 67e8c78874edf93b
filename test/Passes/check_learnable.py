#!/usr/bin/python3
"""The learnable-node passes on real models, checked against PyTorch.

For each model written by test/models/generate.py, imported with the default
leaf policy and with --inline-all (MultiheadAttention and every other module
inlined), run
  mav-opt -mav-raise -mav-classify-entry-exit -mav-count-params
          -mav-insert-learnable-nodes -mav-insert-learnable-nodes
and check that
  - the parameter total equals PyTorch's trainable parameter count;
  - the second insertion inserts nothing;
  - the graph with learnable nodes computes what the model computes
    (mav-run --reference against NAME.pt; for a model traced in train mode,
    whose NAME.pt has live dropout, the graph after -mav-remove-dropout
    against the eval-mode twin NAME.eval.pt);
  - (--inline-all) every node's entry and exit type equals the generator's
    independent PyTorch-side classification of the traced graph
    (entry_exit), matched in order by operator and module scope.
Prints one line per model and import.

Usage: check_learnable.py --models DIR --translate PATH --opt PATH --run PATH
                          --work DIR [NAME ...]
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

NODE = re.compile(r'^\s*%(\w+)(?::\d+)? = mav\.(call_module|call_function|'
                  r'call_method|get_attr|learnable) ("[^"]*"|@"?[^\s"]+"?)?')
SCOPE = re.compile(r'scope = #mav\.scope<"([^"]*)"')
CLASSES = re.compile(r'software = #mav\.software<\{[^}]*entry = "([\w-]+)", '
                     r'exit = "(\w+)"')
WEIGHT = re.compile(r'^\s*mav\.weight @"?([^\s"]+)"? (\w+) =')


def fail(model, message):
    sys.exit(f"check_learnable: {model}: {message}")


def classified_nodes(path):
    """(kind, scope, entry, exit) of each @forward node, as PyTorch names
    the operator."""
    kinds, nodes, in_forward = {}, [], False
    for line in open(path):
        weight = WEIGHT.match(line)
        if weight:
            kinds[weight.group(1)] = weight.group(2)
            continue
        if line.lstrip().startswith("mav.graph"):
            in_forward = "@forward(" in line
            continue
        match = NODE.match(line) if in_forward else None
        if not match:
            continue
        _, op, target = match.groups()
        classes = CLASSES.search(line)
        if op == "get_attr":
            name = target.lstrip("@").strip('"')
            kind = ("prim::Constant" if kinds.get(name) == "constant"
                    else "prim::GetAttr")
        elif op == "call_method":
            kind = "aten::" + target.strip('"')
        else:
            kind = target.strip('"').split(".")[0]
        scope = SCOPE.search(line)
        nodes.append((kind, scope.group(1) if scope else "",
                      classes.group(1), classes.group(2)))
    return nodes


def compare_classification(name, reference, nodes):
    expected = collections.defaultdict(list)
    for entry in reference["entry_exit"]:
        expected[(entry["kind"], entry["scope"])].append(
            (entry["entry"], entry["exit"]))
    ours = collections.defaultdict(list)
    for kind, scope, entry, exit_ in nodes:
        ours[(kind, scope)].append((entry, exit_))
    compared = 0
    for key, types in ours.items():
        if key not in expected:
            fail(name, f"PyTorch's classification has no node {key}")
        if len(types) != len(expected[key]):
            fail(name, f"{len(types)} nodes {key}, PyTorch "
                       f"{len(expected[key])}")
        for index, (mine, theirs) in enumerate(zip(types, expected[key])):
            if mine != theirs:
                fail(name, f"node {index} of {key} is {mine}, PyTorch's "
                           f"{theirs}")
            compared += 1
    return compared


def check(args, name, inline):
    reference = mavtest.reference(args.models, name)
    tag = name + (".inline" if inline else "")
    imported = os.path.join(args.work, tag + ".mlirbc")
    output = os.path.join(args.work, tag + ".learnable.mlir")
    report = os.path.join(args.work, tag + ".json")
    mavtest.import_model(args.translate, args.models, name, imported,
                         "--emit-bytecode", *(["--inline-all"] if inline
                                              else []))
    run = subprocess.run(
        [args.opt, imported, "-mav-raise", "-mav-classify-entry-exit",
         "-mav-count-params", "-mav-insert-learnable-nodes",
         "-mav-insert-learnable-nodes", f"--mav-report={report}",
         "--mav-elide-weights", "-o", output], capture_output=True, text=True)
    if run.returncode != 0:
        fail(tag, "mav-opt failed: " + run.stderr.strip())
    outputs = {r["pass"]: r["outputs"] for r in json.load(open(report))
               if r["pass"] != "mav-insert-learnable-nodes"}
    insertions = [r["outputs"]["inserted"] for r in json.load(open(report))
                  if r["pass"] == "mav-insert-learnable-nodes"]
    total = outputs["mav-count-params"]["total"]
    if total != reference["trainable_param_count"]:
        fail(tag, f"{total} trainable parameters, PyTorch counts "
                  f"{reference['trainable_param_count']}")
    if insertions[1] != 0:
        fail(tag, f"the second insertion inserted {insertions[1]}")
    compared = 0
    if inline and "entry_exit" in reference:
        # The classification of the graph before insertion.
        classified = os.path.join(args.work, tag + ".classified.mlir")
        subprocess.run([args.opt, imported, "-mav-raise",
                        "-mav-classify-entry-exit", "--mav-elide-weights",
                        "-o", classified], check=True)
        compared = compare_classification(tag, reference,
                                          classified_nodes(classified))
    inserted = os.path.join(args.work, tag + ".inserted.mlirbc")
    pipeline = ["-mav-insert-learnable-nodes"]
    runs_as = "runs as PyTorch (%s)" % reference["outputs_reference"]
    if reference["reference_is_stochastic"]:
        # A train-mode trace has live dropout, and NAME.pt is stochastic: the
        # graph with learnable nodes, its dropout removed, is compared with
        # the eval-mode twin that the generator traced (NAME.eval.pt).
        pipeline += ["-mav-remove-dropout"]
        runs_as = ("after -mav-remove-dropout, runs as PyTorch's eval-mode "
                   "twin (%s)" % reference["outputs_reference"])
    subprocess.run([args.opt, imported, *pipeline, "--emit-bytecode",
                    "-o", inserted], check=True)
    run = subprocess.run(
        [args.run, inserted, "--reference=" + os.path.join(
            args.models, reference["outputs_reference"]), "--int-high=50"],
        capture_output=True, text=True)
    if run.returncode != 0:
        fail(tag, "mav-run --reference failed: " + run.stdout + run.stderr)
    entry = outputs["mav-classify-entry-exit"]["entry"]
    print(f"{tag}: OK: {total} trainable parameters as PyTorch counts; "
          f"entry {json.dumps(entry, sort_keys=True)}; {insertions[0]} "
          f"learnable nodes, then 0; {compared} nodes classified as PyTorch "
          f"classifies them; {runs_as}")


def main():
    args = mavtest.parse_arguments(
        "models", "translate", "opt", "run", "work",
        extra=lambda parser: parser.add_argument(
            "--inline", nargs="*", default=[],
            help="models to check also with --inline-all"))
    for name in args.names:
        check(args, name, inline=False)
    for name in args.inline:
        check(args, name, inline=True)


if __name__ == "__main__":
    main()
