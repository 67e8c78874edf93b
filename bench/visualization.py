#!/usr/bin/python3
"""Times the views of issue 15 on the synthetic 30,000-node graph.

The model is bench/synthetic.py's module style (what the importer makes of
the traced torch model) at 7,500 blocks: 30,002 torch.fx nodes, 30,001 nodes
in mav's public graph, 90,001 mav nodes with the module bodies. It is raised
and annotated once:

    mav-opt IN -mav-raise -mav-count-flops -mav-count-params \\
        -mav-classify-entry-exit --mav-elide-weights -o RAISED

then, each --runs times (median, wall time of the whole process):

    mav-translate --summary RAISED
    mav-translate --export-json RAISED
    mav-translate --export-dot RAISED --dot-collapse-depth=1
    mav-translate --export-html RAISED
    test/Viewer/Inputs/check_viewer.py PAGE --open-time   (headless Chromium)

The viewer's open time runs from navigation to the viewer's `ready` (first
layout and render, scopes collapsed by default on a graph this size).
Prints a markdown table (what bench/RESULTS.md holds).
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import synthetic  # noqa: E402


def timed(command, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def open_time(page, runs):
    """The viewer's median open time and the text check_viewer.py printed:
    "open-time: 0.744 s (layout 174 ms; runs: ...)"."""
    checker = os.path.join(ROOT, "test", "Viewer", "Inputs", "check_viewer.py")
    out = subprocess.run(["/usr/bin/python3", checker, page, "--open-time",
                          "--runs", str(runs)], check=True,
                         capture_output=True, text=True).stdout.strip()
    return float(out.split()[1]), out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--blocks", type=int, default=7500)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--work", default="/tmp/mav-bench-visualization")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    opt = os.path.join(args.build, "bin", "mav-opt")
    translate = os.path.join(args.build, "bin", "mav-translate")

    source = os.path.join(args.work, "synthetic.mlir")
    with open(source, "w", buffering=1 << 20) as out:
        synthetic.write_ir(out, args.blocks, style="module")
    raised = os.path.join(args.work, "raised.mlir")
    raise_time = timed([opt, source, "-mav-raise", "-mav-count-flops",
                        "-mav-count-params", "-mav-classify-entry-exit",
                        "--mav-elide-weights", "-o", raised], 1)
    page = os.path.join(args.work, "graph.html")
    rows = [
        ("`--summary`", [translate, "--summary", raised, "-o",
                         os.path.join(args.work, "summary.txt")]),
        ("`--export-json`", [translate, "--export-json", raised, "-o",
                             os.path.join(args.work, "graph.json")]),
        ("`--export-dot --dot-collapse-depth=1`",
         [translate, "--export-dot", raised, "--dot-collapse-depth=1", "-o",
          os.path.join(args.work, "graph.dot")]),
        ("`--export-html`", [translate, "--export-html", raised, "-o", page]),
    ]
    print("Synthetic graph: %d blocks, %d fx nodes, %d mav nodes (module "
          "style); raise and annotate once: %.2f s; medians of %d runs.\n" %
          (args.blocks, synthetic.fx_node_count(args.blocks),
           synthetic.node_count(args.blocks, "module"), raise_time, args.runs))
    print("| step | wall time | output |")
    print("| --- | ---: | ---: |")
    for label, command in rows:
        seconds = timed(command, args.runs)
        output = command[-1]
        print("| %s | %.2f s | %.1f MB |" %
              (label, seconds, os.path.getsize(output) / 1e6))
    seconds, detail = open_time(page, args.runs)
    print("| open the page in headless Chromium, to `ready` | %.2f s | |" %
          seconds)
    print("\n" + detail)


if __name__ == "__main__":
    main()
