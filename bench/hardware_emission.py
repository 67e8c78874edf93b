#!/usr/bin/python3
"""Emission time of the hardware flow against graph size.

For L in --layers (default 10 100 1000 3000 10000): a torch.nn MLP of L
blocks Linear(8, 8) -> ReLU (2L nodes), traced by PyTorch, imported, then
    mav-opt -mav-raise -mav-quantize -mav-add-hardware-metadata
    mav-translate --export-verilog
each timed as a whole process (medians of --runs, wall and user CPU).
Prints a markdown table with each step's times and its marginal user CPU
per node between consecutive sizes, (t(L) - t(L_prev)) / (nodes(L) -
nodes(L_prev)): a step is linear in graph size when that cost stays flat as
the graph grows (small sizes are dominated by process start-up). Wall time
also holds the file system's cost of creating the design's files (two ROMs
per linear layer), which varies from run to run.

    /usr/bin/python3 bench/hardware_emission.py [--build build] [--runs 3]
"""

import argparse
import os
import resource
import shutil
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


def timed(cmd, runs, output=None):
    """Medians of the wall time and of the user CPU time of `cmd`; `output`
    (a directory) is removed before each run, untimed, so that replacing it
    is not measured."""
    walls, users = [], []
    for _ in range(runs):
        if output:
            shutil.rmtree(output, ignore_errors=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        users.append(resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime -
                     before)
    return statistics.median(walls), statistics.median(users)


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
                      "-o", base + ".rtl"], args.runs, output=base + ".rtl")
        top = os.path.getsize(os.path.join(base + ".rtl", "top.sv"))
        files = len(os.listdir(base + ".rtl"))
        rows.append((layers, 2 * layers, passes, emit, files, top))
        print("layers %d done" % layers, file=sys.stderr)

    print("| layers | nodes | raise+quantize+hw metadata: wall (s) | user "
          "(s) | marginal user us/node | --export-verilog: wall (s) | user "
          "(s) | marginal user us/node | files | top.sv (KiB) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
          "| ---: |")
    previous = None
    for layers, nodes, passes, emit, files, top in rows:
        marginal = ("", "")
        if previous:
            grown = nodes - previous[0]
            marginal = ("%.0f" % (1e6 * (passes[1] - previous[1][1]) / grown),
                        "%.0f" % (1e6 * (emit[1] - previous[2][1]) / grown))
        print("| %d | %d | %.2f | %.2f | %s | %.2f | %.2f | %s | %d | %d |" % (
            layers, nodes, passes[0], passes[1], marginal[0], emit[0],
            emit[1], marginal[1], files, top // 1024))
        previous = (nodes, passes, emit)


if __name__ == "__main__":
    main()
