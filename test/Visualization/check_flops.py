#!/usr/bin/python3
"""Checks -mav-count-flops against PyTorch.

For each model, mav imports NAME.pt and runs -mav-raise -mav-count-flops
with --mav-report, then exports the graph as JSON (per-node flops and macs).
PyTorch runs the generator's eager model (the module NAME.pt was traced
from, test/models/expect.py eager_model, and the spec's inputs) twice:

  - under torch.profiler.profile(with_flops=True), always, whatever mav
    leaves uncounted: the FLOPs it gives aten::conv2d, aten::addmm,
    aten::mm, aten::bmm, aten::add and aten::mul, summed per category
    (conv2d, matrix products, add, mul), must equal mav's FLOPs of the
    nodes of that category (conv2d nodes and modules; twice the MACs of
    linear modules, attention, recurrent layers and of every other
    contraction; out-of-place add and mul nodes). Each leaf module call
    runs in a profiler range: an event inside a module counts only in the
    module's own category, and events inside an uncounted node, or inside
    an operator counted by its own formula (a bilinear module, a local
    response norm), are set aside and their total printed. The profiler
    counts an add or mul as the elements of its first operand; the check
    takes the broadcast result's, as mav does. It gives in-place add_ and
    mul_ no FLOPs, and does not see the trace's size arithmetic (0-d adds
    and muls of Python ints in eager), so neither side counts them here.
  - with forward hooks on every leaf module PyTorch calls (the generator's
    leaf_module_call_sequence, which must be mav's call_module nodes, in
    order): FLOPs and MACs computed here from the module's real
    configuration and the shapes it saw (formulas written independently of
    mav's, following the documented convention), which must equal the
    call_module node's, but for nodes mav lists as uncounted (printed). A
    module this checker has no formula for is a failure.

--torchvision NAME traces a torchvision classifier (1000 classes, random
weights) at --input-shape instead, and also checks the total MACs against
the figure torchvision publishes for it (--published-gmacs, within 1%).
Prints "NAME: OK: ..." or "NAME: FAIL: ..."; exits 1 on any failure.
"""

import argparse
import collections
import json
import math
import os
import subprocess
import sys

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "models"))
import expect  # noqa: E402
import generate  # noqa: E402
import mavtest  # noqa: E402

RECURRENT = ("rnn", "lstm", "gru", "rnn_cell", "lstm_cell", "gru_cell")
CONTRACTING_MODULES = ("multi_head_attention",) + RECURRENT


def prod(values):
    return math.prod(int(v) for v in values)


def pair(value, rank):
    return list(value) if isinstance(value, (tuple, list)) else [value] * rank


