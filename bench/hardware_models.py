#!/usr/bin/python3
"""The hardware flow on whole models: predicted against measured.

For each model, format and folding, runs the flow of docs/Hardware.md:

    mav-translate --import-torchscript M.pt --input-shape=...
    mav-opt -mav-raise -mav-fold-batchnorm -mav-quantize=FORMAT
            -mav-add-hardware-metadata -mav-fold-parallelism=FOLDING
    mav-translate --report-performance      (the analytic model)
    mav-translate --export-verilog
    mav-run --rtl --samples=2               (bit-exact under stalls, then
                                             the timing run without them)

and prints one markdown row: multipliers, predicted and measured cycles per
frame and latency, the estimated resources (LUTs, flip-flops, memory bits;
--report-resources synthesizes, see docs/Hardware.md "Resources"), the
fixed-point error against PyTorch, and the wall time of `mav-run --rtl`
(the Verilator build included). Foldings:

    slow   every node at its cheapest folding (a target no node exceeds)
    fast   -mav-fold-parallelism='multipliers=16*S', S the slow folding's
    P      -mav-add-hardware-metadata='max-parallelism=P' (e.g. 4,4), no fold

The models are those of test/models/generate.py (the contract models
hw_resnet18, hw_mobilenet_v2, hw_mobilenet_v3_small, hw_squeezenet1_1 and
the flow models hw_cnn, hw_residual, hw_mlp); they are generated into
--models when missing. Simulations of the contract models take minutes
(resnet18's slow folding hours: see bench/RESULTS.md); --no-sim prints the
model's figures only.

    /usr/bin/python3 bench/hardware_models.py [--build build]
        [--models hw_cnn hw_resnet18 ...] [--formats 16,10 8,4]
        [--foldings slow fast] [--simulator verilator|icarus] [--no-sim]
        [--synthesize]

With --synthesize, each design is also synthesised layer by layer
(`mav-translate --report-resources --resources-by=instance
--synth-generic=false --synth-memory-limit=64`: synth_xilinx per distinct
instance, cached, memories of 64 words or more estimated as block RAM) and
the row gives Yosys's LUTs, flip-flops and DSPs instead of the estimate.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONTRACT = ["hw_squeezenet1_1", "hw_mobilenet_v2", "hw_mobilenet_v3_small",
            "hw_resnet18"]
FLOW = ["hw_mlp", "hw_cnn", "hw_residual"]
SLOWEST = 2 ** 62


def run(cmd, **kwargs):
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise RuntimeError("%s failed:\n%s%s" % (" ".join(cmd), result.stdout,
                                                 result.stderr))
    return result.stdout


def fold_outputs(report):
    return [r["outputs"] for r in json.load(open(report))
            if r["pass"] == "mav-fold-parallelism"][-1]


class Flow:
    def __init__(self, bin_dir, models, work, name):
        self.bin = bin_dir
        self.models = models
        self.work = os.path.join(work, name)
        self.name = name
        os.makedirs(self.work, exist_ok=True)
        meta = json.load(open(os.path.join(models, name + ".json")))
        self.net = os.path.join(self.work, "net.mlir")
        run([os.path.join(bin_dir, "mav-translate"), "--import-torchscript",
             os.path.join(models, name + ".pt"),
             "--input-shape=" + meta["input_shapes"][0], "-o", self.net])

    def tool(self, name):
        return os.path.join(self.bin, name)

    def annotate(self, fmt, folding, tag):
        """The hardware graph of `fmt` ("16,10") at `folding`; its path and
        the fold pass's outputs (none for a max-parallelism folding)."""
        width, frac = fmt.split(",")
        hw = os.path.join(self.work, tag + ".hw.mlir")
        report = os.path.join(self.work, tag + ".report.json")
        cmd = [self.tool("mav-opt"), self.net, "-mav-raise",
               "-mav-fold-batchnorm",
               "-mav-quantize=width=%s frac=%s" % (width, frac)]
        if folding in ("slow", "fast"):
            cmd.append("-mav-add-hardware-metadata")
            target = "target-cycles=%d" % SLOWEST
            if folding == "fast":
                slow_hw, slow = self.annotate(fmt, "slow", tag + "-slowest")
                target = "multipliers=%d" % (16 * slow["multipliers"])
            cmd.append("-mav-fold-parallelism=" + target)
        else:
            cmd.append("-mav-add-hardware-metadata=max-parallelism=" + folding)
        run(cmd + ["--mav-report=" + report, "-o", hw])
        outputs = fold_outputs(report) if folding in ("slow", "fast") else None
        return hw, outputs

    def measure(self, fmt, folding, simulator, simulate, synthesize):
        tag = "%s-%s" % (fmt.replace(",", "_"), folding.replace(",", "x"))
        hw, _ = self.annotate(fmt, folding, tag)
        perf_json = os.path.join(self.work, tag + ".perf.json")
        run([self.tool("mav-translate"), "--report-performance", hw, "-o",
             perf_json])
        perf = json.load(open(perf_json))
        row = {
            "model": self.name, "format": "<%s>" % fmt, "folding": folding,
            "multipliers": perf["totals"]["multipliers"],
            "predicted_cycles": perf["design"]["cycles_per_frame"],
            "predicted_latency": perf["design"]["latency_cycles"],
            "bottleneck": "%s (%d)" % (perf["design"]["bottleneck"]["instance"],
                                       perf["design"]["bottleneck"]
                                       ["cycles_per_frame"]),
            "luts": perf["totals"]["luts"],
            "flip_flops": perf["totals"]["flip_flops"],
            "memory_bits": perf["totals"]["memory_bits"],
        }
        reference = os.path.join(self.models, self.name + ".pt")
        text = run([self.tool("mav-run"), hw, "--reference=" + reference])
        error = re.search(r"max abs error ([0-9.e+-]+)", text)
        row["error"] = error.group(1) if error else "?"
        if not simulate and not synthesize:
            return row
        rtl = os.path.join(self.work, tag + ".rtl")
        run([self.tool("mav-translate"), "--export-verilog", hw, "-o", rtl])
        if synthesize:
            resources = os.path.join(self.work, tag + ".resources.json")
            run([self.tool("mav-translate"), "--report-resources", rtl,
                 "--resources-by=instance", "--synth-generic=false",
                 "--synth-memory-limit=64", "-o", resources])
            xilinx = json.load(open(resources))["xilinx"]
            row["synthesized"] = "%d / %d / %d DSP (Yosys)" % (
                xilinx["luts"], xilinx["flip_flops"], xilinx["dsps"])
        if not simulate:
            return row
        start = time.time()
        result = subprocess.run(
            [self.tool("mav-run"), hw, "--rtl=" + rtl, "--samples=2",
             "--seed=3", "--simulator=" + simulator],
            capture_output=True, text=True)
        row["sim_seconds"] = time.time() - start
        out = result.stdout + result.stderr
        exact = re.search(r"^rtl \(%s\): .*: (bit-exact|MISMATCH.*)$"
                          % simulator, out, re.M)
        row["bit_exact"] = bool(exact and exact.group(1) == "bit-exact")
        timing = re.search(r"latency (\d+) cycles \(predicted (\d+), [^)]*\), "
                           r"cycles per frame (\d+) \(predicted (\d+)", out)
        if timing:
            row["measured_latency"] = int(timing.group(1))
            row["measured_cycles"] = int(timing.group(3))
        row["exit"] = result.returncode
        return row


