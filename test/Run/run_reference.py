#!/usr/bin/python3
"""Imports each model with its input shapes and runs mav-run --reference on it.

The interpreter must compute what PyTorch computes: for every model traced in
eval mode, mav-run must report a match against the TorchScript module. A model
traced in train mode keeps stochastic dropout in its graph, so against its
eval-mode twin (NAME.eval.pt) mav-run must report a mismatch and fail: that
checks that a difference is caught. Prints one line per model.

Usage: run_reference.py --models DIR --translate PATH --run PATH [NAME ...]
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "models"))
import mavtest  # noqa: E402


def main():
    args = mavtest.parse_arguments("models", "translate", "run", "work")
    failed = False
    for name in args.names:
        reference = mavtest.reference(args.models, name)
        mlir = os.path.join(args.work, name + ".mlir")
        mavtest.import_model(args.translate, args.models, name, mlir)
        reference_file = os.path.join(
            args.models, reference.get("outputs_reference", name + ".pt"))
        run = subprocess.run([args.run, mlir, "--reference=" + reference_file,
                              "--int-high=50"], capture_output=True, text=True)
        verdict = run.stdout.strip().splitlines()[-1] if run.stdout else ""
        stochastic = reference.get("reference_is_stochastic", False)
        expected = 1 if stochastic else 0
        status = "ok" if run.returncode == expected else "UNEXPECTED"
        failed |= run.returncode != expected
        print(f"{name}: {status}: exit {run.returncode}: {verdict}"
              f"{' ' + run.stderr.strip() if run.stderr else ''}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
