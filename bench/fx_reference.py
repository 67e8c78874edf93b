#!/usr/bin/python3
"""The torch.fx reference of issue 7: the MASE tutorial's work, in Python.

For one model, several times (the median is reported):

1. symbolic_trace            (not timed: MASE has already done it)
2. ShapeProp(gm).propagate(dummy input)            -> "shape_prop"
3. count_dropout_analysis_pass                      -> "count"
4. remove_dropout_transform_pass                    -> "remove"
5. count_dropout_analysis_pass again (finds 0)      -> "count_again"

"pipeline" is 2 + 3 + 4 + 5. Also timed, outside the pipeline: building
MASE-style metadata dicts from ShapeProp's results ("metadata"), the part
of MASE's add_common_metadata that ShapeProp does not do.

The two dropout passes are the tutorial's functions
(../shared/seeds/mase-tutorial-1-ir-and-passes.txt) with one change: a node
is a dropout when its module is an nn.Dropout (`isinstance`), not when
"dropout" is in its name. The module table is built once per pass
(`dict(gm.named_modules())`, what MaseGraph.modules returns), so the passes
stay linear; MASE's own passes re-read `mg.modules` per node, which is what
makes them quadratic.

Then the checkpoint, once per run: MASE-style metadata is built from
ShapeProp's results (not timed; a dict per node as MASE's
add_common_metadata leaves in node.meta["mase"]), and MaseGraph.export /
from_checkpoint are timed as MASE writes them:
  save: torch.save(GraphModule) + pickle of {node name: pickle.dumps(meta)}
  load: torch.load + pickle.load + per-node pickle.loads + node.meta["mase"] =
MASE uses dill, which is not installed here; pickle is dill's (faster)
subset, so the reference is, if anything, flattered.

Usage (run.py calls it; one model per process so that peak RSS is its own):
    bench/fx_reference.py --synthetic BLOCKS [--width 16] [--runs 3] [--checkpoint DIR]
    bench/fx_reference.py --model alexnet [--runs 3] [--checkpoint DIR]
    bench/fx_reference.py --saved GM.pt --inputs INPUTS.pt [--runs 3]
Prints one JSON object on stdout.
"""

import argparse
import gc
import json
import os
import pickle
import resource
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

import torch  # noqa: E402
import torch.fx as fx  # noqa: E402
import torch.nn as nn  # noqa: E402
from torch.fx.passes.shape_prop import ShapeProp  # noqa: E402

torch.set_num_threads(1)


# --------------------------------------------------------------------------
# The tutorial's passes, by module class.
# --------------------------------------------------------------------------

def count_dropout_analysis_pass(gm, pass_args={}):
    modules = dict(gm.named_modules())
    dropout_modules = 0
    dropout_functions = 0
    for node in gm.graph.nodes:
        if node.op == "call_module" and isinstance(modules[node.target], nn.Dropout):
            dropout_modules += 1
    return gm, {"dropout_count": dropout_modules + dropout_functions}


def remove_dropout_transform_pass(gm, pass_args={}):
    modules = dict(gm.named_modules())
    for node in gm.graph.nodes:
        if node.op == "call_module" and isinstance(modules[node.target], nn.Dropout):
            parent_node = node.args[0]
            node.replace_all_uses_with(parent_node)
            gm.graph.erase_node(node)
    return gm, {}


# --------------------------------------------------------------------------
# MASE-style metadata (what add_common_metadata leaves in node.meta["mase"]).
# --------------------------------------------------------------------------

def _tensor_entry(tm):
    return {"type": "float" if tm.dtype.is_floating_point else "integer",
            "precision": [torch.finfo(tm.dtype).bits if tm.dtype.is_floating_point
                          else torch.iinfo(tm.dtype).bits],
            "shape": list(tm.shape), "torch_dtype": tm.dtype,
            "stride": list(tm.stride)}


def _value_entry(value):
    tm = getattr(value, "meta", {}).get("tensor_meta") if isinstance(value, fx.Node) else None
    if tm is not None and hasattr(tm, "dtype"):
        return _tensor_entry(tm)
    return {"type": type(value).__name__, "precision": [32], "shape": [1],
            "value": value if not isinstance(value, fx.Node) else None}


def mase_metadata(gm):
    modules = dict(gm.named_modules())
    meta = {}
    for node in gm.graph.nodes:
        common = {"mase_type": node.op, "mase_op": str(node.target).split(".")[-1].lower(),
                  "args": {}, "results": {}}
        data = [a for a in node.args if isinstance(a, fx.Node)]
        for i, a in enumerate(node.args):
            key = f"data_in_{i}" if isinstance(a, fx.Node) else f"arg_{i}"
            common["args"][key] = _value_entry(a)
        if node.op == "call_module":
            module = modules[node.target]
            common["mase_op"] = type(module).__name__.lower()
            for name, p in module.named_parameters(recurse=False):
                common["args"][name] = {
                    "type": "float", "precision": [32], "shape": list(p.shape),
                    "torch_dtype": p.dtype, "stride": list(p.stride()),
                    "from": None}
        tm = node.meta.get("tensor_meta")
        if tm is not None and hasattr(tm, "dtype"):
            common["results"]["data_out_0"] = _tensor_entry(tm)
        del data
        meta[node.name] = {"common": common, "hardware": {}, "software": {}}
    return meta