def adaptive_windows(size_in, size_out):
    return sum(-((-(i + 1) * size_in) // size_out) - (i * size_in) // size_out
               for i in range(size_out))


def recurrent_macs(m, inp):
    gates = {"LSTM": 4, "GRU": 3, "RNN": 1}[type(m).__name__]
    x = inp[0]
    if isinstance(x, torch.nn.utils.rnn.PackedSequence):
        x = x.data  # (sum of the lengths, I): one step per row
    steps = x.numel() // x.shape[-1]
    dirs = 2 if m.bidirectional else 1
    per_step = 0
    for layer in range(m.num_layers):
        layer_in = m.input_size if layer == 0 else m.hidden_size * dirs
        per_step += gates * m.hidden_size * (layer_in + m.hidden_size) * dirs
    return steps * per_step


def cell_macs(m, inp):
    gates = {"LSTMCell": 4, "GRUCell": 3, "RNNCell": 1}[type(m).__name__]
    rows = inp[0].numel() // m.input_size
    return rows * gates * m.hidden_size * (m.input_size + m.hidden_size)


def attention_cost(m, inp, out):
    """(flops, macs) of nn.MultiheadAttention, and the FLOPs outside its
    contractions and softmax that the traced (unfused) form also computes:
    the scaling of the queries, and the averaging of the weights it
    returns (a sum over heads, a division)."""
    # Forward hooks of torch 1.13 do not see keyword arguments: a call with
    # query=, key=, value= (torchvision's ViT) is self-attention, whose query
    # has the output's shape and whose key is the query.
    q = inp[0] if inp else out[0]
    k = inp[1] if len(inp) > 1 else q
    e = m.embed_dim
    rows_q, rows_k = q.numel() // e, k.numel() // m.kdim
    length_k = k.shape[0] if (q.dim() == 3 and not m.batch_first) else \
        k.shape[-2]
    scores = rows_q * length_k
    macs = (rows_q * e + rows_k * (m.kdim + m.vdim)) * e + rows_q * e * e + \
        2 * scores * e
    unfused = rows_q * e
    if out[1] is not None:
        unfused += scores * m.num_heads + scores
    return 2 * macs + 5 * scores * m.num_heads, macs, unfused


def encoder_layer_cost(m, src):
    """A TransformerEncoderLayer run whole (the fused eval path, a leaf):
    its self-attention, its feed-forward's two linears, its two layer norms
    (5 per element), its activation and two residual adds (1 each)."""
    e, hidden = m.self_attn.embed_dim, m.linear1.out_features
    rows = src.numel() // e
    length = src.shape[-2] if m.self_attn.batch_first or src.dim() == 2 \
        else src.shape[0]
    scores = rows * length
    macs = 4 * rows * e * e + 2 * scores * e + 2 * rows * e * hidden
    flops = 2 * macs + 5 * scores * m.self_attn.num_heads + \
        2 * 5 * rows * e + rows * hidden + 2 * rows * e
    return flops, macs


# Modules that compute nothing at inference (views, copies, dropout in eval
# mode): no FLOPs (Visualization.md, "What counts as a FLOP").
ZERO_COST = (nn.Identity, nn.Flatten, nn.Unflatten, nn.Dropout, nn.Dropout1d,
             nn.Dropout2d, nn.Dropout3d, nn.AlphaDropout,
             nn.FeatureAlphaDropout, nn.PixelShuffle, nn.PixelUnshuffle,
             nn.ChannelShuffle)
# Interpolation: (2 * taps - 1) per output element, taps by mode; nearest is
# a copy.
INTERPOLATION_TAPS = {"nearest": 0, "linear": 2, "bilinear": 4,
                      "trilinear": 8, "bicubic": 16}

ELEMENTWISE = (nn.ReLU, nn.ReLU6, nn.GELU, nn.SiLU, nn.Sigmoid, nn.Tanh,
               nn.Hardswish, nn.Hardsigmoid, nn.LeakyReLU, nn.ELU, nn.Mish,
               nn.Hardtanh, nn.PReLU, nn.Softplus)


def module_cost(m, inp, out):
    """(flops, macs) of one call, or None where this checker has no formula
    (a failure: every leaf module PyTorch calls is compared)."""
    if not isinstance(out, torch.Tensor):
        if isinstance(m, nn.MultiheadAttention):
            return attention_cost(m, inp, out)[:2]
        if isinstance(m, (nn.LSTM, nn.GRU, nn.RNN)):
            macs = recurrent_macs(m, inp)
            return None if macs is None else (2 * macs, macs)
        if isinstance(m, (nn.LSTMCell, nn.GRUCell, nn.RNNCell)):
            macs = cell_macs(m, inp)
            return 2 * macs, macs
        return None
    n = out.numel()
    if isinstance(m, (nn.Conv1d, nn.Conv2d, nn.Conv3d)):
        macs = n * (m.in_channels // m.groups) * prod(m.kernel_size)
        return 2 * macs, macs
    if isinstance(m, (nn.ConvTranspose1d, nn.ConvTranspose2d)):
        macs = inp[0].numel() * (m.out_channels // m.groups) * \
            prod(m.kernel_size)
        return 2 * macs, macs
    if isinstance(m, nn.Linear):
        macs = n * m.in_features
        return 2 * macs, macs
    if isinstance(m, nn.Bilinear):
        macs = n * m.in1_features * m.in2_features
        return 2 * macs, macs
    if isinstance(m, (nn.LSTMCell, nn.GRUCell, nn.RNNCell)):
        macs = cell_macs(m, inp)
        return 2 * macs, macs
    if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)):
        return 2 * n, 0
    if isinstance(m, (nn.LayerNorm, nn.GroupNorm, nn.InstanceNorm2d)):
        return 5 * n, 0
    if isinstance(m, (nn.Softmax, nn.LogSoftmax, nn.Softmin)):
        return 5 * n, 0
    if isinstance(m, ELEMENTWISE):
        return n, 0
    if isinstance(m, (nn.MaxPool2d, nn.AvgPool2d)):
        return n * prod(pair(m.kernel_size, 2)), 0
    if isinstance(m, nn.AdaptiveAvgPool2d):
        x = inp[0]
        return (n // (out.shape[-1] * out.shape[-2]) *
                adaptive_windows(x.shape[-2], out.shape[-2]) *
                adaptive_windows(x.shape[-1], out.shape[-1])), 0
    if isinstance(m, nn.LocalResponseNorm):
        # Its trace keeps no size, so it is counted from its body, the aten
        # calls of F.local_response_norm: x * x, an average over `size`
        # channels, * alpha, + k, ** beta, and the division.
        return n * (m.size + 5), 0
    if isinstance(m, nn.TransformerEncoderLayer):
        return encoder_layer_cost(m, inp[0])
    if isinstance(m, ZERO_COST):
        return 0, 0
    if isinstance(m, nn.Upsample):  # UpsamplingNearest2d/Bilinear2d too
        taps = INTERPOLATION_TAPS[m.mode]
        return (2 * taps - 1) * n if taps else 0, 0
    return None


def build_model(name, args):
    if args.torchvision:
        import torchvision
        torch.manual_seed(0)
        model = getattr(torchvision.models, name)(weights=None).eval()
        shape = [int(d) for d in args.input_shape.split("x")[:-1]]
        return model, [torch.randn(shape)]
    return expect.eager_model(name)


def run_mav(name, args, model, inputs):
    work = args.work
    mlir = os.path.join(work, name + ".mlir")
    if args.torchvision:
        pt = os.path.join(work, name + ".pt")
        with torch.no_grad():
            torch.jit.save(torch.jit.trace(model, inputs), pt)
        subprocess.run([args.translate, "--import-torchscript", pt,
                        "--input-shape=" + args.input_shape, "-o", mlir],
                       check=True)
    else:
        mavtest.import_model(args.translate, args.models, name, mlir)
    raised = os.path.join(work, name + ".flops.mlir")
    report = os.path.join(work, name + ".report.json")
    subprocess.run([args.opt, mlir, "-mav-raise", "-mav-count-flops",
                    "--mav-elide-weights", "--mav-report=" + report,
                    "-o", raised], check=True)
    exported = os.path.join(work, name + ".flops.json")
    subprocess.run([args.translate, "--export-json", raised, "-o", exported],
                   check=True)
    outputs = [o for o in json.load(open(report))
               if o["pass"] == "mav-count-flops"][0]["outputs"]
    return json.load(open(exported))["graphs"][0]["nodes"], outputs


def category(node, uncounted):
    """The profiler category a node's FLOPs are compared in, or None."""
    if node["name"] in uncounted:
        return None
    op = node.get("mase_op")
    target = node.get("target", "")
    if node["op"] == "call_module":
        # A module is compared with the profiler's events of its own
        # operator only: conv2d, the matrix products of linear layers,
        # attention and recurrent layers. Any other module (bilinear,
        # norms, activations) is counted by its formula, checked from its
        # configuration below.
        if op in ("conv2d", "convolution"):
            return "aten::conv2d"
        if op == "linear" or op in CONTRACTING_MODULES:
            return "matrix"
        return None
    if op in ("conv2d", "convolution"):
        return "aten::conv2d"
    shapes = [r.get("shape") for r in node.get("results", [])]
    if op in ("add", "mul"):
        if shapes and shapes[0] == []:
            return None  # size arithmetic of the trace (Python ints in eager)
        base = target.split("::")[-1].split(".")[0]
        # The profiler gives in-place add_ and mul_ no FLOPs.
        return None if base.endswith("_") or base.startswith("__i") \
            else "aten::" + op
    # Contractions (linear, matmul, mm, addmm, bmm, einsum of two operands,
    # affine_grid) run as addmm/mm/bmm.
    return "matrix" if node.get("macs") else None


def node_flops(node, key):
    return 2 * node.get("macs", 0) if key == "matrix" else node.get("flops", 0)


EVENT_CATEGORY = {"aten::conv2d": "aten::conv2d", "aten::addmm": "matrix",
                  "aten::mm": "matrix", "aten::bmm": "matrix",
                  "aten::baddbmm": "matrix",
                  "aten::add": "aten::add", "aten::mul": "aten::mul"}
LEAF_RANGE = "mav_leaf::"
# Matrix products the profiler gives no FLOPs (the fused encoder layer's
# first feed-forward linear, with its activation): counted here from their
# shapes.
UNPROFILED_MATRIX = ("aten::_addmm_activation",)
# The fused attention kernels of eval mode: a leaf module running one is
# counted by its formula; otherwise by its traced body's aten calls.
FUSED_ATTENTION = ("aten::_native_multi_head_attention",
                   "aten::_transformer_encoder_layer_fwd")


def profiler_flops(model, inputs, leaf_category, excluded_ops, no_grad):
    """The profiler's FLOPs per category, of the events mav has a node of
    that category for.

    Every leaf module call runs in a profiler range: an event inside one is
    counted when it is of the module's category (a conv2d module's conv2d,
    a linear or contracting module's matrix products), else left to the
    module's formula (checked from its configuration). Outside the leaf
    modules, an event counts when it is called from Python, or when it is a
    matrix product inside another operator (linear, matmul, einsum,
    affine_grid run as addmm/mm/bmm); other events inside an operator are
    left to that operator's formula. Events inside an uncounted operator
    (`excluded_ops`, aten names) count nowhere. Returns (totals by
    category, FLOPs not compared, the FLOPs of every conv2d and matrix
    product wherever it runs, the leaf modules that ran a fused attention
    kernel). The model runs with gradients off only when it was traced so:
    with them on, eager attention takes the unfused path its trace took."""
    from torch.profiler import ProfilerActivity, profile, record_function
    modules = dict(model.named_modules())
    ranges, handles = {}, []

    def enter(path):
        def hook(module, inp):
            scope = record_function(LEAF_RANGE + path)
            scope.__enter__()
            ranges.setdefault(path, []).append(scope)
        return hook

    def leave(path):
        def hook(module, inp, out):
            ranges[path].pop().__exit__(None, None, None)
        return hook

    for path in leaf_category:
        handles.append(modules[path].register_forward_pre_hook(enter(path)))
        handles.append(modules[path].register_forward_hook(leave(path)))
    try:
        with torch.set_grad_enabled(not no_grad), \
                profile(activities=[ProfilerActivity.CPU],
                                      with_flops=True,
                                      record_shapes=True) as prof:
            model(*inputs)
    finally:
        for handle in handles:
            handle.remove()
    totals = dict.fromkeys(("aten::conv2d", "matrix", "aten::add",
                            "aten::mul"), 0)
    left = 0
    # Every contraction the profiler counts, wherever it runs: twice the
    # model's MACs.
    contractions = 0
    fused = set()
    for event in prof.events():
        if event.name in FUSED_ATTENTION:
            parent = event.cpu_parent
            while parent is not None and not parent.name.startswith(
                    LEAF_RANGE):
                parent = parent.cpu_parent
            if parent is not None:
                fused.add(parent.name[len(LEAF_RANGE):])
        if event.name in UNPROFILED_MATRIX:
            # (bias, mat1 (M, K), mat2 (K, N), ...): 2 * M * K * N.
            rows, inner = event.input_shapes[1]
            contractions += 2 * rows * inner * event.input_shapes[2][1]
        key = EVENT_CATEGORY.get(event.name)
        if key is None or not event.flops:
            continue
        if key in ("aten::conv2d", "matrix"):
            contractions += event.flops
        flops = event.flops
        if event.name in ("aten::add", "aten::mul"):
            # The profiler counts the first operand's elements; under
            # broadcasting the result has more, one operation each.
            shapes = [s for s in event.input_shapes[:2] if s]
            flops = math.prod(torch.broadcast_shapes(*shapes)) if shapes \
                else flops
        ancestors, parent = [], event.cpu_parent
        while parent is not None:
            ancestors.append(parent.name)
            parent = parent.cpu_parent
        leaf = next((a[len(LEAF_RANGE):] for a in ancestors
                     if a.startswith(LEAF_RANGE)), None)
        operators = [a for a in ancestors if a.startswith("aten::")]
        if leaf is not None:
            counted = leaf_category[leaf] == key
        elif any(a in excluded_ops for a in operators):
            counted = False
        else:
            counted = not operators or key == "matrix"
        if counted:
            totals[key] += flops
        else:
            left += flops
    return totals, left, contractions, fused


def hook_costs(model, inputs, targets):
    modules = dict(model.named_modules())
    costs = {}

    def hook(path):
        def record(module, inp, out):
            cost = attention_cost(module, inp, out) if isinstance(
                module, nn.MultiheadAttention) else module_cost(module, inp,
                                                                 out)
            costs.setdefault(path, []).append(cost)
        return record

    handles = [modules[path].register_forward_hook(hook(path))
               for path in targets]
    try:
        with torch.no_grad():
            model(*inputs)
    finally:
        for handle in handles:
            handle.remove()
    return costs


def leaf_calls(name, args, model, inputs):
    """The leaf module calls of one forward, in order, as PyTorch's forward
    hooks see them (mav's leaf policy): the generator's
    leaf_module_call_sequence, or, for a torchvision model, the same
    analysis (generate.hook_analysis) run here."""
    if args.torchvision:
        with torch.no_grad():
            return generate.hook_analysis(model, inputs)["leaf_sequence"]
    return mavtest.reference(args.models, name)["leaf_module_call_sequence"]


def check(name, args):
    model, inputs = build_model(name, args)
    nodes, outputs = run_mav(name, args, model, inputs)
    failures = []
    uncounted = set(outputs["uncounted"])

    # The leaf module calls are PyTorch's: each must be a call_module node,
    # in order, and mav's graph may call no other module.
    expected = leaf_calls(name, args, model, inputs)
    calls = {}
    for node in nodes:
        if node["op"] == "call_module":
            calls.setdefault(node["target"], []).append(node)
    got = [n["target"] for n in nodes if n["op"] == "call_module"]
    if got != expected:
        failures.append("call_module nodes differ from PyTorch's leaf calls: "
                        + (expect.difference(collections.Counter(expected),
                                             collections.Counter(got)) or
                           "in another order"))
        print("%s: FAIL: %s" % (name, "; ".join(failures)))
        return False

    # The profiler's operators, always: the events of uncounted nodes and
    # of operators counted by their own formula are set aside, the rest
    # compared with the nodes of their category.
    leaf_category = {path: category(path_nodes[0], uncounted)
                     for path, path_nodes in calls.items()}
    excluded_ops = {n["target"].split(".")[0] for n in nodes
                    if n["name"] in uncounted and n["op"] != "call_module"}
    no_grad = args.torchvision or mavtest.reference(
        args.models, name)["traced_under_no_grad"]
    theirs, left, contractions, fused = profiler_flops(
        model, inputs, leaf_category, excluded_ops, no_grad)
    mine = dict.fromkeys(theirs, 0)
    for node in nodes:
        key = category(node, uncounted)
        if key:
            mine[key] += node_flops(node, key)
    for key in mine:
        if mine[key] != theirs[key]:
            failures.append("%s: mav %d, torch.profiler %d" %
                            (key, mine[key], theirs[key]))

    # Leaf modules, from their configuration: a module called several times
    # is one node per call, in call order. A module this checker has no
    # formula for is a failure, not a skip.
    costs = hook_costs(model, inputs, calls)
    checked, compared, reference_macs = set(), 0, 0
    body_flops = []
    for path, path_costs in costs.items():
        if len(path_costs) != len(calls[path]):
            failures.append("%s: called %d times, %d call_module nodes" %
                            (path, len(path_costs), len(calls[path])))
            continue
        for node, cost in zip(calls[path], path_costs):
            if cost is None:
                failures.append("%s (%s): check_flops.py has no formula for "
                                "this module; add one" %
                                (node["name"], node.get("module_class")))
                continue
            reference_macs += cost[1]
            if node["name"] in uncounted:
                continue  # listed as uncounted, in the OK line
            got = (node.get("flops", 0), node.get("macs", 0))
            if len(cost) == 3 and path not in fused:
                # Attention counted from its traced body: its MACs are the
                # formula's; its FLOPs add the queries' scaling and the
                # weights' averaging, and the body's mask and size
                # arithmetic (a few FLOPs per mask element), printed.
                flops, macs, unfused = cost
                if got[1] != macs or got[0] < flops + unfused:
                    failures.append("%s (attention from its body): mav "
                                    "flops/macs %s, expected macs %d and "
                                    "flops at least %d" %
                                    (node["name"], got, macs,
                                     flops + unfused))
                body_flops.append(got[0] - flops - unfused)
                checked.add("MultiheadAttention (body)")
                compared += 1
                continue
            cost = cost[:2]
            if got != cost:
                failures.append("%s (%s): mav flops/macs %s, expected %s" %
                                (node["name"], node.get("module_class"), got,
                                 cost))
            checked.add(node.get("module_class", "").split(".")[-1])
            compared += 1

    total_macs = sum(n.get("macs", 0) for n in nodes)
    total_flops = sum(n.get("flops", 0) for n in nodes)
    if (outputs["total_macs"], outputs["total_flops"]) != (total_macs,
                                                          total_flops):
        failures.append("pass totals %d/%d differ from the nodes' %d/%d" %
                        (outputs["total_macs"], outputs["total_flops"],
                         total_macs, total_flops))
    published = ""
    if args.published_gmacs:
        ratio = total_macs / (args.published_gmacs * 1e9)
        published = ", published %.2f GMACs (ratio %.4f)" % (
            args.published_gmacs, ratio)
        if abs(ratio - 1) > 0.01:
            failures.append("total %d MACs is not within 1%% of the "
                            "published %.2f G" % (total_macs,
                                                  args.published_gmacs))
    if args.torchvision and total_macs != reference_macs:
        failures.append("total MACs %d, the leaf modules' %d" %
                        (total_macs, reference_macs))
    if args.total_macs and 2 * total_macs != contractions:
        failures.append("total MACs %d, torch.profiler's contractions %d "
                        "(half their %d FLOPs)" %
                        (total_macs, contractions // 2, contractions))
    if failures:
        print("%s: FAIL: %s" % (name, "; ".join(failures)))
        return False
    print("%s: OK: %d MACs, %d FLOPs; profiler conv2d %d, matrix %d, add %d, "
          "mul %d (%d left to formulas or uncounted); %d modules checked "
          "(%s); uncounted %s%s" %
          (name, total_macs, total_flops, theirs["aten::conv2d"],
           theirs["matrix"], theirs["aten::add"], theirs["aten::mul"], left,
           compared, ", ".join(sorted(checked)),
           outputs["uncounted"], published))
    if args.total_macs:
        print("%s: total MACs %d = torch.profiler's conv2d and matrix "
              "products / 2; attention bodies' other FLOPs %s" %
              (name, total_macs, body_flops))
    return True


def main():
    def extra(parser):
        parser.add_argument("--opt", required=True)
        parser.add_argument("--torchvision", action="store_true")
        parser.add_argument("--input-shape", default="1x3x224x224xf32")
        parser.add_argument("--published-gmacs", type=float)
        parser.add_argument("--total-macs", action="store_true")
    if "--torchvision" in sys.argv:
        sys.argv += ["--models", "-"]
    args = mavtest.parse_arguments("models", "translate", "work", extra=extra)
    ok = all([check(name, args) for name in args.names])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
