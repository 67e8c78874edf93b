#!/usr/bin/python3
"""Generate the real-model fixtures of mav's test suite.

Usage:
    /usr/bin/python3 test/models/generate.py --out DIR [--only NAME ...] [--list]

For every model NAME this writes, into DIR:
    NAME.pt       TorchScript module (torch.jit.trace, saved with torch.jit.save)
    NAME.json     reference values, all computed by PyTorch here (see README.md)
    NAME.io.pt    torch.save({"inputs": [...], "outputs": [...]}) on the example input
    NAME.eval.pt  only for models traced in train mode: the same module traced
                  in eval mode, a deterministic reference for `mav-run --reference`

Files are regenerated only when one is missing or older than this script.
Every file is written to a temporary name and moved into place with os.replace,
and each model is generated under a per-model lock, so that concurrent test
processes may call this script at the same time.

Run it with Debian's interpreter, /usr/bin/python3 (python3-torch 1.13,
python3-torchvision 0.14). torch is imported only when something has to be
generated, so --list and up-to-date checks are cheap.
"""

import argparse
import collections
import contextlib
import copy
import fcntl
import io
import json
import os
import sys
import tempfile
import time
import warnings

MODEL_SEED = 0   # torch.manual_seed before the model is built
INPUT_SEED = 0   # torch.manual_seed before the example inputs are drawn
CLASSIFIER_HIDDEN = 64  # replaces the 4096-wide hidden layers of AlexNet/VGG

DROPOUT_CLASS_NAMES = ("Dropout", "Dropout1d", "Dropout2d", "Dropout3d",
                       "AlphaDropout", "FeatureAlphaDropout")
DROPOUT_ATEN_OPS = frozenset(
    "aten::" + base + suffix
    for base in ("dropout", "feature_dropout", "alpha_dropout",
                 "feature_alpha_dropout", "native_dropout")
    for suffix in ("", "_"))

MAV_DTYPE = {  # torch dtype name -> mav's spelling in "1x3x64x64xf32"
    "torch.float32": "f32", "torch.float64": "f64", "torch.float16": "f16",
    "torch.bfloat16": "bf16", "torch.int64": "si64", "torch.int32": "si32",
    "torch.int16": "si16", "torch.int8": "si8", "torch.uint8": "ui8",
    "torch.bool": "i1",
}


# --------------------------------------------------------------------------
# Model registry. Builders import torch lazily and return a Spec.
# --------------------------------------------------------------------------

class Spec:
    def __init__(self, model, inputs, training=False, no_grad=False,
                 input_generators=None, notes=""):
        self.model = model              # nn.Module
        self.inputs = inputs            # callable () -> list of tensors
        self.training = training        # trace in train mode
        self.no_grad = no_grad          # trace (and analyse) under no_grad
        self.input_generators = input_generators
        self.notes = notes


REGISTRY = collections.OrderedDict()


def register(name, description):
    def deco(fn):
        REGISTRY[name] = (fn, description)
        return fn
    return deco


def _randn(*shape):
    import torch
    return lambda: [torch.randn(*shape)]


def _shrink_classifier(seq, hidden):
    """Replace the hidden widths of a Sequential classifier (Linear layers
    between the first input and the last output) by `hidden`, keeping the
    structure (Linear/ReLU/Dropout) and the classes of the original."""
    import torch.nn as nn
    idx = [i for i, m in enumerate(seq) if isinstance(m, nn.Linear)]
    for n, i in enumerate(idx):
        old = seq[i]
        in_f = old.in_features if n == 0 else hidden
        out_f = old.out_features if n == len(idx) - 1 else hidden
        seq[i] = nn.Linear(in_f, out_f, bias=old.bias is not None)


def _tv(fn_name, shape=(1, 3, 64, 64), **kw):
    import torchvision
    model = getattr(torchvision.models, fn_name)(weights=None, **kw)
    return Spec(model, _randn(*shape))


