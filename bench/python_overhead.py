#!/usr/bin/python3
"""What mav's Python API costs against the path without it.

(a) Tracing. `mav.trace(model, x)` (torch.jit.trace, then mav's importer
    in this process, through memory) against what a user does without the
    package: torch.jit.trace with the same arguments mav.trace uses
    (check_trace=False, under torch.no_grad), torch.jit.save to a file, and
    the CLI import as a subprocess,
        mav-translate --import-torchscript FILE.pt --input-shape=1x3x224x224xf32 -o OUT.mlir
    on torchvision's resnet50 (eval, random weights, input 1x3x224x224).
    One warm-up of each side, then --runs repetitions, the two sides
    alternating; medians. Target: mav.trace costs no more than the three
    steps together (ratio >= 1x). mav.trace's own steps are timed by
    wrapping torch.jit.trace and torch.jit.save while it runs; the rest is
    its import.

(b) Reading metadata. A chain of nn.Linear(W, W) + nn.ReLU (W = --width,
    default 4) with --nodes graph nodes (2 per layer, plus the placeholder
    and the output: the same count in mav's public graph and in torch.fx's),
    traced with mav.trace and raised (`g.run("mav-raise")`), then read
    from Python:
        for n in g.nodes:
            n.name, n.op, n.target, n.scope, n.mase_op, n.common, n.hardware, n.software
    each time from a fresh change (a write of one node's software metadata
    before each read, untimed), so that the read includes the JSON export
    the package makes when the graph changed. Target: under 1 s at 30,000
    nodes. The reference: torch.fx's symbolic_trace of the same model, its
    node.meta["mase"] filled as MASE's add_common_metadata leaves it
    (ShapeProp + fx_reference.mase_metadata, untimed for the read), read by
    the same loop over node.name, op, target, meta["nn_module_stack"] (the
    scope), and meta["mase"]'s mase_op, common, hardware and software.
    Also timed: the fresh read's steps apart (the export, json.loads, the
    Node objects, the property reads) and, as a diagnostic, the fresh read
    with Python's cyclic GC off.

Prints the tables and ratios (reference / mav: above 1x, mav is faster).

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py \
        [--quick] [--runs N] [--nodes N] [--model resnet50] [--build DIR] \
        [--json FILE] [--profile] [--graph-cache DIR]

--quick: resnet18, 3,000 nodes, 3 runs. --only trace|read: one part.
--profile: cProfile of one fresh read (the 15 largest cumulative entries).
--graph-cache DIR: (b)'s raised graph is saved there as a checkpoint and
loaded on later runs; mav.trace of 30,000 nodes takes about 8 minutes
(torch.jit.save is quadratic in the number of modules), so reruns of the
read want it. Without PYTHONPATH the package is taken from BUILD/python.
"""

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

import torch  # noqa: E402
import torch.fx as fx  # noqa: E402
import torch.nn as nn  # noqa: E402


def log(*args):
    print("python_overhead:", *args, file=sys.stderr, flush=True)


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def fmt_s(seconds):
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    return f"{seconds * 1e3:.1f} ms"


def fmt_ratio(ratio):
    return f"{ratio:.2f}x" if ratio < 10 else f"{ratio:.1f}x"


def machine():
    import platform
    cpu = "?"
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    osname = platform.platform()
    try:
        osname = [line.split("=", 1)[1].strip().strip('"')
                  for line in open("/etc/os-release")
                  if line.startswith("PRETTY_NAME")][0]
    except (OSError, IndexError):
        pass
    head = subprocess.run(["git", "-C", ROOT, "log", "-1",
                           "--format=%h (committed %cd)",
                           "--date=format:%Y-%m-%d %H:%M"],
                          capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain",
                            "--untracked-files=no", "--", ".", ":!bench"],
                           capture_output=True, text=True).stdout.strip()
    return {"cpus": os.cpu_count(), "cpu": cpu, "mem_gib": round(mem, 1),
            "os": osname, "python": platform.python_version(),
            "torch": torch.__version__, "torch_threads": torch.get_num_threads(),
            "date": time.strftime("%Y-%m-%d %H:%M"),
            "load_start": os.getloadavg()[0],
            "commit": head + (" + uncommitted changes" if dirty else "")}


