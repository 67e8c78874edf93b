#!/usr/bin/python3
"""Emission time of the hardware flow against graph size.

For L in --layers (default 10 100 1000 3000 10000): a torch.nn MLP of L
blocks Linear(8, 8) -> ReLU (2L nodes), traced by PyTorch, imported, then
    mav-opt -mav-raise -mav-quantize -mav-add-hardware-metadata
    mav-translate --export-verilog
each timed as a whole process (median of --runs). Prints a markdown table
with each step's time and its marginal cost per node between consecutive
sizes, (t(L) - t(L_prev)) / (nodes(L) - nodes(L_prev)): a step is linear in
graph size when that cost stays flat as the graph grows (the small sizes
are dominated by process start-up).

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
                        default=[10, 100, 1000, 3000, 10000])
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

    print("| layers | nodes | raise+quantize+hw metadata (s) | marginal "
          "us/node | --export-verilog (s) | marginal us/node | top.sv (KiB) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    previous = None
    for layers, nodes, passes, emit, top in rows:
        if previous:
            grown = nodes - previous[1]
            marginal = ("%.1f" % (1e6 * (passes - previous[2]) / grown),
                        "%.1f" % (1e6 * (emit - previous[3]) / grown))
        else:
            marginal = ("", "")
        print("| %d | %d | %.3f | %s | %.3f | %s | %d |" % (
            layers, nodes, passes, marginal[0], emit, marginal[1],
            top // 1024))
        previous = (layers, nodes, passes, emit)


if __name__ == "__main__":
    main()
