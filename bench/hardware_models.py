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
BUILD/test/models when missing. Simulations of the contract models take
minutes (resnet18's slow folding hours: see bench/RESULTS.md); --no-sim
prints the model's figures only.

Issue 32's transformers are models too (TRANSFORMERS):
encoder_{post,pre}_{relu,gelu}_{fused,decomposed}, nn.TransformerEncoder
(d_model 64, 4 heads, feed-forward 128, 2 layers) at 1x16x64, and
vit_{fused,decomposed}, torchvision's VisionTransformer (image 32, patch 8,
2 layers, 4 heads, hidden 64, MLP 128, 10 classes) at 1x3x32x32; `fused`
traced on PyTorch's fast path, `decomposed` operator by operator. They are
written by test/Hardware/Inputs/transformer_models.py into WORK/models and
go through test/Hardware/Inputs/transformer-flow.sh's passes before
-mav-quantize (lower the fused attention, inline the encoder layers and
attention modules, raise, split chunks, raise, fold shape arithmetic,
remove dropout; the lowered graph checked against PyTorch in float) in
place of -mav-raise -mav-fold-batchnorm. Their table adds the error in
LSB (8 samples), the top-1 agreement with PyTorch on 64 samples (ViT
only), and the memory bits of fixed_matmul (the attention's score and
value buffers) and fixed_reorder (transposes, the heads' split and merge)
with their share of the design's; a second table gives the memory bits by
module (--report-performance's instances summed). `--models transformers`
selects all ten (`flow` and `contract` the CNN groups).

    /usr/bin/python3 bench/hardware_models.py [--build build]
        [--models hw_cnn hw_resnet18 transformers vit_fused ...]
        [--formats 16,10 8,4] [--foldings slow fast 4] [--work DIR]
        [--simulator verilator|icarus] [--no-sim] [--synthesize]

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

# Issue 32's contract transformers: name -> transformer_models.py's arguments.
TRANSFORMERS = dict(
    [("encoder_%s_%s_%s" % (norm, act, path),
      ["encoder", "64", "4", "128", "2", "16", norm, act, path])
     for norm in ("post", "pre") for act in ("relu", "gelu")
     for path in ("fused", "decomposed")] +
    [("vit_" + path, ["vit", "32", "8", "2", "4", "64", "128", "10", path])
     for path in ("fused", "decomposed")])
GROUPS = {"flow": FLOW, "contract": CONTRACT,
          "transformers": list(TRANSFORMERS)}
# The passes before -mav-quantize: CNNs, and transformers (as
# test/Hardware/Inputs/transformer-flow.sh).
CNN_PASSES = ["-mav-raise", "-mav-fold-batchnorm"]
TRANSFORMER_PASSES = [
    "-mav-lower-fused-attention",
    "-mav-inline-modules=classes=TransformerEncoderLayer,MultiheadAttention",
    "-mav-raise", "-mav-split-chunks", "-mav-raise",
    "-mav-fold-shape-arithmetic", "-mav-remove-dropout"]
# Memory bits by module in the transformer table: these, then the rest.
MEMORY_MODULES = ["fixed_linear", "fixed_fifo", "fixed_matmul",
                  "fixed_reorder", "fixed_softmax", "fixed_layernorm"]


def run(cmd, **kwargs):
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise RuntimeError("%s failed:\n%s%s" % (" ".join(cmd), result.stdout,
                                                 result.stderr))
    return result.stdout


def generate_transformer(models, name):
    """Writes models/NAME.pt with transformer_models.py, and a NAME.json
    giving its input shape as test/models/generate.py's do, when missing."""
    os.makedirs(models, exist_ok=True)
    meta = os.path.join(models, name + ".json")
    if os.path.exists(meta) and os.path.exists(os.path.join(models,
                                                            name + ".pt")):
        return
    shape = run(["/usr/bin/python3",
                 os.path.join(ROOT, "test", "Hardware", "Inputs",
                              "transformer_models.py"),
                 os.path.join(models, name)] + TRANSFORMERS[name]).strip()
    with open(meta, "w") as f:
        json.dump({"name": name, "input_shapes": [shape + "xf32"]}, f)


def fold_outputs(report):
    return [r["outputs"] for r in json.load(open(report))
            if r["pass"] == "mav-fold-parallelism"][-1]


class Flow:
    def __init__(self, bin_dir, models, work, name):
        self.bin = bin_dir
        self.models = models
        self.work = os.path.join(work, name)
        self.name = name
        self.transformer = name in TRANSFORMERS
        self.passes = TRANSFORMER_PASSES if self.transformer else CNN_PASSES
        self.reference = os.path.join(models, name + ".pt")
        os.makedirs(self.work, exist_ok=True)
        meta = json.load(open(os.path.join(models, name + ".json")))
        self.net = os.path.join(self.work, "net.mlir")
        run([os.path.join(bin_dir, "mav-translate"), "--import-torchscript",
             self.reference,
             "--input-shape=" + meta["input_shapes"][0], "-o", self.net])
        if self.transformer:
            # Every rewrite before quantization computes what PyTorch does.
            lowered = os.path.join(self.work, "net.lowered.mlir")
            run([self.tool("mav-opt"), self.net] + self.passes +
                ["-o", lowered])
            run([self.tool("mav-run"), lowered,
                 "--reference=" + self.reference])

    def tool(self, name):
        return os.path.join(self.bin, name)

    def annotate(self, fmt, folding, tag):
        """The hardware graph of `fmt` ("16,10") at `folding`; its path and
        the fold pass's outputs (none for a max-parallelism folding)."""
        width, frac = fmt.split(",")
        hw = os.path.join(self.work, tag + ".hw.mlir")
        report = os.path.join(self.work, tag + ".report.json")
        cmd = [self.tool("mav-opt"), self.net] + self.passes + [
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
            "memory_by_module": {},
        }
        for instance in perf["instances"]:
            memory = row["memory_by_module"]
            memory[instance["module"]] = (memory.get(instance["module"], 0) +
                                          instance["memory_bits"])
        reference = "--reference=" + self.reference
        text = run([self.tool("mav-run"), hw, reference] +
                   (["--samples=8"] if self.transformer else []))
        error = re.search(r"max abs error ([0-9.e+-]+)", text)
        row["error"] = error.group(1) if error else "?"
        if self.transformer:
            lsb = re.search(r"max abs error [0-9.e+-]+ \(([0-9.e+-]+) LSB\)",
                            text)
            row["error"] += " (%s LSB)" % (lsb.group(1) if lsb else "?")
            if self.name.startswith("vit"):
                # Not run(): its exit status is the error estimate's over
                # 64 samples, reported as such; agreement is what is read.
                result = subprocess.run([self.tool("mav-run"), hw, reference,
                                         "--samples=64"],
                                        capture_output=True, text=True)
                text = result.stdout + result.stderr
                top1 = re.search(r"top-1 agreement with the float reference: "
                                 r"(\d+ of \d+)", text)
                row["top1"] = top1.group(1) if top1 else "?"
                if result.returncode != 0:
                    row["top1"] += " (exit %d)" % result.returncode
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


def header(simulator, transformer):
    """The table's header: for transformers, the error in LSB, top-1
    agreement and the attention buffers' memory besides."""
    extra = ("| top-1 agreement (64 samples) | fixed_matmul + fixed_reorder "
             "memory bits (share) " if transformer else "")
    print("| model | format | folding | multipliers | cycles/frame "
          "predicted / measured | latency predicted / measured | bottleneck "
          "| LUTs / FFs / memory bits | max abs error vs float%s %s"
          "| %s | %s s |" % (" (LSB)" if transformer else "", extra,
                             "bit-exact", simulator))
    print("| --- " * (13 if transformer else 11) + "|")


def attention_memory(row):
    bits = (row["memory_by_module"].get("fixed_matmul", 0) +
            row["memory_by_module"].get("fixed_reorder", 0))
    return "%d (%.1f%%)" % (bits, 100.0 * bits / max(row["memory_bits"], 1))


def markdown(row, transformer):
    extra = ""
    if transformer:
        extra = "%s | %s | " % (cell(row, "top1"), attention_memory(row))
    return ("| %s | %s | %s | %d | %d / %s | %d / %s | %s | "
            "%s / %d | %s | %s%s | %s |" % (
                row["model"], row["format"], row["folding"],
                row["multipliers"], row["predicted_cycles"],
                cell(row, "measured_cycles"),
                row["predicted_latency"],
                cell(row, "measured_latency"), row["bottleneck"],
                row.get("synthesized", "%d / %d (estimate)" % (
                    row["luts"], row["flip_flops"])),
                row["memory_bits"],
                row["error"], extra,
                cell(row, "bit_exact", "%s").replace(
                    "True", "yes").replace("False", "NO"),
                cell(row, "sim_seconds", "%.0f")))


def memory_table(rows):
    """Memory bits by module of the transformer designs: fixed_linear its
    weights, fixed_fifo the decoupling FIFOs, fixed_matmul the attention
    score and value buffers, fixed_reorder the transposes and the heads'
    split and merge."""
    print()
    print("| model | format | folding | " + " | ".join(MEMORY_MODULES) +
          " | other | total | matmul + reorder |")
    print("| --- " * (len(MEMORY_MODULES) + 6) + "|")
    for row in rows:
        memory = row["memory_by_module"]
        other = sorted((m, b) for m, b in memory.items()
                       if m not in MEMORY_MODULES and b)
        print("| %s | %s | %s | %s | %s | %d | %s |" % (
            row["model"], row["format"], row["folding"],
            " | ".join(str(memory.get(m, 0)) for m in MEMORY_MODULES),
            ", ".join("%s %d" % o for o in other) or "0",
            row["memory_bits"], attention_memory(row)))


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

    names = [m for name in args.models for m in GROUPS.get(name, [name])]
    bin_dir = os.path.join(args.build, "bin")
    models = os.path.join(args.build, "test", "models")
    missing = [m for m in names if m not in TRANSFORMERS and
               not os.path.exists(os.path.join(models, m + ".pt"))]
    if missing:
        run(["/usr/bin/python3", os.path.join(ROOT, "test", "models",
                                              "generate.py"),
             "--out", models, "--only"] + missing)
    work = args.work or tempfile.mkdtemp(prefix="mav-hw-models-")
    # The CNNs' table, then the transformers' with their memory split.
    for transformer in (False, True):
        group = [m for m in names if (m in TRANSFORMERS) == transformer]
        if not group:
            continue
        if transformer and len(group) < len(names):
            print()
        header(args.simulator, transformer)
        rows = []
        for name in group:
            if transformer:
                generate_transformer(os.path.join(work, "models"), name)
            flow = Flow(bin_dir, os.path.join(work, "models")
                        if transformer else models, work, name)
            for fmt in args.formats:
                for folding in args.foldings:
                    try:
                        row = flow.measure(fmt, folding, args.simulator,
                                           not args.no_sim, args.synthesize)
                    except RuntimeError as error:
                        print("| %s | <%s> | %s | failed: %s |" % (
                            name, fmt, folding, str(error).splitlines()[0]))
                        continue
                    rows.append(row)
                    print(markdown(row, transformer))
                    sys.stdout.flush()
        if transformer and rows:
            memory_table(rows)


if __name__ == "__main__":
    main()