@register("resnet18", "torchvision resnet18, num_classes=10, input 1x3x64x64")
def _resnet18():
    return _tv("resnet18", num_classes=10)


@register("alexnet", "torchvision alexnet, num_classes=10, classifier hidden "
          "width 4096 -> 64, input 1x3x64x64")
def _alexnet():
    spec = _tv("alexnet", num_classes=10)
    _shrink_classifier(spec.model.classifier, CLASSIFIER_HIDDEN)
    spec.notes = "classifier hidden width shrunk from 4096 to %d" % CLASSIFIER_HIDDEN
    return spec


@register("vgg11", "torchvision vgg11, num_classes=10, classifier hidden "
          "width 4096 -> 64, input 1x3x64x64")
def _vgg11():
    spec = _tv("vgg11", num_classes=10)
    _shrink_classifier(spec.model.classifier, CLASSIFIER_HIDDEN)
    spec.notes = "classifier hidden width shrunk from 4096 to %d" % CLASSIFIER_HIDDEN
    return spec


@register("squeezenet1_0", "torchvision squeezenet1_0, num_classes=10, input 1x3x64x64")
def _squeezenet():
    return _tv("squeezenet1_0", num_classes=10)


@register("mobilenet_v2", "torchvision mobilenet_v2, num_classes=10, input 1x3x64x64")
def _mobilenet_v2():
    return _tv("mobilenet_v2", num_classes=10)


@register("mobilenet_v3_small", "torchvision mobilenet_v3_small, num_classes=10, "
          "input 1x3x64x64")
def _mobilenet_v3_small():
    return _tv("mobilenet_v3_small", num_classes=10)


@register("efficientnet_b0", "torchvision efficientnet_b0, num_classes=10, "
          "input 1x3x64x64 (has Dropout and torchvision StochasticDepth)")
def _efficientnet_b0():
    return _tv("efficientnet_b0", num_classes=10)


@register("vit", "torchvision VisionTransformer(image_size=32, patch_size=8, "
          "num_layers=2, num_heads=2, hidden_dim=32, mlp_dim=64, num_classes=10), "
          "input 1x3x32x32")
def _vit():
    from torchvision.models.vision_transformer import VisionTransformer
    m = VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=2,
                          hidden_dim=32, mlp_dim=64, num_classes=10)
    return Spec(m, _randn(1, 3, 32, 32))


@register("swin", "torchvision SwinTransformer(patch_size=[4,4], embed_dim=16, "
          "depths=[2,2], num_heads=[2,2], window_size=[4,4], num_classes=10), "
          "input 1x3x32x32")
def _swin():
    from torchvision.models.swin_transformer import SwinTransformer
    m = SwinTransformer(patch_size=[4, 4], embed_dim=16, depths=[2, 2],
                        num_heads=[2, 2], window_size=[4, 4], num_classes=10)
    return Spec(m, _randn(1, 3, 32, 32))


@register("convnext", "torchvision ConvNeXt([CNBlockConfig(16, 32, 1), "
          "CNBlockConfig(32, None, 1)], num_classes=10), input 1x3x64x64")
def _convnext():
    from torchvision.models.convnext import ConvNeXt, CNBlockConfig
    m = ConvNeXt([CNBlockConfig(16, 32, 1), CNBlockConfig(32, None, 1)],
                 num_classes=10)
    return Spec(m, _randn(1, 3, 64, 64))


def _encoder(batch_first=False):
    import torch.nn as nn
    layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64,
                                       batch_first=batch_first)
    return nn.TransformerEncoder(layer, num_layers=2)


@register("transformer_encoder_train", "nn.TransformerEncoder(TransformerEncoderLayer"
          "(d_model=32, nhead=4, dim_feedforward=64), num_layers=2) traced in "
          "train mode, input 5x2x32 (seq, batch, d)")