# --------------------------------------------------------------------------
# (a) mav.trace against torch.jit.trace + torch.jit.save + the CLI import
# --------------------------------------------------------------------------

def cli_side(model, inputs, work, translate, shape):
    """torch.jit.trace as mav.trace calls it, torch.jit.save to a file, the
    CLI import as a process: the seconds of each step."""
    pt = os.path.join(work, "model.pt")
    out = os.path.join(work, "model.mlir")
    for stale in (pt, out, out + ".weights"):
        if os.path.exists(stale):
            os.remove(stale)
    gc.collect()
    start = time.perf_counter()
    with torch.no_grad():
        traced = torch.jit.trace(model, inputs, check_trace=False)
    t_trace = time.perf_counter()
    torch.jit.save(traced, pt)
    t_save = time.perf_counter()
    subprocess.run([translate, "--import-torchscript", pt,
                    f"--input-shape={shape}", "-o", out], check=True)
    t_cli = time.perf_counter()
    return {"trace": t_trace - start, "save": t_save - t_trace,
            "cli": t_cli - t_save, "total": t_cli - start}


class Split:
    """Times the steps of mav.trace itself: torch.jit.trace and
    torch.jit.save, which mav.trace calls through the torch module, are
    wrapped while it runs; the rest is mav's import (Session.import_torchscript
    and the Graph)."""

    def __enter__(self):
        self.seconds = {"trace": 0.0, "save_memory": 0.0}
        self.saved = torch.jit.trace, torch.jit.save

        def wrap(key, function):
            def timed_call(*args, **kwargs):
                start = time.perf_counter()
                try:
                    return function(*args, **kwargs)
                finally:
                    self.seconds[key] += time.perf_counter() - start
            return timed_call
        torch.jit.trace = wrap("trace", self.saved[0])
        torch.jit.save = wrap("save_memory", self.saved[1])
        return self

    def __exit__(self, *exc):
        torch.jit.trace, torch.jit.save = self.saved


def mav_side(mav, model, inputs):
    """mav.trace, and its steps."""
    gc.collect()
    with Split() as split:
        start = time.perf_counter()
        graph = mav.trace(model, inputs)
        total = time.perf_counter() - start
    steps = dict(split.seconds, total=total)
    steps["import"] = total - steps["trace"] - steps["save_memory"]
    return steps, graph


def bench_trace(mav, args, translate, work):
    import torchvision
    torch.manual_seed(0)
    model = getattr(torchvision.models, args.model)().eval()
    inputs = (torch.randn(1, 3, 224, 224),)
    from mav.tracing import input_shape
    shape = input_shape(inputs[0])
    log(f"(a) {args.model}: warm-up")
    cli_side(model, inputs, work, translate, shape)
    _, graph = mav_side(mav, model, inputs)
    mav_nodes = len(graph.nodes)
    cli_nodes = len(mav.load(os.path.join(work, "model.mlir")).nodes)
    del graph
    samples = {"trace": [], "save": [], "cli": [], "total": []}
    mav_samples = {"trace": [], "save_memory": [], "import": [], "total": []}
    for run in range(args.runs):
        log(f"(a) run {run + 1}/{args.runs}")
        # The two sides alternate which goes first.
        order = ("mav", "cli") if run % 2 == 0 else ("cli", "mav")
        for side in order:
            if side == "mav":
                steps, graph = mav_side(mav, model, inputs)
                del graph
                for key, value in steps.items():
                    mav_samples[key].append(value)
            else:
                steps = cli_side(model, inputs, work, translate, shape)
                for key, value in steps.items():
                    samples[key].append(value)
    med = {k: statistics.median(v) for k, v in samples.items()}
    mav_med = {k: statistics.median(v) for k, v in mav_samples.items()}
    return {"model": args.model, "input_shape": shape, "runs": args.runs,
            "mav_nodes": mav_nodes, "cli_nodes": cli_nodes,
            "pt_bytes": os.path.getsize(os.path.join(work, "model.pt")),
            "cli_median": med, "cli_samples": samples,
            "mav_median": mav_med, "mav_samples": mav_samples,
            "ratio": med["total"] / mav_med["total"]}


# --------------------------------------------------------------------------
# (b) reading every node's metadata
# --------------------------------------------------------------------------

