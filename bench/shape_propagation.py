#!/usr/bin/python3
"""Shape propagation on meta does no arithmetic; on cpu it does.

Imports one traced model at two batch sizes and times -mav-add-common-metadata
on the meta and the cpu device (the pass's wall time from --mlir-timing,
median of several runs). On meta the time must not grow with the batch; on
cpu it does. Prints a table and the batch-256 / batch-1 ratios.

Usage: bench/shape_propagation.py [--build DIR] [--model resnet18]
       [--batches 1 256] [--runs 5]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMING = re.compile(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+AddCommonMetadata$")


def pass_seconds(opt, module, device):
    run = subprocess.run(
        [opt, module, f"-mav-add-common-metadata=device={device}",
         "--mlir-timing", "-o", os.devnull],
        capture_output=True, text=True, check=True)
    for line in run.stderr.splitlines():
        match = TIMING.match(line)
        if match:
            return float(match.group(1))
    sys.exit("shape_propagation: no AddCommonMetadata timing in:\n" +
             run.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--model", default="resnet18")
    parser.add_argument("--batches", type=int, nargs=2, default=[1, 256])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    models = os.path.join(args.build, "test", "models")
    subprocess.run(["/usr/bin/python3",
                    os.path.join(ROOT, "test", "models", "generate.py"),
                    "--out", models, "--only", args.model], check=True)
    import json
    shape = json.load(open(os.path.join(models, args.model + ".json")))[
        "input_shapes"][0]
    translate = os.path.join(args.build, "bin", "mav-translate")
    opt = os.path.join(args.build, "bin", "mav-opt")
    times = {}
    with tempfile.TemporaryDirectory() as work:
        for batch in args.batches:
            module = os.path.join(work, f"b{batch}.mlirbc")
            batched = "x".join([str(batch)] + shape.split("x")[1:])
            subprocess.run([translate, "--import-torchscript",
                            os.path.join(models, args.model + ".pt"),
                            f"--input-shape={batched}", "--emit-bytecode",
                            "-o", module], check=True)
            for device in ("meta", "cpu"):
                samples = [pass_seconds(opt, module, device)
                           for _ in range(args.runs)]
                times[(device, batch)] = statistics.median(samples)
    small, large = args.batches
    print(f"{args.model}, -mav-add-common-metadata wall time "
          f"(median of {args.runs}):")
    print(f"  {'device':6} {'batch ' + str(small):>12} "
          f"{'batch ' + str(large):>12} {'ratio':>8}")
    for device in ("meta", "cpu"):
        a, b = times[(device, small)], times[(device, large)]
        print(f"  {device:6} {a:11.4f}s {b:11.4f}s {b / a:7.2f}x")


if __name__ == "__main__":
    main()