def _transformer_encoder_train():
    return Spec(_encoder(), _randn(5, 2, 32), training=True,
                notes="traced in train mode: the dropouts of NAME.pt are live "
                      "(train=True is baked into the trace); NAME.eval.pt is the "
                      "eval-mode trace used for the reference outputs")


@register("transformer_encoder_eval", "same encoder as transformer_encoder_train, "
          "traced in eval mode under torch.no_grad(), input 5x2x32 (seq, batch, d)")
def _transformer_encoder_eval():
    return Spec(_encoder(), _randn(5, 2, 32), no_grad=True,
                notes="batch_first=False: torch 1.13 takes the fused fast path "
                      "only when self_attn.batch_first is True, so the layers "
                      "are traced through their submodules "
                      "(see transformer_encoder_eval_fastpath)")


@register("transformer_encoder_eval_fastpath", "same encoder with batch_first=True, "
          "traced in eval mode under torch.no_grad(), input 2x5x32 (batch, seq, d): "
          "takes the fused aten::_transformer_encoder_layer_fwd path")
def _transformer_encoder_eval_fastpath():
    return Spec(_encoder(batch_first=True), _randn(2, 5, 32), no_grad=True,
                notes="each TransformerEncoderLayer is one "
                      "aten::_transformer_encoder_layer_fwd call (no meta kernel "
                      "in libtorch 1.13)")


def _custom_classes():
    """Small nn.Modules defined here. Their __module__ is pinned so that their
    qualified names do not depend on how this script is run."""
    import torch.nn as nn
    import torch.nn.functional as F

    class MLPFunctionalDropout(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(16, 32)
            self.relu = nn.ReLU()
            self.fc2 = nn.Linear(32, 4)

        def forward(self, x):
            x = self.relu(self.fc1(x))
            x = F.dropout(x, p=0.5, training=self.training)
            return self.fc2(x)

    class TiedEmbeddingLM(nn.Module):
        def __init__(self, vocab=50, d_model=16):
            super().__init__()
            self.embed = nn.Embedding(vocab, d_model)
            self.encoder_layer = nn.TransformerEncoderLayer(
                d_model=d_model, nhead=2, dim_feedforward=32)
            self.head = nn.Linear(d_model, vocab, bias=False)
            self.head.weight = self.embed.weight  # tied

        def forward(self, tokens):  # tokens: (batch, seq) int64
            x = self.embed(tokens).transpose(0, 1)   # (seq, batch, d)
            x = self.encoder_layer(x)
            return self.head(x.transpose(0, 1))      # (batch, seq, vocab)

    class PlainCNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, kernel_size=3, padding=1)
            self.bn = nn.BatchNorm2d(8)
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(2)
            self.flatten = nn.Flatten()
            self.fc = nn.Linear(8 * 8 * 8, 10)

        def forward(self, x):
            return self.fc(self.flatten(self.pool(self.relu(self.bn(self.conv(x))))))

    class SelfAttention(nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = nn.MultiheadAttention(32, 4, batch_first=True)

        def forward(self, x):
            return self.attn(x, x, x, need_weights=False)[0]

    classes = (MLPFunctionalDropout, TiedEmbeddingLM, PlainCNN, SelfAttention)
    for c in classes:
        c.__module__ = "mav_test_models"
        c.__qualname__ = c.__name__
    return classes


@register("mlp_functional_dropout", "Linear(16,32) -> ReLU -> F.dropout(p=0.5, "
          "training=self.training) -> Linear(32,4), eval mode, input 2x16")
def _mlp_functional_dropout():
    mlp, _, _, _ = _custom_classes()
    return Spec(mlp(), _randn(2, 16))


@register("tied_embedding_lm", "Embedding(50,16) tied to Linear(16,50,bias=False), "
          "one TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32) "
          "in between, eval mode, input int64 tokens 2x7 (batch, seq)")
def _tied_embedding_lm():
    import torch
    _, lm, _, _ = _custom_classes()
    return Spec(lm(), lambda: [torch.randint(0, 50, (2, 7), dtype=torch.int64)],
                input_generators=["torch.randint(0, 50, shape, dtype=torch.int64)"],
                notes="embed.weight and head.weight are the same Parameter")


@register("self_attention_fastpath", "nn.MultiheadAttention(32, 4, batch_first="
          "True) called as self-attention without weights, traced in eval mode "
          "under torch.no_grad(), input 2x5x32: takes the fused "
          "aten::_native_multi_head_attention path")
def _self_attention_fastpath():
    _, _, _, attention = _custom_classes()
    return Spec(attention(), _randn(2, 5, 32), no_grad=True,
                notes="aten::_native_multi_head_attention has no meta kernel "
                      "in libtorch 1.13")


@register("plain_cnn", "Conv2d(3,8,3,pad=1) -> BatchNorm2d(8) -> ReLU -> MaxPool2d(2) "
          "-> Flatten -> Linear(512,10), eval mode, input 1x3x16x16")
def _plain_cnn():
    import torch
    _, _, cnn, _ = _custom_classes()
    m = cnn()
    with torch.no_grad():  # non-trivial BatchNorm statistics and affine
        m.bn.running_mean.copy_(torch.randn(8) * 0.1)
        m.bn.running_var.copy_(torch.rand(8) + 0.5)
        m.bn.weight.copy_(torch.rand(8) + 0.5)
        m.bn.bias.copy_(torch.randn(8) * 0.1)
    return Spec(m, _randn(1, 3, 16, 16),
                notes="BatchNorm running stats and affine parameters are random")


# --------------------------------------------------------------------------
# Analysis helpers
# --------------------------------------------------------------------------

def qualname(obj_type):
    return obj_type.__module__ + "." + obj_type.__qualname__


def dtype_name(dt):
    return str(dt)


def mav_type(shape, dt):
    suffix = MAV_DTYPE.get(dtype_name(dt), dtype_name(dt).replace("torch.", ""))
    return "x".join([str(d) for d in shape] + [suffix])


def dropout_classes():
    import torch.nn as nn
    return tuple(getattr(nn, n) for n in DROPOUT_CLASS_NAMES if hasattr(nn, n))


def is_torch_nn_class(module):
    return type(module).__module__.startswith("torch.nn")


def flatten_outputs(out):
    import torch
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in flatten_outputs(o)]
    if isinstance(out, dict):
        return [t for k in out for t in flatten_outputs(out[k])]
    raise TypeError("unsupported output type %s" % type(out).__name__)


