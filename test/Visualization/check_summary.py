#!/usr/bin/python3
"""Checks the model summary (mav-translate --summary, and the "summary" of
--export-json) against PyTorch.

For each model, mav imports NAME.pt, runs -mav-raise, prints the summary
and exports the graph as JSON. The rows PyTorch expects are the module
scopes of the nodes of its traced graph and their ancestors (the root left
out): every node the generator lists in `entry_exit` outside the leaf
modules, and the leaf module calls its forward hooks saw
(test/models/expect.py, expected_nodes). The rows of the JSON and of the
printed table (--summary-depth=0) must be exactly these: none missing, none
extra, none twice. PyTorch builds the generator's eager model
(the module NAME.pt was traced from: test/models/expect.py, eager_model)
and, for every row, takes the module at that path:
  - parameters: sum(p.numel() for p in module.parameters()), split by
    requires_grad (module.parameters() yields a tied tensor once);
  - output shape: the shape of the module's tensor output, from a forward
    hook on the spec's inputs.
The totals must equal sum(p.numel() for p in model.parameters()) and the
trainable part, in the JSON and in the printed table. Prints "NAME: OK: ..."
or "NAME: FAIL: ..."; exits 1 on any failure.
"""

import collections
import json
import os
import re
import subprocess
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "models"))
import expect  # noqa: E402
import mavtest  # noqa: E402


def split_parameters(module):
    trainable = sum(p.numel() for p in module.parameters() if p.requires_grad)
    frozen = sum(p.numel() for p in module.parameters()
                 if not p.requires_grad)
    return trainable, frozen


def output_shapes(model, inputs, paths):
    modules = dict(model.named_modules())
    shapes = {}

    def hook(path):
        def record(module, inp, out):
            if isinstance(out, torch.Tensor):
                shapes[path] = list(out.shape)
        return record

    for path in paths:
        modules[path].register_forward_hook(hook(path))
    with torch.no_grad():
        model(*inputs)
    return shapes


TABLE_ROW = re.compile(r"^[│ ]*[├└]─(?:[^:]*): (\S+)\s+(\[[^]]*\]|--)\s+"
                       r"([0-9,]+|--)\s+([0-9,]+|--)\s+([0-9,]+|--)$")


def table_rows(table):
    """[(path, (params, frozen))] of the printed table's scope rows."""
    rows = []
    for line in table.splitlines():
        match = TABLE_ROW.match(line)
        if match:
            path, _, params, frozen, _ = match.groups()
            rows.append((path, tuple(0 if v == "--" else
                                     int(v.replace(",", ""))
                                     for v in (params, frozen))))
    return rows


def printed_count(table, label):
    match = re.search(r"^%s: ([0-9,]+)$" % re.escape(label), table, re.M)
    return int(match.group(1).replace(",", "")) if match else None


def check(name, args):
    mlir = os.path.join(args.work, name + ".mlir")
    mavtest.import_model(args.translate, args.models, name, mlir)
    raised = os.path.join(args.work, name + ".raised.mlir")
    subprocess.run([args.opt, mlir, "-mav-raise", "--mav-elide-weights",
                    "-o", raised], check=True)
    exported = os.path.join(args.work, name + ".json")
    subprocess.run([args.translate, "--export-json", raised, "-o", exported],
                   check=True)
    table = subprocess.run([args.translate, "--summary", raised,
                            "--summary-depth=0"], check=True,
                           capture_output=True, text=True).stdout
    summary = json.load(open(exported))["summary"]

    model, inputs = expect.eager_model(name)
    modules = dict(model.named_modules())
    # The rows PyTorch expects: the module scopes of the nodes of its traced
    # graph (the generator's JSON) and their ancestors.
    expected_rows = expect.scopes_of(
        expect.expected_nodes(mavtest.reference(args.models, name)))
    rows = summary["rows"]
    shapes = output_shapes(model, inputs, sorted(expected_rows))

    failures = []
    paths = [r["path"] for r in rows]
    difference = expect.difference(collections.Counter(expected_rows),
                                   collections.Counter(paths))
    if difference:
        failures.append("summary rows differ from PyTorch's scopes: " +
                        difference)
    printed_rows = table_rows(table)
    printed = dict(printed_rows)
    difference = expect.difference(
        collections.Counter(expected_rows),
        collections.Counter(path for path, _ in printed_rows))
    if difference:
        failures.append("printed rows differ from PyTorch's scopes: " +
                        difference)
    for path in sorted(expected_rows):
        expected = split_parameters(modules[path])
        if path in printed and printed[path] != expected:
            failures.append("printed %s: params/frozen %d/%d, PyTorch %d/%d"
                            % (path, *printed[path], *expected))
    for row in rows:
        module = modules.get(row["path"])
        if module is None:
            failures.append("row %s is no module" % row["path"])
            continue
        expected = split_parameters(module)
        if (row["params"], row["frozen"]) != expected:
            failures.append("%s: params/frozen %d/%d, PyTorch %d/%d" %
                            (row["path"], row["params"], row["frozen"],
                             *expected))
        if row["path"] in shapes and row["output_shape"] != shapes[row["path"]]:
            failures.append("%s: output shape %s, PyTorch %s" %
                            (row["path"], row["output_shape"],
                             shapes[row["path"]]))
    trainable, frozen = split_parameters(model)
    totals = summary["totals"]
    if (totals["params"], totals["trainable"], totals["frozen"]) != \
            (trainable + frozen, trainable, frozen):
        failures.append("totals %d/%d/%d, PyTorch %d/%d/%d" %
                        (totals["params"], totals["trainable"],
                         totals["frozen"], trainable + frozen, trainable,
                         frozen))
    for label, value in (("Total params", trainable + frozen),
                         ("Trainable params", trainable),
                         ("Non-trainable params", frozen)):
        if printed_count(table, label) != value:
            failures.append("printed %s %s, PyTorch %d" %
                            (label, printed_count(table, label), value))
    if failures:
        print("%s: FAIL: %s" % (name, "; ".join(failures)))
        return False
    print("%s: OK: %d rows as PyTorch's scopes, in the JSON and the table, "
          "%d params (%d frozen), %d output shapes" %
          (name, len(rows), trainable + frozen, frozen,
           sum(1 for r in rows if r["path"] in shapes)))
    return True


def main():
    args = mavtest.parse_arguments(
        "models", "translate", "work",
        extra=lambda p: p.add_argument("--opt", required=True))
    ok = all([check(name, args) for name in args.names])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
