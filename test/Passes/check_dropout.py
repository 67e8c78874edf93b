#!/usr/bin/python3
"""The MASE tutorial's dropout passes on real models, checked against PyTorch.

For each model written by test/models/generate.py: import it, run
  mav-opt -mav-raise -mav-count-dropout -mav-remove-dropout -mav-count-dropout
and check, from the --mav-report JSON, that the first count equals PyTorch's
(dropout module calls by class, functional dropout calls, total), that the
second count is zero, and that the graph without dropout computes what the
model computes in eval mode (mav-run --reference; for a model traced in train
mode, against its eval-mode twin). Prints one line per model.

Usage: check_dropout.py --models DIR --translate PATH --opt PATH --run PATH
                        --work DIR [NAME ...]
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "models"))
import mavtest  # noqa: E402


def fail(model, message):
    sys.exit(f"check_dropout: {model}: {message}")


def check(args, name):
    reference = mavtest.reference(args.models, name)
    imported = os.path.join(args.work, name + ".mlirbc")
    removed = os.path.join(args.work, name + ".nodropout.mlirbc")
    report = os.path.join(args.work, name + ".report.json")
    mavtest.import_model(args.translate, args.models, name, imported,
                         "--emit-bytecode")
    run = subprocess.run(
        [args.opt, imported, "-mav-raise", "-mav-count-dropout",
         "-mav-remove-dropout", "-mav-count-dropout", f"--mav-report={report}",
         "--emit-bytecode", "-o", removed], capture_output=True, text=True)
    if run.returncode != 0:
        fail(name, "mav-opt failed: " + run.stderr.strip())
    # -mav-raise's -mav-lower-nested-tensors reports when it lowered.
    records = [r for r in json.load(open(report))
               if r["pass"] != "mav-lower-nested-tensors"]
    passes = [r["pass"] for r in records]
    if passes != ["mav-count-dropout", "mav-remove-dropout",
                  "mav-count-dropout"]:
        fail(name, f"report lists {passes}")
    before, removal, after = (r["outputs"] for r in records)
    if before["modules"] != reference["dropout_modules"]:
        fail(name, f"dropout modules {before['modules']} != PyTorch's "
                   f"{reference['dropout_modules']}")
    if before["functional_count"] != reference["functional_dropout_count"]:
        fail(name, f"{before['functional_count']} functional dropouts, "
                   f"PyTorch {reference['functional_dropout_count']}")
    if before["dropout_count"] != reference["dropout_count"]:
        fail(name, f"{before['dropout_count']} dropouts, PyTorch "
                   f"{reference['dropout_count']}")
    if after["dropout_count"] != 0:
        fail(name, f"{after['dropout_count']} dropouts left after removal")
    eval_reference = os.path.join(
        args.models, reference.get("outputs_reference", name + ".pt"))
    run = subprocess.run([args.run, removed, "--reference=" + eval_reference,
                          "--int-high=50"], capture_output=True, text=True)
    if run.returncode != 0:
        fail(name, "mav-run --reference failed: " + run.stdout + run.stderr)
    verdict = run.stdout.strip().splitlines()[-1]
    print(f"{name}: OK: {before['dropout_count']} dropouts "
          f"({before['module_count']} modules, {before['functional_count']} "
          f"functional) as PyTorch counts, {removal['removed']} removed, "
          f"0 left; {verdict}")


def main():
    args = mavtest.parse_arguments("models", "translate", "opt", "run", "work")
    for name in args.names:
        check(args, name)


if __name__ == "__main__":
    main()