def output_types(out):
    """A module output's tensors as mav types, flattened, with None kept."""
    import torch
    if out is None:
        return ["none"]
    if isinstance(out, torch.Tensor):
        return [mav_type(out.shape, out.dtype)]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in output_types(o)]
    return ["object"]


def hook_analysis(model, inputs):
    """One forward with pre-hooks and hooks on every module.

    Returns per-call statistics of atomic torch.nn modules (leaves under
    mav's policy), dropout-module calls and all module calls, plus the set
    of module paths that ran as atomic leaves."""
    paths = {}
    for path, m in model.named_modules(remove_duplicate=False):
        paths.setdefault(id(m), path)
    drop_cls = dropout_classes()
    stack = []  # entries: [module, had_child_call]
    leaf_by_class = collections.Counter()
    leaf_sequence = []
    leaf_outputs = []
    leaf_paths = set()
    dropout_by_class = collections.Counter()
    calls_by_class = collections.Counter()

    def pre(mod, args):
        if stack:
            stack[-1][1] = True
        stack.append([mod, False])

    def post(mod, args, out):
        entry = stack.pop()
        assert entry[0] is mod, "unbalanced module call stack"
        cls = qualname(type(mod))
        calls_by_class[cls] += 1
        if isinstance(mod, drop_cls):
            dropout_by_class[cls] += 1
        if is_torch_nn_class(mod) and not entry[1]:
            leaf_by_class[cls] += 1
            leaf_sequence.append(paths[id(mod)])
            leaf_outputs.append(output_types(out))
            leaf_paths.add(paths[id(mod)])

    handles = []
    for m in model.modules():
        handles.append(m.register_forward_pre_hook(pre))
        handles.append(m.register_forward_hook(post))
    try:
        model(*inputs)
    finally:
        for h in handles:
            h.remove()
    assert not stack
    return {
        "leaf_by_class": dict(sorted(leaf_by_class.items())),
        "leaf_sequence": leaf_sequence,
        "leaf_outputs": leaf_outputs,
        "leaf_paths": leaf_paths,
        "dropout_by_class": dict(sorted(dropout_by_class.items())),
        "calls_by_class": dict(sorted(calls_by_class.items())),
    }