def chain(layers, width):
    blocks = []
    for _ in range(layers):
        blocks += [nn.Linear(width, width), nn.ReLU()]
    return nn.Sequential(*blocks).eval()


def read_mav(graph):
    for n in graph.nodes:
        n.name, n.op, n.target, n.scope, n.mase_op, n.common, n.hardware, \
            n.software


def read_fx(gm):
    for n in gm.graph.nodes:
        mase = n.meta.get("mase", {})
        common = mase.get("common", {})
        n.name, n.op, n.target, n.meta.get("nn_module_stack"), \
            common.get("mase_op"), common, mase.get("hardware"), \
            mase.get("software")


def touch(graph, run):
    """A change to the graph (untimed): one node's software metadata."""
    graph.nodes[1].software["bench_run"] = run


def bench_read(mav, args):
    sys.path.insert(0, HERE)
    import fx_reference
    layers = (args.nodes - 2) // 2
    torch.manual_seed(0)
    model = chain(layers, args.width)
    x = torch.randn(1, args.width)
    result = {"layers": layers, "width": args.width, "runs": args.runs}

    cache = None
    if args.graph_cache:
        os.makedirs(args.graph_cache, exist_ok=True)
        cache = os.path.join(args.graph_cache,
                             f"chain-{layers}x{args.width}.ckpt")
    if cache and os.path.exists(cache):
        log(f"(b) the raised graph from {cache}")
        result["cached_from"] = cache
        result["mav_load_s"], graph = timed(lambda: mav.load(cache))
    else:
        log(f"(b) mav.trace of {layers} x (Linear({args.width}, "
            f"{args.width}), ReLU)")
        gc.collect()
        result["mav_trace"], graph = mav_side(mav, model, x)
        log("(b) mav-raise")
        result["mav_raise_s"], _ = timed(lambda: graph.run("mav-raise"))
        if cache:
            graph.save(cache)
    # The first read after the raise (or the load) is a fresh one.
    fresh = []
    t, _ = timed(lambda: read_mav(graph))
    fresh.append(t)
    result["mav_nodes"] = len(graph.nodes)
    result["json_bytes"] = len(graph._session.export_json(True))
    for run in range(args.runs - 1):
        touch(graph, run)
        gc.collect()
        t, _ = timed(lambda: read_mav(graph))
        fresh.append(t)
    cached = []
    for _ in range(args.runs):
        t, _ = timed(lambda: read_mav(graph))
        cached.append(t)
    result["mav_read_fresh"] = fresh
    result["mav_read_cached"] = cached

    # Where the fresh read's time goes (the package's internals, step by
    # step: the export, json.loads, the Node objects, the property reads).
    steps = {"export_json": [], "json_loads": [], "node_objects": [],
             "property_reads": []}
    for run in range(args.runs):
        touch(graph, 1000 + run)
        gc.collect()
        # As Graph.nodes does it: the graphs alone, the collector paused.
        paused = sys.modules[type(graph).__module__]._collector_paused
        t0 = time.perf_counter()
        text = graph._session.export_json(True)
        t1 = time.perf_counter()
        with paused():
            graph._graphs = json.loads(text)["graphs"]
        t2 = time.perf_counter()
        graph.nodes
        t3 = time.perf_counter()
        read_mav(graph)
        t4 = time.perf_counter()
        steps["export_json"].append(t1 - t0)
        steps["json_loads"].append(t2 - t1)
        steps["node_objects"].append(t3 - t2)
        steps["property_reads"].append(t4 - t3)
        del text
    result["mav_steps"] = steps

    # Diagnostic: the same fresh read with Python's cyclic GC off, which
    # json.loads' million containers otherwise trigger again and again.
    no_gc = []
    for run in range(args.runs):
        touch(graph, 3000 + run)
        gc.collect()
        gc.disable()
        try:
            t, _ = timed(lambda: read_mav(graph))
        finally:
            gc.enable()
        no_gc.append(t)
    result["mav_read_fresh_no_gc"] = no_gc

    if args.profile:
        import cProfile
        import io
        import pstats
        touch(graph, 2000)
        gc.collect()
        profile = cProfile.Profile()
        profile.enable()
        read_mav(graph)
        profile.disable()
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(15)
        result["profile"] = out.getvalue()
    del graph
    gc.collect()

    log("(b) torch.fx: symbolic_trace, ShapeProp, MASE-style metadata")
    from torch.fx.passes.shape_prop import ShapeProp
    result["fx_trace_s"], gm = timed(lambda: fx.symbolic_trace(model))
    result["fx_nodes"] = len(gm.graph.nodes)
    result["fx_shape_prop_s"], _ = timed(lambda: ShapeProp(gm).propagate(x))

    def fill():
        meta = fx_reference.mase_metadata(gm)
        for node in gm.graph.nodes:
            node.meta["mase"] = meta[node.name]
    result["fx_metadata_s"], _ = timed(fill)
    result["fx_has_module_stack"] = any(
        "nn_module_stack" in n.meta for n in gm.graph.nodes)
    reads = []
    for _ in range(args.runs):
        gc.collect()
        t, _ = timed(lambda: read_fx(gm))
        reads.append(t)
    result["fx_read"] = reads
    med = statistics.median
    result["median"] = {
        "mav_read_fresh": med(fresh), "mav_read_cached": med(cached),
        "fx_read": med(reads),
        "mav_read_fresh_no_gc": med(no_gc),
        **{k: med(v) for k, v in steps.items()}}
    result["ratio_fresh"] = med(reads) / med(fresh)
    result["ratio_cached"] = med(reads) / med(cached)
    return result


