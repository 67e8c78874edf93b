#!/usr/bin/python3
"""-mav-fold-batchnorm on real models, checked against PyTorch.

For each model written by test/models/generate.py: import it, run
  mav-opt -mav-raise -mav-fold-batchnorm --mav-report=...
and check, from the report, that folded + skipped is the number of BatchNorm
module calls PyTorch counted (the JSON's leaf_modules_by_class), that the
folded count is what PyTorch's own graph says is foldable, that no batch norm
is left but the skipped ones, and that the folded graph computes what the
model computes (mav-run --reference). Writes NAME.folded.mlir to --work and
prints one line per model.

A batch norm is foldable, by PyTorch's inlined TorchScript graph, when it is
an aten::batch_norm with training=False whose input is the output of an
aten::_convolution (not transposed) or aten::linear with no other user.

Usage: check_fold_batchnorm.py --models DIR --translate PATH --opt PATH
                               --run PATH --work DIR [NAME ...]
"""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "models"))
import mavtest  # noqa: E402


def fail(model, message):
    sys.exit(f"check_fold_batchnorm: {model}: {message}")


def foldable_by_pytorch(path):
    import torch
    graph = torch.jit.load(path).inlined_graph
    count = 0
    for node in graph.nodes():
        if node.kind() != "aten::batch_norm":
            continue
        inputs = list(node.inputs())
        if inputs[5].toIValue() is not False:
            continue
        producer = inputs[0].node()
        if producer.kind() == "aten::_convolution":
            if list(producer.inputs())[6].toIValue():
                continue
        elif producer.kind() != "aten::linear":
            continue
        if len(inputs[0].uses()) == 1:
            count += 1
    return count


def check(args, name):
    reference = mavtest.reference(args.models, name)
    norms = sum(count for cls, count in
                reference["leaf_modules_by_class"].items()
                if re.fullmatch(r"torch\.nn\.modules\.batchnorm\.BatchNorm[12]d",
                                cls))
    expected = foldable_by_pytorch(os.path.join(args.models, name + ".pt"))
    imported = os.path.join(args.work, name + ".mlirbc")
    folded_file = os.path.join(args.work, name + ".folded.mlir")
    report = os.path.join(args.work, name + ".report.json")
    mavtest.import_model(args.translate, args.models, name, imported,
                         "--emit-bytecode")
    run = subprocess.run(
        [args.opt, imported, "-mav-raise", "-mav-fold-batchnorm",
         f"--mav-report={report}", "-o", folded_file],
        capture_output=True, text=True)
    if run.returncode != 0:
        fail(name, "mav-opt failed: " + run.stderr.strip())
    warnings = run.stderr.count("batch norm in training mode is not folded")
    records = json.load(open(report))
    if [r["pass"] for r in records] != ["mav-fold-batchnorm"]:
        fail(name, f"report lists {[r['pass'] for r in records]}")
    outputs = records[0]["outputs"]
    folded, skipped = outputs["folded"], outputs["skipped"]
    if folded + skipped != norms:
        fail(name, f"{folded} folded + {skipped} skipped != PyTorch's "
                   f"{norms} batch norms")
    if folded != expected:
        fail(name, f"{folded} folded, PyTorch's graph has {expected} foldable")
    text = open(folded_file).read()
    left = len(re.findall(r'mase_op = "batch_norm', text))
    if left != skipped:
        fail(name, f"{left} batch norm nodes left, {skipped} skipped")
    run = subprocess.run([args.run, folded_file,
                          "--reference=" + os.path.join(args.models,
                                                        name + ".pt")],
                         capture_output=True, text=True)
    if run.returncode != 0:
        fail(name, "mav-run --reference failed: " + run.stdout + run.stderr)
    verdict = run.stdout.strip().splitlines()[-1]
    print(f"{name}: OK: {norms} batch norms, {folded} folded as PyTorch's "
          f"graph says, {skipped} skipped ({warnings} training-mode "
          f"warnings), {left} left; "
          f"skipped_nodes {json.dumps(outputs['skipped_nodes'], sort_keys=True)}"
          f"; {verdict}")


def main():
    args = mavtest.parse_arguments("models", "translate", "opt", "run", "work")
    for name in args.names:
        check(args, name)


if __name__ == "__main__":
    main()