def _all_nodes(block):
    for node in block.nodes():
        yield node
        for sub in node.blocks():
            yield from _all_nodes(sub)


def functional_dropout_analysis(traced, model, leaf_paths):
    """Walk the traced top-level graph and, recursively, the graphs of the
    submodules it calls through prim::CallMethod. Count dropout aten nodes
    found in graphs of modules whose class is not a dropout class."""
    import torch
    drop_cls = dropout_classes()
    by_scope = collections.Counter()
    inside_leaf = [0]

    def walk(smod, pmod, path, method, in_leaf):
        graph = smod._c._get_method(method).graph
        in_leaf = in_leaf or path in leaf_paths
        env = {}
        self_value = next(iter(graph.inputs()))
        env[self_value.unique()] = (smod, pmod, path)
        for node in _all_nodes(graph):
            kind = node.kind()
            if kind == "prim::GetAttr":
                src = env.get(node.inputsAt(0).unique())
                if src is None:
                    continue
                name = node.s("name")
                child = getattr(src[0], name, None)
                if isinstance(child, torch.jit.ScriptModule):
                    cpath = name if not src[2] else src[2] + "." + name
                    env[node.output().unique()] = (child, getattr(src[1], name), cpath)
            elif kind == "prim::CallMethod":
                tgt = env.get(node.inputsAt(0).unique())
                if tgt is None:
                    raise RuntimeError("cannot resolve the module of %s" % node)
                walk(tgt[0], tgt[1], tgt[2], node.s("name"), in_leaf)
            elif kind in DROPOUT_ATEN_OPS and not isinstance(pmod, drop_cls):
                by_scope[path] += 1
                if in_leaf:
                    inside_leaf[0] += 1

    walk(traced, model, "", "forward", False)
    return dict(sorted(by_scope.items())), inside_leaf[0]


def tensor_type_info(value):
    import torch
    t = value.type()
    if not isinstance(t, torch._C.TensorType):
        return None
    sizes, dt = t.sizes(), t.dtype()
    if sizes is None or dt is None:
        return None
    info = {"shape": list(sizes), "dtype": dtype_name(dt), "type": mav_type(sizes, dt)}
    strides = t.strides()
    if strides is not None:
        info["strides"] = list(strides)
    return info