def cell(row, key, fmt="%s"):
    return fmt % row[key] if key in row else "—"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--models", nargs="+", default=FLOW + CONTRACT)
    parser.add_argument("--formats", nargs="+", default=["16,10", "8,4"])
    parser.add_argument("--foldings", nargs="+", default=["slow", "fast"])
    parser.add_argument("--simulator", default="verilator",
                        choices=["verilator", "icarus"])
    parser.add_argument("--no-sim", action="store_true")
    parser.add_argument("--synthesize", action="store_true")
    parser.add_argument("--work", default=None)
    args = parser.parse_args()

    bin_dir = os.path.join(args.build, "bin")
    models = os.path.join(args.build, "test", "models")
    missing = [m for m in args.models
               if not os.path.exists(os.path.join(models, m + ".pt"))]
    if missing:
        run(["/usr/bin/python3", os.path.join(ROOT, "test", "models",
                                              "generate.py"),
             "--out", models, "--only"] + missing)
    work = args.work or tempfile.mkdtemp(prefix="mav-hw-models-")
    print("| model | format | folding | multipliers | cycles/frame "
          "predicted / measured | latency predicted / measured | bottleneck "
          "| LUTs / FFs / memory bits | max abs error vs float "
          "| %s | %s s |" % ("bit-exact", args.simulator))
    print("| --- " * 11 + "|")
    for name in args.models:
        flow = Flow(bin_dir, models, work, name)
        for fmt in args.formats:
            for folding in args.foldings:
                try:
                    row = flow.measure(fmt, folding, args.simulator,
                                       not args.no_sim, args.synthesize)
                except RuntimeError as error:
                    print("| %s | <%s> | %s | failed: %s |" % (
                        name, fmt, folding, str(error).splitlines()[0]))
                    continue
                print("| %s | %s | %s | %d | %d / %s | %d / %s | %s | "
                      "%s / %d | %s | %s | %s |" % (
                          row["model"], row["format"], row["folding"],
                          row["multipliers"], row["predicted_cycles"],
                          cell(row, "measured_cycles"),
                          row["predicted_latency"],
                          cell(row, "measured_latency"), row["bottleneck"],
                          row.get("synthesized", "%d / %d (estimate)" % (
                              row["luts"], row["flip_flops"])),
                          row["memory_bits"],
                          row["error"],
                          cell(row, "bit_exact", "%s").replace(
                              "True", "yes").replace("False", "NO"),
                          cell(row, "sim_seconds", "%.0f")))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