def export(gm, meta, base):
    """MaseGraph.export, with pickle for dill."""
    gm.recompile()
    with open(base + ".pt", "wb") as f:
        torch.save(gm, f)
    combined = {name: pickle.dumps(m) for name, m in meta.items()}
    with open(base + ".mz", "wb") as f:
        pickle.dump(combined, f)


def from_checkpoint(base):
    """MaseGraph.from_checkpoint, with pickle for dill."""
    with open(base + ".pt", "rb") as f:
        gm = torch.load(f)
    assert isinstance(gm, fx.GraphModule)
    with open(base + ".mz", "rb") as f:
        loaded = pickle.load(f)
    loaded = {k: pickle.loads(v) for k, v in loaded.items()}
    for node in gm.graph.nodes:
        if node.name in loaded:
            node.meta["mase"] = loaded[node.name]
    return gm


# --------------------------------------------------------------------------

def build(args):
    torch.manual_seed(0)
    if args.saved is not None:
        # A GraphModule saved by real_models.py: re-traced in each run, as
        # the passes change it.
        return torch.load(args.saved), torch.load(args.inputs)
    if args.synthetic is not None:
        sys.path.insert(0, HERE)
        import synthetic
        return synthetic.torch_model(args.synthetic, args.width), [torch.randn(1, args.width)]
    sys.path.insert(0, os.path.join(ROOT, "test", "models"))
    import generate
    spec = generate.REGISTRY[args.model][0]()
    spec.model.train(spec.training)
    torch.manual_seed(generate.INPUT_SEED)
    return spec.model, spec.inputs()


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def main():
    parser = argparse.ArgumentParser()
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--synthetic", type=int, metavar="BLOCKS")
    which.add_argument("--model")
    which.add_argument("--saved", metavar="GM.pt",
                       help="a torch.save'd GraphModule (real_models.py)")
    parser.add_argument("--inputs", metavar="INPUTS.pt",
                        help="with --saved: its example inputs, torch.save'd")
    parser.add_argument("--width", type=int, default=16)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--checkpoint", metavar="DIR",
                        help="also time MASE-style export / from_checkpoint here")
    args = parser.parse_args()

    t0 = time.perf_counter()
    model, inputs = build(args)
    build_s = time.perf_counter() - t0
    samples = {k: [] for k in ("trace", "shape_prop", "metadata", "count", "remove",
                               "count_again", "save", "load")}
    nodes = dropouts = None
    for run in range(args.runs):
        gc.collect()
        t, gm = timed(lambda: fx.symbolic_trace(model))
        samples["trace"].append(t)
        nodes = len(gm.graph.nodes)
        t, _ = timed(lambda: ShapeProp(gm).propagate(*inputs))
        samples["shape_prop"].append(t)
        # Informative only, not part of the reference pipeline: building
        # MASE-style metadata dicts from ShapeProp's results, the work mav's
        # -mav-add-common-metadata does besides propagating shapes.
        t, _ = timed(lambda: mase_metadata(gm))
        samples["metadata"].append(t)
        t, (_, out) = timed(lambda: count_dropout_analysis_pass(gm))
        samples["count"].append(t)
        dropouts = out["dropout_count"]
        t, _ = timed(lambda: remove_dropout_transform_pass(gm))
        samples["remove"].append(t)
        t, (_, out) = timed(lambda: count_dropout_analysis_pass(gm))
        samples["count_again"].append(t)
        assert out["dropout_count"] == 0, out
        if args.checkpoint:
            # The checkpoint of the raised graph, dropouts included (mav saves
            # the same: its checkpoint is taken after -mav-raise).
            del gm
            raised = fx.symbolic_trace(model)
            ShapeProp(raised).propagate(*inputs)
            meta = mase_metadata(raised)
            base = os.path.join(args.checkpoint, "fx_ckpt")
            t, _ = timed(lambda: export(raised, meta, base))
            samples["save"].append(t)
            del raised, meta
            gc.collect()
            t, loaded = timed(lambda: from_checkpoint(base))
            samples["load"].append(t)
            assert len(loaded.graph.nodes) == nodes
            ckpt_bytes = os.path.getsize(base + ".pt") + os.path.getsize(base + ".mz")
            del loaded
        else:
            del gm
    result = {
        "nodes": nodes, "dropouts": dropouts, "runs": args.runs,
        "build_s": build_s,
        "median": {k: statistics.median(v) for k, v in samples.items() if v},
        "samples": {k: v for k, v in samples.items() if v},
        "peak_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "torch": torch.__version__,
    }
    if args.checkpoint:
        result["checkpoint_bytes"] = ckpt_bytes
    m = result["median"]
    m["pipeline"] = m["shape_prop"] + m["count"] + m["remove"] + m["count_again"]
    json.dump(result, sys.stdout)
    print()


if __name__ == "__main__":
    main()