# --------------------------------------------------------------------------

def report(facts, a, b, args, out=print):
    out(f"Machine: {facts['cpus']} cores ({facts['cpu']}), "
        f"{facts['mem_gib']} GiB, {facts['os']}; Python {facts['python']}, "
        f"torch {facts['torch']} ({facts['torch_threads']} threads); "
        f"repository at {facts['commit']}; mav._core ({facts['mav']}) built "
        f"{facts['mav_core_built']}, mav-translate built "
        f"{facts['mav_translate_built']}; {facts['date']}; load average "
        f"{facts['load_start']:.2f} at start, {facts['load_end']:.2f} at end.")
    out("")
    if a:
        c, m = a["cli_median"], a["mav_median"]
        out(f"(a) {a['model']}, input {a['input_shape']}: medians of "
            f"{a['runs']} runs after one warm-up; {a['mav_nodes']} nodes "
            f"(the CLI's: {a['cli_nodes']}), TorchScript file "
            f"{a['pt_bytes'] / 2**20:.1f} MiB")
        out("")
        out("| step | trace + save + CLI | mav.trace |")
        out("| --- | ---: | ---: |")
        out(f"| torch.jit.trace (check_trace=False, no_grad) | "
            f"{fmt_s(c['trace'])} | {fmt_s(m['trace'])} |")
        out(f"| torch.jit.save | {fmt_s(c['save'])} (file) | "
            f"{fmt_s(m['save_memory'])} (temporary file) |")
        out(f"| import | {fmt_s(c['cli'])} (`mav-translate "
            f"--import-torchscript`, process) | {fmt_s(m['import'])} "
            "(`Session.import_torchscript`, in-process) |")
        out(f"| **total** | **{fmt_s(c['total'])}** | **{fmt_s(m['total'])}** |")
        met = "MET" if a["ratio"] >= 1 else "MISSED"
        out("")
        out(f"ratio (trace + save + CLI) / mav.trace: {fmt_ratio(a['ratio'])} "
            f"(target >= 1x): {met}")
        out("")
    if b:
        m = b["median"]
        out(f"(b) {b['layers']} x (Linear({b['width']}, {b['width']}), ReLU): "
            f"{b['mav_nodes']} mav nodes, {b['fx_nodes']} fx nodes; "
            f"JSON export {b['json_bytes'] / 2**20:.1f} MiB; read medians of "
            f"{b['runs']} runs")
        out("")
        out("| step | mav | torch.fx |")
        out("| --- | ---: | ---: |")
        if "cached_from" in b:
            out(f"| trace + raise | not measured: the raised graph loaded from "
                f"`{b['cached_from']}` in {fmt_s(b['mav_load_s'])} | "
                f"{fmt_s(b['fx_trace_s'])} (symbolic_trace) |")
        else:
            t = b["mav_trace"]
            out(f"| trace | {fmt_s(t['total'])} (mav.trace: torch.jit.trace "
                f"{fmt_s(t['trace'])}, torch.jit.save "
                f"{fmt_s(t['save_memory'])}, import {fmt_s(t['import'])}) | "
                f"{fmt_s(b['fx_trace_s'])} (symbolic_trace) |")
        raise_s = b.get("mav_raise_s")
        out(f"| metadata | {fmt_s(raise_s)} (mav-raise) | "
            f"{fmt_s(b['fx_shape_prop_s'] + b['fx_metadata_s'])} (ShapeProp "
            f"{fmt_s(b['fx_shape_prop_s'])} + MASE-style dicts "
            f"{fmt_s(b['fx_metadata_s'])}) |")
        out(f"| **read, first after a change** | **{fmt_s(m['mav_read_fresh'])}** "
            f"| {fmt_s(m['fx_read'])} |")
        out(f"| read again (nothing changed) | {fmt_s(m['mav_read_cached'])} | "
            f"{fmt_s(m['fx_read'])} |")
        out(f"| fresh read, step 1: `export_json` (C++) | {fmt_s(m['export_json'])} | |")
        out(f"| step 2: `json.loads` | {fmt_s(m['json_loads'])} | |")
        out(f"| step 3: Node objects | {fmt_s(m['node_objects'])} | |")
        out(f"| step 4: the property reads | {fmt_s(m['property_reads'])} | |")
        out(f"| fresh read with the cyclic GC off (diagnostic) | "
            f"{fmt_s(m['mav_read_fresh_no_gc'])} | |")
        out("")
        met = "MET" if m["mav_read_fresh"] < 1 else "MISSED"
        out(f"fresh read {fmt_s(m['mav_read_fresh'])} (target < 1 s at 30,000 "
            f"nodes): {met}")
        out(f"ratio torch.fx read / mav read: fresh {fmt_ratio(b['ratio_fresh'])}, "
            f"cached {fmt_ratio(b['ratio_cached'])}")
        if "profile" in b:
            out("")
            out("cProfile of one fresh read:")
            out(b["profile"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="resnet18, 3,000 nodes, 3 runs")
    parser.add_argument("--runs", type=int, default=None,
                        help="repetitions per measure (default 5; --quick 3)")
    parser.add_argument("--model", default=None,
                        help="torchvision model of (a) (default resnet50)")
    parser.add_argument("--nodes", type=int, default=None,
                        help="graph nodes of (b) (default 30000; --quick 3000)")
    parser.add_argument("--width", type=int, default=4,
                        help="Linear width of (b)'s chain")
    parser.add_argument("--only", choices=("trace", "read"),
                        help="run only (a) or (b)")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--work", default=None,
                        help="directory for (a)'s files (default: a temporary one)")
    parser.add_argument("--graph-cache", metavar="DIR",
                        help="keep (b)'s raised graph as a checkpoint in DIR and "
                        "load it on later runs (skips the trace and raise)")
    parser.add_argument("--profile", action="store_true",
                        help="cProfile one fresh read of (b)")
    parser.add_argument("--json", help="write every measurement to this file")
    args = parser.parse_args()
    if args.runs is None:
        args.runs = 3 if args.quick else 5
    if args.model is None:
        args.model = "resnet18" if args.quick else "resnet50"
    if args.nodes is None:
        args.nodes = 3000 if args.quick else 30000
    try:
        import mav
    except ImportError:
        sys.path.insert(0, os.path.join(args.build, "python"))
        import mav
    translate = os.path.join(args.build, "bin", "mav-translate")

    facts = machine()
    facts["mav"] = os.path.dirname(mav.__file__)
    facts["mav_core_built"] = time.strftime(
        "%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(mav._core.__file__)))
    facts["mav_translate_built"] = time.strftime(
        "%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(translate)))
    a = b = None
    with tempfile.TemporaryDirectory(dir=args.work) as work:
        if args.only in (None, "trace"):
            a = bench_trace(mav, args, translate, work)
    if args.only in (None, "read"):
        b = bench_read(mav, args)
    facts["load_end"] = os.getloadavg()[0]
    report(facts, a, b, args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": facts, "args": vars(args), "trace": a,
                       "read": b}, f, indent=1)


if __name__ == "__main__":
    main()
