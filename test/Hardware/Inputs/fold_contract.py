#!/usr/bin/python3
"""Issue 29's folding contract on a model, by -mav-fold-parallelism's model:
   fold_contract.py MAV_OPT NET.META.MLIR WORK
folds NET (annotated by -mav-add-hardware-metadata) at its slowest (a target
no node exceeds at width 1: every width 1), reads that folding's multipliers
S from the pass outputs, folds again with multipliers=16*S, and prints both
foldings' bottlenecks and the design's cycles per frame and latency (the
performance model, which simulation matches), and their ratios; fails
unless the second is within its budget and each of its figures at most
1/12 of the first's."""
import json
import os
import subprocess
import sys

mav_opt, net, work = sys.argv[1:4]


def fold(option, tag):
    report = os.path.join(work, tag + ".json")
    subprocess.run([mav_opt, net, "-mav-fold-parallelism=" + option,
                    "--mav-report=" + report,
                    "-o", os.path.join(work, tag + ".hw.mlir")], check=True)
    return [r["outputs"] for r in json.load(open(report))
            if r["pass"] == "mav-fold-parallelism"][-1]


slow = fold("target-cycles=%d" % (2 ** 62), "slow")
assert all(n["in"] == [1] * len(n["in"]) and n["out"] == 1
           for n in slow["nodes"].values()), "the slowest folding is not width 1"
budget = 16 * slow["multipliers"]
fast = fold("multipliers=%d" % budget, "fast")
for tag, outputs in (("slowest", slow), ("multipliers=%d" % budget, fast)):
    print("%s: %d multipliers, bottleneck %s, %d cycles per frame; design "
          "%d cycles per frame, latency %d"
          % (tag, outputs["multipliers"], outputs["bottleneck"],
             outputs["bottleneck_cycles"], outputs["design_cycles_per_frame"],
             outputs["design_latency"]))
ok = fast["multipliers"] <= budget
for figure in ("bottleneck_cycles", "design_cycles_per_frame",
               "design_latency"):
    ratio = fast[figure] / slow[figure]
    within = ratio <= 1 / 12
    ok &= within
    print("%s ratio: %.4f (1/%.2f): %s" % (
        figure, ratio, 1 / ratio, "within 1/12" if within else
        "NOT within 1/12"))
sys.exit(0 if ok else 1)
