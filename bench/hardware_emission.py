#!/usr/bin/python3
"""Emission time of the hardware flow against graph size.

For L in --layers (default 10 100 1000): a torch.nn MLP of L blocks
Linear(8, 8) -> ReLU (2L nodes), traced by PyTorch, imported, then
    mav-opt -mav-raise -mav-quantize -mav-add-hardware-metadata
    mav-translate --export-verilog
each timed (median of --runs). Prints a markdown table with the time per
node of each step and its ratio to the smallest size's: about 1.0 at every
size means the step is linear in graph size.

    /usr/bin/python3 bench/hardware_emission.py [--build build] [--runs 3]
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

import torch


def mlp(layers):
    blocks = []
    for _ in range(layers):
        blocks += [torch.nn.Linear(8, 8), torch.nn.ReLU()]
    return torch.nn.Sequential(*blocks).eval()


def timed(cmd, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--work", default="/tmp/mav-bench-hw")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--layers", type=int, nargs="*",
                        default=[10, 100, 1000])
    args = parser.parse_args()
    bin_dir = os.path.join(args.build, "bin")
    opt = os.path.join(bin_dir, "mav-opt")
    translate = os.path.join(bin_dir, "mav-translate")
    os.makedirs(args.work, exist_ok=True)
    torch.manual_seed(0)
    rows = []
    for layers in args.layers:
        base = os.path.join(args.work, "mlp%d" % layers)
        model = torch.jit.trace(mlp(layers), torch.randn(1, 8))
        torch.jit.save(model, base + ".pt")
        subprocess.run([translate, "--import-torchscript", base + ".pt",
                        "--input-shape=1x8xf32", "-o", base + ".mlir"],
                       check=True)
        passes = timed([opt, base + ".mlir", "-mav-raise", "-mav-quantize",
                        "-mav-add-hardware-metadata=max-parallelism=4",
                        "-o", base + ".hw.mlir"], args.runs)
        emit = timed([translate, "--export-verilog", base + ".hw.mlir",
                      "-o", base + ".rtl"], args.runs)
        top = os.path.getsize(os.path.join(base + ".rtl", "top.sv"))
        rows.append((layers, 2 * layers, passes, emit, top))
        print("layers %d done" % layers, file=sys.stderr)

    _, nodes0, passes0, emit0, _ = rows[0]
    print("| layers | nodes | raise+quantize+hw metadata (s) | per node vs %d "
          "layers | --export-verilog (s) | per node vs %d layers | top.sv "
          "(KiB) |" % (rows[0][0], rows[0][0]))
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for layers, nodes, passes, emit, top in rows:
        print("| %d | %d | %.3f | %.2f | %.3f | %.2f | %d |" % (
            layers, nodes, passes, (passes / nodes) / (passes0 / nodes0),
            emit, (emit / nodes) / (emit0 / nodes0), top // 1024))


if __name__ == "__main__":
    main()