def value_shapes(traced, loaded):
    """Complete tensor types of the traced, inlined top-level graph, keyed by
    debug name, in graph order. When the loaded module's inlined graph has the
    same sequence of compute nodes, also give the loaded graph's name."""
    # inlined_graph builds a new graph on every access, and node handles do
    # not keep their graph alive: hold both graphs in locals.
    g = traced.inlined_graph
    lg = loaded.inlined_graph
    skip = ("prim::Constant", "prim::GetAttr")
    tnodes = [n for n in _all_nodes(g) if n.kind() not in skip]
    lnodes = [n for n in _all_nodes(lg) if n.kind() not in skip]
    matched = ([n.kind() for n in tnodes] == [n.kind() for n in lnodes]
               and all(len(list(a.outputs())) == len(list(b.outputs()))
                       for a, b in zip(tnodes, lnodes)))
    loaded_name = {}
    if matched:
        for a, b in zip(tnodes, lnodes):
            for va, vb in zip(a.outputs(), b.outputs()):
                loaded_name[va.unique()] = vb.debugName()
        for va, vb in zip(list(g.inputs()), list(lg.inputs())):
            loaded_name[va.unique()] = vb.debugName()

    result = collections.OrderedDict()

    def add(value, kind, scope):
        info = tensor_type_info(value)
        if info is None:
            return
        entry = {"kind": kind}
        entry.update(info)
        entry["scope"] = scope
        if value.unique() in loaded_name:
            entry["loaded_name"] = loaded_name[value.unique()]
        result[value.debugName()] = entry

    for v in list(g.inputs()):
        add(v, "prim::Param", "")
    for node in _all_nodes(g):
        # "__module.a/__module.a.b" -> "a.b" (the innermost module path)
        scope = node.scopeName().split("/")[-1]
        scope = scope[len("__module."):] if scope.startswith("__module.") else ""
        for v in node.outputs():
            add(v, node.kind(), scope)
    return result, matched


def op_counts(graph):
    c = collections.Counter(n.kind() for n in _all_nodes(graph)
                            if not n.kind().startswith("prim::"))
    return dict(sorted(c.items()))


def state_dict_entries(loaded):
    sd = loaded.state_dict()
    seen = {}
    entries = []
    for key in sorted(sd):
        t = sd[key]
        e = {"key": key, "shape": list(t.shape), "dtype": dtype_name(t.dtype),
             "type": mav_type(t.shape, t.dtype)}
        ident = (t.data_ptr(), tuple(t.shape), tuple(t.stride()), t.dtype)
        if t.numel() > 0 and ident in seen:
            e["shared_with"] = seen[ident]
        else:
            seen.setdefault(ident, key)
        entries.append(e)
    return entries


def max_abs_diff(a, b):
    return max([float((x.double() - y.double()).abs().max()) if x.numel() else 0.0
                for x, y in zip(a, b)] or [0.0])


# --------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------

def output_files(name, training):
    files = [name + ".pt", name + ".io.pt", name + ".json"]
    if training:
        files.insert(1, name + ".eval.pt")
    return files


def is_fresh(out_dir, name, script_mtime):
    """Up to date: NAME.json exists, lists its files, and all are newer than
    the script (mtime equal counts as fresh)."""
    jpath = os.path.join(out_dir, name + ".json")
    try:
        with open(jpath) as f:
            files = json.load(f)["files"]
        return all(os.path.getmtime(os.path.join(out_dir, p)) >= script_mtime
                   for p in files)
    except (OSError, ValueError, KeyError, TypeError):
        return False


def _current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


UMASK = _current_umask()


class AtomicWriter:
    """Hands out temporary paths in the output directory and moves them to
    their final names on commit; leftovers are removed on failure."""

    def __init__(self, out_dir, name):
        self.out_dir, self.name, self.pending = out_dir, name, []

    def temp(self, final):
        fd, tmp = tempfile.mkstemp(dir=self.out_dir, prefix="." + final + ".",
                                   suffix=".tmp")
        os.close(fd)
        os.chmod(tmp, 0o666 & ~UMASK)  # mkstemp creates 0600
        self.pending.append((tmp, os.path.join(self.out_dir, final)))
        return tmp

    def commit(self):
        # The JSON goes last: it is what marks the set as complete.
        for tmp, final in sorted(self.pending, key=lambda p: p[1].endswith(".json")):
            os.replace(tmp, final)
        self.pending = []

    def discard(self):
        for tmp, _ in self.pending:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        self.pending = []


def write_bytes(path, save):
    """Serialize through memory: torch.save/torch.jit.save name the zip
    archive's root after the file, which would put the random temporary name
    into the file and make the bytes differ from run to run."""
    buf = io.BytesIO()
    save(buf)
    with open(path, "wb") as f:
        f.write(buf.getvalue())


