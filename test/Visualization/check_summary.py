#!/usr/bin/python3
"""Checks the model summary (mav-translate --summary, and the "summary" of
--export-json) against PyTorch.

For each model, mav imports NAME.pt, runs -mav-raise, prints the summary
and exports the graph as JSON. PyTorch builds the generator's eager model
(torch.manual_seed(MODEL_SEED)) and, for every scope row of the summary,
takes the module at that path:
  - parameters: sum(p.numel() for p in module.parameters()), split by
    requires_grad (module.parameters() yields a tied tensor once);
  - output shape: the shape of the module's tensor output, from a forward
    hook on the spec's inputs.
The totals must equal sum(p.numel() for p in model.parameters()) and the
trainable part, in the JSON and in the printed table. Prints "NAME: OK: ..."
or "NAME: FAIL: ..."; exits 1 on any failure.
"""

import json
import os
import re
import subprocess
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "models"))
import generate  # noqa: E402
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

    builder, _ = generate.REGISTRY[name]
    torch.manual_seed(generate.MODEL_SEED)
    spec = builder()
    model = spec.model.eval()
    torch.manual_seed(0)
    inputs = spec.inputs()
    modules = dict(model.named_modules())
    rows = summary["rows"]
    shapes = output_shapes(model, inputs, [r["path"] for r in rows])

    failures = []
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
    print("%s: OK: %d rows, %d params (%d frozen), %d output shapes" %
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
