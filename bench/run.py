#!/usr/bin/python3
"""Issue 7: mav against the torch.fx reference, side by side, in one run.

    /usr/bin/python3 bench/run.py [--quick] [--full] [--runs N] [--markdown FILE] [--json FILE]

Runs both sides on the same models and prints, medians over --runs runs:

  1. side by side (synthetic model at 10^3..10^5 mav nodes and at 3x10^4 fx
     nodes in both IR styles; real torchvision models imported through
     TorchScript): the whole pipeline, count, remove, checkpoint save and
     load, as reference / mav ratios;
  2. scaling of mav from 10^3 to 10^6 nodes: time and peak RSS per node,
     per pass;
  3. start-up: a pipeline without tensor execution against one with shape
     propagation, and what loading libtorch costs;
  4. the targets of DESIGN.md, each MET or MISSED with the measured figure.

See bench/README.md for what every number means. Nothing here is a test:
the harness measures and reports, it does not fail on a missed target.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import synthetic  # noqa: E402

PY = "/usr/bin/python3"
MLIR_OPT = "/usr/lib/llvm-19/bin/mlir-opt"
STRACE = shutil.which("strace")
GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
# The pass rows of --mlir-timing: issue 13's "passes in-process" (no parser,
# no output), as bench/real_models.py counts them.
PASS_ROWS = ("InitMetadata", "AddCommonMetadata", "CountDropout", "RemoveDropout")
PIPELINE = ["-mav-init-metadata", "-mav-add-common-metadata", "-mav-count-dropout",
            "-mav-remove-dropout", "-mav-count-dropout"]
REAL_MODELS = ["alexnet", "vgg11", "resnet18", "squeezenet1_0", "mobilenet_v2",
               "efficientnet_b0"]
TIMING = re.compile(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+(\S.*?)\s*$")
RESOLUTION = 1e-4     # --mlir-timing prints 4 decimals
KIB = 1024.0

TARGETS = {"pipeline": 20.0, "count": 100.0, "remove": 100.0, "flat": 2.0,
           "kib_per_node": 1.5, "parsed_kib_per_node": 1.0, "load": 10.0}


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def median(xs):
    return statistics.median(xs) if xs else None


# --------------------------------------------------------------------------
# Running mav tools: wall time (perf_counter around the process), peak RSS
# (the child's ru_maxrss from wait4, what /usr/bin/time -v reports as
# "Maximum resident set size"), and --mlir-timing's phases.
# --------------------------------------------------------------------------

def run_process(cmd, work):
    err_path = os.path.join(work, "stderr.txt")
    rss_path = os.path.join(work, "rss.txt")
    # Peak RSS through GNU time (-f %M, what -v prints as "Maximum resident
    # set size"): a child forked by this Python process would count the
    # parent's pages it had before exec.
    wrapped = ([GNU_TIME, "-f", "%M", "-o", rss_path] + cmd) if GNU_TIME else cmd
    with open(err_path, "w") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(wrapped, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
    text = open(err_path).read()
    if proc.returncode != 0:
        sys.exit(f"run.py: command failed ({proc.returncode}): {' '.join(cmd)}\n{text[-3000:]}")
    rss = usage.ru_maxrss
    if GNU_TIME:
        rss = int(open(rss_path).read().split()[-1])
    phases = []
    in_table = False
    for line in text.splitlines():
        if "----Wall Time----" in line:
            in_table = True
            continue
        m = TIMING.match(line) if in_table else None
        if m:
            phases.append((m.group(2), float(m.group(1))))
    return {"wall": wall, "rss_kib": rss, "phases": phases}


def run_median(cmd, work, runs):
    """Median of `runs` runs: wall, peak RSS, and each timing phase (by
    position, so that a pass that runs twice keeps two entries)."""
    samples = [run_process(cmd, work) for _ in range(runs)]
    names = [n for n, _ in samples[0]["phases"]]
    phases = [(n, median([s["phases"][i][1] for s in samples])) for i, n in enumerate(names)]
    return {"wall": median([s["wall"] for s in samples]),
            "rss_kib": median([s["rss_kib"] for s in samples]),
            "phases": phases, "runs": runs}


def phase(result, name, occurrence=0):
    found = [t for n, t in result["phases"] if n == name]
    return found[occurrence] if len(found) > occurrence else None


def ratio(ref, mav):
    """reference / mav; a mav time under the timer's resolution counts as
    half of it and the ratio is a lower bound (marked '>')."""
    if ref is None or mav is None:
        return None, False
    if mav < RESOLUTION:
        return ref / (RESOLUTION / 2), True
    return ref / mav, False


def fmt_ratio(r):
    value, bound = r
    if value is None:
        return "-"
    return (">" if bound else "") + (f"{value:.0f}x" if value >= 100 else
                                     f"{value:.1f}x" if value >= 1 else f"{value:.2f}x")


def fmt_s(s):
    if s is None:
        return "-"
    if s < RESOLUTION:
        return "<0.1ms"
    return f"{s * 1e3:.1f}ms" if s < 1 else f"{s:.2f}s"


# --------------------------------------------------------------------------

class Bench:
    def __init__(self, args):
        self.args = args
        self.build = args.build
        self.opt = os.path.join(args.build, "bin", "mav-opt")
        self.translate = os.path.join(args.build, "bin", "mav-translate")
        self.parse_memory = os.path.join(args.build, "bin", "mav-parse-memory")
        for tool in (self.opt, self.translate):
            if not os.access(tool, os.X_OK):
                sys.exit(f"run.py: {tool} is missing: build it first "
                         "(scripts/build.sh mav-opt mav-translate)")
        self.work = args.work
        os.makedirs(self.work, exist_ok=True)
        self.data = {"side_by_side": [], "scaling": [], "startup": {}, "machine": machine()}

    # -- inputs --------------------------------------------------------------

    def synthetic_ir(self, blocks, style):
        path = os.path.join(self.work, f"synthetic-{style}-{blocks}-w{self.args.width}.mlir")
        if not os.path.exists(path):
            tmp = path + ".tmp"
            with open(tmp, "w", buffering=1 << 20) as f:
                synthetic.write_ir(f, blocks, self.args.width, style)
            os.replace(tmp, path)
        return path

    def real_model_ir(self, name):
        models = os.path.join(self.work, "models")
        subprocess.run([PY, os.path.join(ROOT, "test", "models", "generate.py"),
                        "--out", models, "--only", name], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        info = json.load(open(os.path.join(models, name + ".json")))
        out = os.path.join(self.work, name + ".mlirbc")
        if not os.path.exists(out):
            subprocess.run([self.translate, "--import-torchscript",
                            os.path.join(models, name + ".pt")] +
                           [f"--input-shape={s}" for s in info["input_shapes"]] +
                           ["--emit-bytecode", "-o", out], check=True)
        return out, info

    def count_nodes(self, ir):
        """Nodes of every graph (get_attr, call_*, output), as the generic
        form prints them."""
        text = subprocess.run([self.opt, ir, "--mlir-print-op-generic", "--mav-elide-weights"],
                              capture_output=True, text=True, check=True).stdout
        return sum(len(re.findall(r'"mav\.' + op + r'"', text))
                   for op in ("get_attr", "call_function", "call_method", "call_module",
                              "output"))

    # -- the two sides -------------------------------------------------------

    def reference(self, what, runs, checkpoint=True):
        cmd = [PY, os.path.join(HERE, "fx_reference.py"), "--runs", str(runs),
               "--width", str(self.args.width)] + what
        if checkpoint:
            ckdir = os.path.join(self.work, "fx-checkpoint")
            os.makedirs(ckdir, exist_ok=True)
            cmd += ["--checkpoint", ckdir]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    def mav(self, ir, runs, bytecode=False, checkpoint=True):
        out = ["--emit-bytecode"] if bytecode else []
        result = {"pipeline": run_median([self.opt, ir] + PIPELINE + out +
                                         ["--mlir-timing", "-o", os.devnull], self.work, runs)}
        if checkpoint:
            ckpt = os.path.join(self.work, "mav.ckpt")
            result["save"] = run_median(
                [self.opt, ir, "-mav-init-metadata", "-mav-add-common-metadata",
                 f"-mav-export-checkpoint=path={ckpt}", "--mlir-timing", "-o", os.devnull],
                self.work, runs)
            load_cmd = [self.opt, ckpt, "--emit-bytecode", "--mlir-timing", "-o", os.devnull]
            result["load"] = run_median(load_cmd, self.work, runs)
            if STRACE:
                result["load"]["traced"] = median(
                    [self.traced_load(load_cmd, ckpt) for _ in range(runs)])
            result["checkpoint_bytes"] = os.path.getsize(ckpt)
            os.remove(ckpt)
        return result

    def traced_load(self, cmd, path):
        """Seconds from the checkpoint's openat to the end of parsing: strace
        timestamps the openat and the first write of the timing report (which
        follows the pipeline), minus the printing (Output). Start-up (libtorch)
        is outside the interval."""
        log_path = os.path.join(self.work, "strace.txt")
        run = subprocess.run([STRACE, "-f", "--seccomp-bpf", "-ttt", "-e", "trace=openat,write",
                              "-o", log_path] + cmd, capture_output=True, text=True)
        if run.returncode != 0:
            return None
        opened = report = None
        for line in open(log_path):
            fields = line.split(None, 2)
            if len(fields) < 3:
                continue
            if opened is None and fields[2].startswith("openat(") and f'"{path}"' in fields[2]:
                opened = float(fields[1])
            elif opened is not None and fields[2].startswith('write(2, "==='):
                report = float(fields[1])
                break
        phases = [(m.group(2), float(m.group(1))) for m in
                  (TIMING.match(l) for l in run.stderr.splitlines()) if m]
        output = [t for n, t in phases if n == "Output"]
        if opened is None or report is None or not output:
            return None
        return report - opened - output[0]

    def mav_load_seconds(self, m):
        """Checkpoint load without start-up or printing: open, checksums,
        bytecode parse, verify. From strace when present, else process wall
        - start-up of an empty module - the printing (Output)."""
        load = m["load"]
        if load.get("traced") is not None:
            return load["traced"]
        return load["wall"] - self.startup_empty - phase(load, "Output")

    @staticmethod
    def per_pass_growth(rows, name):
        """Per-node time of pass `name` at the largest size over the smallest
        size where the pass is long enough for the timer to resolve."""
        large = rows[-1]
        for row in rows[:-1]:
            if row["pass_us_per_node"][name] * row["nodes"] >= 1000:
                return (f"{name} {large['pass_us_per_node'][name] / row['pass_us_per_node'][name]:.2f}x"
                        f" (from {row['nodes']} nodes)")
        return f"{name} n/a (under 1 ms below {large['nodes']} nodes)"

    # -- sections ------------------------------------------------------------

    def startup(self):
        runs = max(self.args.runs, 5)
        work = self.work
        empty = os.path.join(work, "empty.mlir")
        open(empty, "w").write("module {}\n")
        tiny = self.synthetic_ir(1, "function")
        s = self.data["startup"]
        s["mav_version"] = run_median([self.opt, "--version"], work, runs)
        s["mav_empty"] = run_median([self.opt, empty, "-o", os.devnull], work, runs)
        s["no_tensor"] = run_median([self.opt, tiny, "-mav-count-dropout", "-mav-remove-dropout",
                                     "-o", os.devnull], work, runs)
        s["with_shapes"] = run_median([self.opt, tiny] + PIPELINE + ["-o", os.devnull], work, runs)
        if os.access(MLIR_OPT, os.X_OK):
            s["mlir_opt_version"] = run_median([MLIR_OPT, "--version"], work, runs)
            s["mlir_opt_empty"] = run_median([MLIR_OPT, empty, "-o", os.devnull], work, runs)
        # libtorch alone: dlopen in a bare Python process (time and RSS added).
        probe = ("import ctypes,os,time\n"
                 "rss=lambda:int([l for l in open('/proc/self/status') if l.startswith('VmRSS')][0].split()[1])\n"
                 "r=rss();t=time.perf_counter()\n"
                 "ctypes.CDLL('libtorch_cpu.so.1.13',mode=os.RTLD_NOW|os.RTLD_GLOBAL)\n"
                 "print(time.perf_counter()-t,rss()-r)\n")
        samples = []
        for _ in range(runs):
            try:
                out = subprocess.run([PY, "-c", probe], capture_output=True, text=True, check=True)
                samples.append([float(x) for x in out.stdout.split()])
            except (subprocess.CalledProcessError, ValueError):
                break
        if samples:
            s["dlopen_libtorch"] = {"wall": median([a for a, _ in samples]),
                                    "rss_kib": median([b for _, b in samples])}
        self.startup_empty = s["mav_empty"]["wall"]
        self.baseline_rss = s["with_shapes"]["rss_kib"]
        self.baseline_rss_parse = s["mav_empty"]["rss_kib"]

    def side_by_side(self, label, ir, ref_what, nodes, fx_nodes=None, bytecode=False,
                     reference=None, runs=None, checkpoint=True):
        runs = runs or self.args.runs
        log(f"run.py: {label}: mav ({nodes} nodes)")
        m = self.mav(ir, runs, bytecode, checkpoint)
        if reference is None:
            log(f"run.py: {label}: torch.fx reference")
            reference = self.reference(ref_what, runs, checkpoint)
        row = {"label": label, "nodes": nodes, "fx_nodes": reference["nodes"], "mav": m,
               "ref": reference}
        self.data["side_by_side"].append(row)
        return row

    def scaling(self, sizes):
        for nodes in sizes:
            blocks = synthetic.blocks_for_nodes(nodes, "function")
            n = synthetic.node_count(blocks, "function")
            big = n > 200000
            runs = self.args.big_runs if big else self.args.runs
            log(f"run.py: scaling: {n} nodes ({blocks} blocks), generating")
            ir = self.synthetic_ir(blocks, "function")
            log(f"run.py: scaling: {n} nodes: pipeline x{runs}")
            pipe = run_median([self.opt, ir] + PIPELINE + ["--mlir-timing", "-o", os.devnull],
                              self.work, runs)
            log(f"run.py: scaling: {n} nodes: parse and print only")
            parse = run_median([self.opt, ir, "--mlir-timing", "-o", os.devnull], self.work, 1)
            parsed = None
            if os.access(self.parse_memory, os.X_OK):
                parsed = json.loads(subprocess.run([self.parse_memory, ir], check=True,
                                                   capture_output=True, text=True).stdout)
            self.data["scaling"].append({"nodes": n, "blocks": blocks, "pipeline": pipe,
                                         "parse_print": parse, "parsed": parsed,
                                         "ir_bytes": os.path.getsize(ir)})

    def module_removal(self, sizes):
        """-mav-remove-dropout alone on module-style graphs of growing size."""
        rows = self.data["removal"] = []
        for blocks in sizes:
            log(f"run.py: module-style removal, {blocks} blocks")
            r = run_median([self.opt, self.synthetic_ir(blocks, "module"), "-mav-count-dropout",
                            "-mav-remove-dropout", "--mlir-timing", "-o", os.devnull],
                           self.work, 1)
            rows.append({"blocks": blocks, "nodes": synthetic.node_count(blocks, "module"),
                         "count": phase(r, "CountDropout"), "remove": phase(r, "RemoveDropout")})

    # -- report --------------------------------------------------------------

    def report(self):
        lines = []
        out = lines.append
        d = self.data
        mach = d["machine"]
        out(f"Machine: {mach['cpus']} cores ({mach['cpu']}), {mach['mem_gib']:.0f} GiB, "
            f"{mach['os']}; torch {mach['torch']}; date {mach['date']}; "
            f"runs {self.args.runs} (10^6 nodes: {self.args.big_runs}), medians; repository at "
            f"{mach['commit']}, mav-opt built {time.strftime('%Y-%m-%d %H:%M', time.localtime(os.path.getmtime(self.opt)))}; "
            f"load average {mach['load']:.2f} at start, {os.getloadavg()[0]:.2f} at end.")
        out("")
        self.report_side_by_side(out)
        self.report_scaling(out)
        self.report_startup(out)
        self.targets(out)
        return "\n".join(lines)

    def compute_ratios(self, row):
        r, m = row["ref"]["median"], row["mav"]
        p = m["pipeline"]
        total = phase(p, "Total")
        cnt, rem = phase(p, "CountDropout"), phase(p, "RemoveDropout")
        has_ckpt = "save" in m and "save" in r
        save = phase(m["save"], "ExportCheckpoint") if has_ckpt else None
        load = self.mav_load_seconds(m) if has_ckpt else None
        passes = sum(t for n, t in p["phases"] if n in PASS_ROWS)
        row["mav_times"] = {"total": total, "passes": passes, "count": cnt, "remove": rem, "save": save,
                            "load": load, "process": p["wall"]}
        row["ratios"] = {
            "pipeline": ratio(r["pipeline"], total),
            "passes": ratio(r["pipeline"], passes),
            "pipeline_meta": ratio(r["pipeline"] + r["metadata"], total),
            "pipeline_process": ratio(r["pipeline"], p["wall"]),
            "count": ratio(r["count"], cnt), "remove": ratio(r["remove"], rem),
            "count_remove": ratio(r["count"] + r["remove"], (cnt or 0) + (rem or 0)),
            "save": ratio(r["save"], save) if has_ckpt else (None, False),
            "load": ratio(r["load"], load) if has_ckpt else (None, False),
            "load_process": (ratio(r["load"], m["load"]["wall"] - phase(m["load"], "Output"))
                             if has_ckpt else (None, False))}
        return row["ratios"]

    def report_side_by_side(self, out):
        d = self.data
        out("### Side by side: reference / mav (above 1x, mav is faster)")
        out("")
        out("| workload | fx nodes | mav nodes | fx pipeline | mav pipeline | ratio | "
            "ratio vs fx + metadata | mav process | ratio | count fx / mav | ratio | "
            "remove fx / mav | ratio | count+remove ratio |")
        out("| --- " * 14 + "|")
        for row in d["side_by_side"]:
            x = self.compute_ratios(row)
            r, t = row["ref"]["median"], row["mav_times"]
            out(f"| {row['label']} | {row['fx_nodes']} | {row['nodes']} | "
                f"{fmt_s(r['pipeline'])} | {fmt_s(t['total'])} | {fmt_ratio(x['pipeline'])} | "
                f"{fmt_ratio(x['pipeline_meta'])} | "
                f"{fmt_s(t['process'])} | {fmt_ratio(x['pipeline_process'])} | "
                f"{fmt_s(r['count'])} / {fmt_s(t['count'])} | {fmt_ratio(x['count'])} | "
                f"{fmt_s(r['remove'])} / {fmt_s(t['remove'])} | {fmt_ratio(x['remove'])} | "
                f"{fmt_ratio(x['count_remove'])} |")
        out("")
        out("fx pipeline = ShapeProp + count + remove + count, in-process. fx + metadata adds "
            "building MASE-style metadata dicts from ShapeProp's results (informative). mav "
            "pipeline = --mlir-timing Total: parse, init, common metadata (meta), count, remove, "
            "count, print. mav process = the whole mav-opt process (libtorch start-up included). "
            "count = the first count pass; '>' = mav under the 0.1 ms timer resolution.")
        out("")
        out("### Checkpoints: reference / mav")
        out("")
        out("| workload | fx save | mav save | ratio | fx load | mav load | ratio | "
            "mav load + start-up | ratio | fx files | mav file |")
        out("| --- " * 11 + "|")
        for row in d["side_by_side"]:
            r, t, x, m = row["ref"]["median"], row["mav_times"], row["ratios"], row["mav"]
            if t["save"] is None:
                continue
            with_start = m["load"]["wall"] - phase(m["load"], "Output")
            out(f"| {row['label']} | {fmt_s(r['save'])} | {fmt_s(t['save'])} | "
                f"{fmt_ratio(x['save'])} | {fmt_s(r['load'])} | {fmt_s(t['load'])} | "
                f"{fmt_ratio(x['load'])} | {fmt_s(with_start)} | {fmt_ratio(x['load_process'])} | "
                f"{row['ref'].get('checkpoint_bytes', 0) / 2**20:.1f} MiB | "
                f"{m['checkpoint_bytes'] / 2**20:.1f} MiB |")
        out("")
        out("fx save / load = MaseGraph.export / from_checkpoint: torch.save / torch.load of the "
            "GraphModule + pickled per-node metadata, in-process (no interpreter start-up, no "
            "`import torch`). mav save = the ExportCheckpoint pass; mav load = from opening the "
            "checkpoint to the parsed, verified module" +
            (" (strace timestamps: no start-up, no printing)" if STRACE else
             " (process wall - empty-module start-up - printing)") +
            "; mav load + start-up = process wall - printing.")
        out("")
        out("### Where the time goes (medians, seconds)")
        out("")
        out("| workload | fx ShapeProp | fx metadata | fx count | fx remove | mav Parser | "
            "InitMetadata | AddCommonMetadata | CountDropout | RemoveDropout | CountDropout | Output |")
        out("| --- " * 12 + "|")
        for row in d["side_by_side"]:
            r, p = row["ref"]["median"], row["mav"]["pipeline"]
            cells = [phase(p, "Parser"), phase(p, "InitMetadata"), phase(p, "AddCommonMetadata"),
                     phase(p, "CountDropout"), phase(p, "RemoveDropout"),
                     phase(p, "CountDropout", 1), phase(p, "Output")]
            out(f"| {row['label']} | {r['shape_prop']:.4f} | {r['metadata']:.4f} | "
                f"{r['count']:.4f} | {r['remove']:.4f} | " +
                " | ".join(f"{c or 0:.4f}" for c in cells) + " |")
        out("")
        out("### Peak RSS, side by side")
        out("")
        out("| workload | fx process (Python, torch, model, graph) | mav pipeline process |")
        out("| --- | --- | --- |")
        for row in d["side_by_side"]:
            out(f"| {row['label']} | {row['ref']['peak_rss_kib'] / KIB:.0f} MiB | "
                f"{row['mav']['pipeline']['rss_kib'] / KIB:.0f} MiB |")
        out("")
        if d.get("removal"):
            out("### -mav-remove-dropout on module-style graphs (as imported: one private body "
                "per leaf module call)")
            out("")
            out("| blocks | mav nodes | CountDropout | RemoveDropout | RemoveDropout us/node |")
            out("| --- | --- | --- | --- | --- |")
            for row in d["removal"]:
                out(f"| {row['blocks']} | {row['nodes']} | {fmt_s(row['count'])} | "
                    f"{fmt_s(row['remove'])} | {row['remove'] / row['nodes'] * 1e6:.2f} |")
            a, b = d["removal"][0], d["removal"][-1]
            growth = (b["remove"] / a["remove"]) / (b["blocks"] / a["blocks"])
            out("")
            out(f"RemoveDropout time per node grows {growth:.1f}x from {a['blocks']} to "
                f"{b['blocks']} blocks" + (" (linear would be 1x: superlinear)." if growth > 1.3
                                           else " (about linear)."))
            out("")

    def report_scaling(self, out):
        d = self.data
        if not d["scaling"]:
            return
        out("### Scaling of mav (synthetic model, function style; per node = per mav node)")
        out("")
        names = ["Parser", "InitMetadata", "AddCommonMetadata", "CountDropout",
                 "RemoveDropout", "Output"]
        out("| mav nodes | IR text | pipeline | us/node | marginal us/node | " +
            " | ".join(f"{n} us/node" for n in names) +
            " | peak RSS | KiB/node | parse+print RSS | KiB/node | after parsing KiB/node |")
        out("| --- " * (10 + len(names)) + "|")
        prev = None
        for row in d["scaling"]:
            p, q, n = row["pipeline"], row["parse_print"], row["nodes"]
            total = phase(p, "Total")
            row["total"] = total
            row["us_per_node"] = total / n * 1e6
            row["marginal_us_per_node"] = ((total - prev["total"]) / (n - prev["nodes"]) * 1e6
                                           if prev else None)
            row["kib_per_node"] = (p["rss_kib"] - self.baseline_rss) / n
            row["parse_kib_per_node"] = (q["rss_kib"] - self.baseline_rss_parse) / n
            row["pass_us_per_node"] = {k: (phase(p, k) or 0) / n * 1e6 for k in names}
            marginal = row["marginal_us_per_node"]
            out(f"| {n} | {row['ir_bytes'] / 2**20:.1f} MiB | {fmt_s(total)} | "
                f"{row['us_per_node']:.1f} | {'-' if marginal is None else f'{marginal:.1f}'} | " +
                " | ".join(f"{row['pass_us_per_node'][k]:.2f}" for k in names) +
                f" | {p['rss_kib'] / KIB:.0f} MiB | {row['kib_per_node']:.2f} | "
                f"{q['rss_kib'] / KIB:.0f} MiB | {row['parse_kib_per_node']:.2f} | "
                f"{row['parsed']['kib_per_node'] if row.get('parsed') else '-'} |")
            prev = row
        out("")
        small, large = d["scaling"][0], d["scaling"][-1]
        out(f"Time per node, {large['nodes']} / {small['nodes']} nodes: "
            f"{large['us_per_node'] / small['us_per_node']:.2f}x overall; per pass: " +
            ", ".join(self.per_pass_growth(d["scaling"], k) for k in names) +
            ". A pass is compared from the smallest size at which it takes at least 1 ms "
            "(--mlir-timing has 0.1 ms resolution). Marginal = (time difference) / (node difference) "
            "from the previous size: the per-node cost without fixed costs.")
        out(f"KiB/node = (peak RSS - the same pipeline's peak on a 1-block graph, "
            f"{self.baseline_rss / KIB:.0f} MiB) / nodes; parse+print = `mav-opt IN -o /dev/null`, "
            f"baseline an empty module ({self.baseline_rss_parse / KIB:.0f} MiB). After parsing = "
            f"`mav-parse-memory IN`: resident memory after parsing minus before, the file's pages "
            f"included. Weights are splats: no weight data.")
        out("")

    def report_startup(self, out):
        s = self.data["startup"]
        out("### Start-up (process wall time and peak RSS, tiny graph)")
        out("")
        out("| command | wall | peak RSS |")
        out("| --- | --- | --- |")
        rows = [("mav-opt --version", "mav_version"),
                ("mav-opt on an empty module", "mav_empty"),
                ("mav-opt 1 block -mav-count-dropout -mav-remove-dropout (no tensor execution)",
                 "no_tensor"),
                ("mav-opt 1 block, init + common metadata + count + remove + count "
                 "(shape propagation)", "with_shapes"),
                ("mlir-opt (LLVM 19) --version", "mlir_opt_version"),
                ("mlir-opt (LLVM 19) on an empty module", "mlir_opt_empty"),
                ("dlopen(libtorch_cpu.so.1.13) alone, in a bare Python process",
                 "dlopen_libtorch")]
        for label, key in rows:
            if key in s:
                out(f"| {label} | {s[key]['wall'] * 1e3:.0f} ms | "
                    f"{s[key]['rss_kib'] / KIB:.0f} MiB |")
        out("")
        linked = subprocess.run(["ldd", self.opt], capture_output=True, text=True).stdout
        if "libtorch" in linked:
            out("mav-opt links libtorch (libtorch_cpu, libtorch, libc10): every run pays loading "
                "it, whether or not a pass executes tensors.")
        else:
            out("mav-opt does not link libtorch: it is loaded on demand (by the passes that "
                "execute tensors, and by whatever else asks for it), so the shape-propagation "
                "row includes loading it.")
        out("The dlopen row is that cost alone (RSS: added by the load).")
        out("")

    def targets(self, out):
        d = self.data
        out("### Targets")
        out("")
        out("| target | measured | status |")
        out("| --- | --- | --- |")

        def status(ok):
            return "MET" if ok else "MISSED"
        for row in d["side_by_side"]:
            if "3e4" not in row["label"]:
                continue
            x = row["ratios"]
            out(f"| pipeline >= 20x faster, {row['label']} | {fmt_ratio(x['pipeline'])} "
                f"(process: {fmt_ratio(x['pipeline_process'])}; vs fx + metadata: "
                f"{fmt_ratio(x['pipeline_meta'])}) | "
                f"{status(x['pipeline'][0] >= TARGETS['pipeline'])} |")
            out(f"| issue 13: passes in-process >= 20x faster (pass rows only, no parser or "
                f"output), {row['label']} | {fmt_ratio(x['passes'])} "
                f"(mav passes {fmt_s(row['mav_times']['passes'])}) | "
                f"{status(x['passes'][0] >= TARGETS['pipeline'])} |")
            for k in ("count", "remove"):
                out(f"| {k} >= 100x faster, {row['label']} | {fmt_ratio(x[k])} | "
                    f"{status(x[k][0] >= TARGETS[k])} |")
        loads = [(row["label"], row["ratios"]["load"]) for row in d["side_by_side"]
                 if row["ratios"]["load"][0] is not None]
        met = [l for l, r in loads if r[0] >= TARGETS["load"]]
        worst = min(loads, key=lambda lr: lr[1][0])
        best = max(loads, key=lambda lr: lr[1][0])
        out(f"| checkpoint load >= 10x faster | {len(met)} of {len(loads)} workloads; from "
            f"{fmt_ratio(worst[1])} ({worst[0]}) to {fmt_ratio(best[1])} ({best[0]}) | "
            f"{status(len(met) == len(loads))} |")
        if d["scaling"]:
            per = [r["us_per_node"] for r in d["scaling"]]
            spread = max(per) / min(per)
            marg = [r["marginal_us_per_node"] for r in d["scaling"] if r["marginal_us_per_node"]]
            marginal = (f"; marginal {min(marg):.1f} to {max(marg):.1f} us/node "
                        f"({max(marg) / min(marg):.2f}x)" if len(marg) > 1 else "")
            out(f"| time per node within 2x, {d['scaling'][0]['nodes']} to "
                f"{d['scaling'][-1]['nodes']} nodes | {min(per):.1f} to {max(per):.1f} us/node "
                f"({spread:.2f}x){marginal} | {status(spread <= TARGETS['flat'])} |")
            big = [r for r in d["scaling"] if r["nodes"] >= 10000] or d["scaling"]
            worst = max(r["kib_per_node"] for r in big)
            out(f"| peak memory <= 1.5 KiB/node (at >= 10^4 nodes) | up to {worst:.2f} KiB/node | "
                f"{status(worst <= TARGETS['kib_per_node'])} |")
            parsed = [r["parsed"]["kib_per_node"] for r in big if r.get("parsed")]
            if parsed:
                out(f"| memory after parsing <= 1 KiB/node (at >= 10^4 nodes) | up to "
                    f"{max(parsed):.2f} KiB/node | "
                    f"{status(max(parsed) <= TARGETS['parsed_kib_per_node'])} |")
        s = d["startup"]
        if "mlir_opt_empty" in s:
            extra = s["no_tensor"]["wall"] - s["mlir_opt_empty"]["wall"]
            out(f"| start-up: a pipeline without tensor execution does not load libtorch | "
                f"{s['no_tensor']['wall'] * 1e3:.0f} ms / {s['no_tensor']['rss_kib'] / KIB:.0f} MiB "
                f"vs mlir-opt {s['mlir_opt_empty']['wall'] * 1e3:.0f} ms / "
                f"{s['mlir_opt_empty']['rss_kib'] / KIB:.0f} MiB ({extra * 1e3:+.0f} ms) | "
                f"{status(extra < 0.05)} |")
        out("")


def machine():
    import platform
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    osname = platform.platform()
    try:
        osname = [l.split("=", 1)[1].strip().strip('"') for l in open("/etc/os-release")
                  if l.startswith("PRETTY_NAME")][0]
    except (OSError, IndexError):
        pass
    torch = subprocess.run([PY, "-c", "import torch; print(torch.__version__)"],
                           capture_output=True, text=True).stdout.strip()
    head = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h (committed %cd)",
                           "--date=format:%Y-%m-%d %H:%M"],
                          capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no",
                            "--", ".", ":!bench"], capture_output=True, text=True).stdout.strip()
    return {"cpus": os.cpu_count(), "cpu": cpu, "mem_gib": mem, "os": osname, "torch": torch,
            "date": time.strftime("%Y-%m-%d %H:%M"), "load": os.getloadavg()[0],
            "commit": head + (" + uncommitted changes" if dirty else "")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="1 run, scaling to 10^5, reference to 3x10^4, two real models")
    parser.add_argument("--full", action="store_true",
                        help="also the torch.fx reference at 10^6 nodes (no checkpoints; torch.fx's "
                        "quadratic name uniquing makes its tracing alone take over half an hour)")
    parser.add_argument("--runs", type=int, default=None, help="runs per measure (default 3)")
    parser.add_argument("--big-runs", type=int, default=1, help="runs at 10^6 nodes")
    parser.add_argument("--width", type=int, default=16, help="Linear width of the synthetic model")
    parser.add_argument("--models", nargs="*", default=None, help="real models (test/models)")
    parser.add_argument("--sizes", type=int, nargs="*", default=None,
                        help="mav node counts of the scaling series")
    parser.add_argument("--module-blocks", type=int, default=None,
                        help="blocks of the module-style side-by-side row (default 7500)")
    parser.add_argument("--removal-blocks", type=int, nargs="*", default=None,
                        help="module-style sizes for -mav-remove-dropout's growth (default 1000 2000 4000 8000)")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "mav-bench"),
                        help="cache of generated models and IR (kept between runs)")
    parser.add_argument("--markdown", help="also write the report to this file")
    parser.add_argument("--json", help="write the raw measurements to this file")
    args = parser.parse_args()
    if args.runs is None:
        args.runs = 1 if args.quick else 3
    if args.sizes is None:
        args.sizes = [1000, 10000, 100000] + ([] if args.quick else [1000000])
    if args.models is None:
        args.models = ["alexnet", "resnet18"] if args.quick else REAL_MODELS
    if args.module_blocks is None:
        args.module_blocks = 7500
    if args.removal_blocks is None:
        args.removal_blocks = [1000, 4000] if args.quick else [1000, 2000, 4000, 8000]
    ref_limit = 1e9 if args.full else (30000 if args.quick else 200000)

    bench = Bench(args)
    log("run.py: start-up")
    bench.startup()

    # Side by side: the synthetic model at the scaling sizes the reference
    # can do and at 3x10^4 fx nodes (7500 blocks: 4 * 7500 + 2 = 30,002),
    # function style; the module style (what the importer makes) at a size
    # its quadratic body clean-up in -mav-remove-dropout can afford.
    refs = {}
    for nodes in sorted(set(args.sizes)):
        blocks = synthetic.blocks_for_nodes(nodes, "function")
        n = synthetic.node_count(blocks, "function")
        if n > ref_limit:
            continue
        big = n > 200000   # no checkpoints: the fx load alone would take hours
        runs = args.big_runs if big else args.runs
        row = bench.side_by_side(f"synthetic {blocks} blocks (function)",
                                 bench.synthetic_ir(blocks, "function"),
                                 ["--synthetic", str(blocks)], n, runs=runs,
                                 checkpoint=not big)
        refs[blocks] = row["ref"]
    blocks = 7500
    row = bench.side_by_side("synthetic 3e4 fx nodes, 7500 blocks (function)",
                             bench.synthetic_ir(blocks, "function"), ["--synthetic", str(blocks)],
                             synthetic.node_count(blocks, "function"))
    refs[blocks] = row["ref"]
    blocks = args.module_blocks
    label = "3e4 fx nodes, " if blocks == 7500 else ""
    bench.side_by_side(f"synthetic {label}{blocks} blocks (module, as imported)",
                       bench.synthetic_ir(blocks, "module"), ["--synthetic", str(blocks)],
                       synthetic.node_count(blocks, "module"), reference=refs.get(blocks))
    for name in args.models:
        log(f"run.py: {name}: TorchScript import")
        ir, info = bench.real_model_ir(name)
        nodes = bench.count_nodes(ir)
        bench.side_by_side(name, ir, ["--model", name], nodes, bytecode=True)

    bench.module_removal(args.removal_blocks)
    bench.scaling(args.sizes)
    text = bench.report()
    print(text)
    if args.markdown:
        open(args.markdown, "w").write(text + "\n")
    if args.json:
        json.dump(bench.data, open(args.json, "w"), indent=1, default=str)


if __name__ == "__main__":
    main()