def generate(name, out_dir):
    import torch
    builder, description = REGISTRY[name]

    torch.manual_seed(MODEL_SEED)
    spec = builder()
    model = spec.model
    model.train(spec.training)
    torch.manual_seed(INPUT_SEED)
    inputs = spec.inputs()
    grad_ctx = torch.no_grad if spec.no_grad else contextlib.nullcontext

    # Module-call analysis on a copy, so that train-mode forwards cannot
    # touch the state of the model that is traced.
    probe = copy.deepcopy(model)
    with grad_ctx():
        hooks = hook_analysis(probe, inputs)
    del probe

    # Eval-mode twin of a train-mode model (reference outputs, NAME.eval.pt).
    eval_model = copy.deepcopy(model).eval() if spec.training else model

    with warnings.catch_warnings(record=True) as caught, grad_ctx():
        warnings.simplefilter("always")
        # check_trace re-traces under no_grad, where MultiheadAttention may
        # take its fast path: the graphs then differ legitimately. The trace
        # is checked below by comparing the loaded module against eager.
        traced = torch.jit.trace(model, tuple(inputs), check_trace=False)
        eval_traced = None
        if spec.training:
            eval_traced = torch.jit.trace(eval_model, tuple(inputs), check_trace=False)
    trace_warnings = sorted({str(w.message).strip()[:300] for w in caught})

    writer = AtomicWriter(out_dir, name)
    try:
        pt_tmp = writer.temp(name + ".pt")
        write_bytes(pt_tmp, lambda f: torch.jit.save(traced, f))
        loaded = torch.jit.load(pt_tmp)
        if eval_traced is not None:
            eval_tmp = writer.temp(name + ".eval.pt")
            write_bytes(eval_tmp, lambda f: torch.jit.save(eval_traced, f))
            reference = torch.jit.load(eval_tmp)
            reference_file = name + ".eval.pt"
        else:
            reference = loaded
            reference_file = name + ".pt"

        # Reference outputs: the loaded, deterministic (eval-mode) TorchScript
        # module; checked against the eager module in the same conditions.
        reference.eval()
        with torch.no_grad():
            outputs = [t.detach() for t in flatten_outputs(reference(*inputs))]
        with grad_ctx():
            eager = [t.detach() for t in flatten_outputs(eval_model(*inputs))]
        diff = max_abs_diff(outputs, eager)
        if diff > 1e-4:
            raise RuntimeError("%s: TorchScript and eager outputs differ by %g" % (name, diff))

        io_tmp = writer.temp(name + ".io.pt")
        io_data = {"inputs": [t.clone() for t in inputs],
                   "outputs": [t.clone() for t in outputs]}
        write_bytes(io_tmp, lambda f: torch.save(io_data, f))

        functional_by_scope, functional_in_leaf = functional_dropout_analysis(
            traced, model, hooks["leaf_paths"])
        functional = sum(functional_by_scope.values())
        module_dropouts = sum(hooks["dropout_by_class"].values())
        shapes, names_matched = value_shapes(traced, loaded)
        params = list(model.parameters())
        inlined = traced.inlined_graph
        ops = op_counts(inlined)

        info = collections.OrderedDict()
        info["name"] = name
        info["description"] = description
        info["module_class"] = qualname(type(model))
        info["notes"] = spec.notes
        info["torch_version"] = torch.__version__
        info["files"] = output_files(name, spec.training)
        info["input_shapes"] = [mav_type(t.shape, t.dtype) for t in inputs]
        info["input_dtypes"] = [dtype_name(t.dtype) for t in inputs]
        info["reference_inputs_seed"] = INPUT_SEED
        info["reference_inputs_generator"] = (
            spec.input_generators or ["torch.randn(shape)"] * len(inputs))
        info["model_seed"] = MODEL_SEED
        info["training"] = bool(spec.training)
        info["traced_under_no_grad"] = bool(spec.no_grad)
        info["param_count"] = sum(p.numel() for p in params)
        info["trainable_param_count"] = sum(p.numel() for p in params if p.requires_grad)
        info["buffer_count"] = sum(b.numel() for b in model.buffers())
        info["state_dict_keys"] = state_dict_entries(loaded)
        info["dropout_modules"] = hooks["dropout_by_class"]
        info["dropout_module_count"] = module_dropouts
        info["functional_dropout_count"] = functional
        info["functional_dropout_by_scope"] = functional_by_scope
        info["functional_dropout_inside_leaf_count"] = functional_in_leaf
        info["dropout_count"] = module_dropouts + functional
        info["leaf_module_calls"] = len(hooks["leaf_sequence"])
        info["leaf_modules_by_class"] = hooks["leaf_by_class"]
        info["leaf_module_call_sequence"] = hooks["leaf_sequence"]
        info["leaf_module_output_types"] = hooks["leaf_outputs"]
        info["module_calls_by_class"] = hooks["calls_by_class"]
        info["transformer_encoder_layer_fwd"] = "aten::_transformer_encoder_layer_fwd" in ops
        info["output_shapes"] = [list(t.shape) for t in outputs]
        info["output_types"] = [mav_type(t.shape, t.dtype) for t in outputs]
        info["output_dtypes"] = [dtype_name(t.dtype) for t in outputs]
        info["outputs_mode"] = "eval"
        info["outputs_reference"] = reference_file
        info["reference_is_stochastic"] = bool(
            spec.training and any(k in DROPOUT_ATEN_OPS for k in ops))
        info["eager_vs_torchscript_max_abs_diff"] = diff
        info["io_file"] = name + ".io.pt"
        info["inlined_op_counts"] = ops
        info["inlined_node_count"] = sum(1 for _ in _all_nodes(inlined))
        info["trace_warnings"] = trace_warnings
        info["value_shapes_loaded_names_matched"] = names_matched
        info["value_shapes"] = shapes

        json_tmp = writer.temp(name + ".json")
        with open(json_tmp, "w") as f:
            json.dump(info, f, indent=1)
            f.write("\n")
        writer.commit()
    finally:
        writer.discard()


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Generate TorchScript test models and PyTorch reference values for mav.")
    parser.add_argument("--out", metavar="DIR", help="output directory (created if missing)")
    parser.add_argument("--only", metavar="NAME", nargs="+", action="append", default=[],
                        help="generate only these models (repeatable)")
    parser.add_argument("--list", action="store_true", help="print the model names and exit")
    parser.add_argument("--force", action="store_true",
                        help="regenerate even if the files are up to date")
    args = parser.parse_args(argv)

    if args.list:
        for name in REGISTRY:
            print(name)
        return 0
    if not args.out:
        parser.error("--out DIR is required")

    names = [n for group in args.only for n in group] or list(REGISTRY)
    unknown = [n for n in names if n not in REGISTRY]
    if unknown:
        parser.error("unknown model(s): %s (see --list)" % ", ".join(unknown))
    names = list(collections.OrderedDict.fromkeys(names))

    out_dir = os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)
    script_mtime = os.path.getmtime(os.path.realpath(__file__))

    todo = [n for n in names if args.force or not is_fresh(out_dir, n, script_mtime)]
    if not todo:
        return 0

    import torch
    torch.set_num_threads(1)  # deterministic, and the machine is shared

    failures = 0
    for name in todo:
        lock_path = os.path.join(out_dir, "." + name + ".lock")
        with open(lock_path, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            # Another process may have generated it while we waited.
            if not args.force and is_fresh(out_dir, name, script_mtime):
                continue
            start = time.time()
            try:
                generate(name, out_dir)
            except Exception as e:  # report, go on with the other models
                failures += 1
                print("generate.py: error: %s: %s: %s" % (name, type(e).__name__, e),
                      file=sys.stderr)
                continue
            print("generate.py: %s: %.1fs" % (name, time.time() - start), file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
