#!/usr/bin/python3
"""Generate the real-model fixtures of mav's test suite.

Usage:
    /usr/bin/python3 test/models/generate.py --out DIR [--only NAME ...] [--list]

For every model NAME this writes, into DIR:
    NAME.pt       TorchScript module (torch.jit.trace, saved with torch.jit.save)
    NAME.json     reference values, all computed by PyTorch here (see README.md)
    NAME.io.pt    torch.save({"inputs": (...), "outputs": (...)}) on the example input
    NAME.eval.pt  only for models traced in train mode: the same module traced
                  in eval mode, a deterministic reference for `mav-run --reference`

Every model is made meaningful before it is traced (make_meaningful: its
outputs are of order 1 and depend on the input), and generation fails for a
model whose outputs are not (see README.md, "Meaningful outputs").

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
    "torch.bool": "i1", "torch.complex64": "complex<f32>",
    "torch.complex128": "complex<f64>",
}


# --------------------------------------------------------------------------
# Model registry. Builders import torch lazily and return a Spec.
# --------------------------------------------------------------------------

class Spec:
    def __init__(self, model, inputs, training=False, no_grad=False,
                 input_generators=None, notes="", strict=True, entry_exit=True,
                 script=False, hardware_ranges=False):
        self.model = model              # nn.Module
        self.inputs = inputs            # callable () -> list of tensors
        self.training = training        # trace in train mode
        self.no_grad = no_grad          # trace (and analyse) under no_grad
        self.input_generators = input_generators
        self.notes = notes
        self.strict = strict            # torch.jit.trace(strict=...): False
                                        # lets a model return dicts or lists
        self.entry_exit = entry_exit    # False: no entry_exit fields (the
                                        # analysis cannot walk this model)
        self.script = script            # torch.jit.script instead of trace:
                                        # keeps control flow (for refusals)
        self.hardware_ranges = hardware_ranges  # check_hardware_ranges: outputs
                                        # spread, of order 1, activations
                                        # within ACTIVATION_BOUND


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


def _attention_classes():
    """Attention outside the fused fast paths, whose traced bodies keep no
    head count (-mav-count-flops counts them from their bodies)."""
    import torch
    import torch.nn as nn

    def padding_mask(batch, length, padded):
        mask = torch.zeros(batch, length, dtype=torch.bool)
        mask[-1, length - padded:] = True  # the last sequence is shorter
        return mask

    class CrossAttention(nn.Module):
        """Queries from the first 5 positions of x, keys and values from
        all 7 through their own projections (kdim, vdim)."""

        def __init__(self, batch_first, kdim, vdim, masks):
            super().__init__()
            self.batch_first = batch_first
            self.key = nn.Linear(32, kdim)
            self.value = nn.Linear(32, vdim)
            self.attn = nn.MultiheadAttention(32, 4, batch_first=batch_first,
                                              kdim=kdim, vdim=vdim)
            # A float attention mask (added to the scores: aten::baddbmm)
            # and a key padding mask, as buffers.
            self.register_buffer(
                "attn_mask", torch.triu(torch.full((5, 7), -1.0), 3)
                if masks else None)
            self.register_buffer(
                "key_padding_mask", padding_mask(2, 7, 2) if masks else None)

        def forward(self, x):
            query = x[:, :5] if self.batch_first else x[:5]
            out, weights = self.attn(query, self.key(x), self.value(x),
                                     attn_mask=self.attn_mask,
                                     key_padding_mask=self.key_padding_mask)
            return out, weights

    class MaskedEncoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = _encoder()
            self.register_buffer("padding", padding_mask(2, 5, 2))

        def forward(self, x):
            return self.encoder(x, src_key_padding_mask=self.padding)

    classes = (CrossAttention, MaskedEncoder)
    for c in classes:
        c.__module__ = "mav_test_models"
        c.__qualname__ = c.__name__
    return classes


@register("attention_seq_first", "nn.MultiheadAttention(32, 4) (batch_first="
          "False) as cross-attention: query the first 5 of 7 positions, key "
          "and value through Linear(32,32), a float attn_mask and a key "
          "padding mask, attention weights returned, eval mode, input "
          "7x2x32 (seq, batch, d)")
def _attention_seq_first():
    attention = _attention_classes()[0]
    return Spec(attention(False, 32, 32, True), _randn(7, 2, 32))


@register("attention_batch_first_kvdim", "nn.MultiheadAttention(32, 4, "
          "batch_first=True, kdim=24, vdim=16) as cross-attention: query the "
          "first 5 of 7 positions, key and value through Linear(32,24) and "
          "Linear(32,16), no mask, eval mode, input 2x7x32 (batch, seq, d)")
def _attention_batch_first_kvdim():
    attention = _attention_classes()[0]
    return Spec(attention(True, 24, 16, False), _randn(2, 7, 32))


@register("transformer_encoder_masked_train", "the encoder of "
          "transformer_encoder_train with a src_key_padding_mask (the last "
          "sequence 3 long), traced in train mode, input 5x2x32")
def _transformer_encoder_masked_train():
    encoder = _attention_classes()[1]
    return Spec(encoder(), _randn(5, 2, 32), training=True,
                notes="traced in train mode: the dropouts are live")


@register("transformer_encoder_masked_eval", "the encoder of "
          "transformer_encoder_eval with a src_key_padding_mask (the last "
          "sequence 3 long), traced in eval mode under torch.no_grad(), "
          "input 5x2x32")
def _transformer_encoder_masked_eval():
    encoder = _attention_classes()[1]
    return Spec(encoder(), _randn(5, 2, 32), no_grad=True,
                notes="batch_first=False: torch 1.13 takes neither the fused "
                      "layer nor the nested-tensor path")


def _custom_classes():
    """Small nn.Modules defined here. Their __module__ is pinned so that their
    qualified names do not depend on how this script is run."""
    import torch
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

    class SharedScale(nn.Module):
        """A parameter prepared once and used twice: where its
        learnable-only path fans out is a learn-split point."""

        def __init__(self):
            super().__init__()
            self.log_scale = nn.Parameter(torch.zeros(16))
            self.fc = nn.Linear(16, 16)

        def forward(self, x):
            scale = self.log_scale.exp()
            return self.fc(x * scale) * scale

    classes = (MLPFunctionalDropout, TiedEmbeddingLM, PlainCNN, SelfAttention,
               SharedScale)
    for c in classes:
        c.__module__ = "mav_test_models"
        c.__qualname__ = c.__name__
    return classes


@register("mlp_functional_dropout", "Linear(16,32) -> ReLU -> F.dropout(p=0.5, "
          "training=self.training) -> Linear(32,4), eval mode, input 2x16")
def _mlp_functional_dropout():
    mlp = _custom_classes()[0]
    return Spec(mlp(), _randn(2, 16))


@register("tied_embedding_lm", "Embedding(50,16) tied to Linear(16,50,bias=False), "
          "one TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32) "
          "in between, eval mode, input int64 tokens 2x7 (batch, seq)")
def _tied_embedding_lm():
    import torch
    lm = _custom_classes()[1]
    return Spec(lm(), lambda: [torch.randint(0, 50, (2, 7), dtype=torch.int64)],
                input_generators=["torch.randint(0, 50, shape, dtype=torch.int64)"],
                notes="embed.weight and head.weight are the same Parameter")


@register("transformer_encoder_padding_mask", "nn.TransformerEncoder("
          "TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, "
          "batch_first=True), num_layers=2) given src_key_padding_mask, traced "
          "in eval mode under torch.no_grad(): the nested-tensor fast path. "
          "The mask comes from an int64 input: sequence i keeps its first "
          "lengths[i] % 6 + 1 tokens; inputs 3x6x16 and lengths 3")
def _transformer_encoder_padding_mask():
    import torch
    import torch.nn as nn

    class PaddedEncoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(
                16, 2, 32, batch_first=True), 2)

        def forward(self, x, lengths):
            kept = lengths % x.shape[1] + 1
            mask = torch.arange(x.shape[1]).unsqueeze(0) >= kept.unsqueeze(1)
            return self.encoder(x, src_key_padding_mask=mask)

    # The longest sequence keeps 5 of the 6 tokens: the output is cut.
    return Spec(PaddedEncoder(),
                lambda: [torch.randn(3, 6, 16), torch.tensor([4, 1, 2])],
                no_grad=True,
                input_generators=["torch.randn(shape)",
                                  "torch.randint(0, 50, shape, "
                                  "dtype=torch.int64)"],
                notes="the traced output is 3x5x16: to_padded_tensor cuts to "
                      "the longest sequence")


@register("self_attention_fastpath", "nn.MultiheadAttention(32, 4, batch_first="
          "True) called as self-attention without weights, traced in eval mode "
          "under torch.no_grad(), input 2x5x32: takes the fused "
          "aten::_native_multi_head_attention path")
def _self_attention_fastpath():
    attention = _custom_classes()[3]
    return Spec(attention(), _randn(2, 5, 32), no_grad=True,
                notes="aten::_native_multi_head_attention has no meta kernel "
                      "in libtorch 1.13")


@register("shared_scale", "a parameter log_scale (16) prepared once (exp) and "
          "used twice, around Linear(16,16), eval mode, input 2x16")
def _shared_scale():
    import torch
    model = _custom_classes()[4]()
    with torch.no_grad():
        model.log_scale.copy_(torch.randn(16) * 0.1)
    return Spec(model, _randn(2, 16),
                notes="the exp of log_scale fans out: a learn-split point")


@register("plain_cnn", "Conv2d(3,8,3,pad=1) -> BatchNorm2d(8) -> ReLU -> MaxPool2d(2) "
          "-> Flatten -> Linear(512,10), eval mode, input 1x3x16x16")
def _plain_cnn():
    import torch
    cnn = _custom_classes()[2]
    m = cnn()
    with torch.no_grad():  # non-trivial BatchNorm statistics and affine
        m.bn.running_mean.copy_(torch.randn(8) * 0.1)
        m.bn.running_var.copy_(torch.rand(8) + 0.5)
        m.bn.weight.copy_(torch.rand(8) + 0.5)
        m.bn.bias.copy_(torch.randn(8) * 0.1)
    return Spec(m, _randn(1, 3, 16, 16),
                notes="BatchNorm running stats and affine parameters are random")


# Batch norm folding (issue 17): each BatchNorm follows a conv or linear
# layer in one of the forms -mav-fold-batchnorm must handle, with random
# running statistics and affine parameters.

def _randomise_batchnorms(model):
    import torch
    import torch.nn as nn
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.modules.batchnorm._BatchNorm):
                n = m.num_features
                m.running_mean.copy_(torch.randn(n) * 0.5)
                m.running_var.copy_(torch.rand(n) * 2 + 0.1)
                if m.affine:
                    m.weight.copy_(torch.randn(n))
                    m.bias.copy_(torch.randn(n) * 0.5)
    return model


def _bn_fold_classes():
    """Modules of the bn_fold_* models; __module__ pinned as in
    _custom_classes."""
    import torch.nn as nn

    class BNFoldConv(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv_bias = nn.Conv2d(3, 8, 3, padding=1, bias=True)
            self.bn_bias = nn.BatchNorm2d(8)
            self.depthwise = nn.Conv2d(8, 8, 3, padding=1, groups=8,
                                       bias=False)
            self.bn_depthwise = nn.BatchNorm2d(8)
            self.grouped = nn.Conv2d(8, 12, 1, groups=4, bias=False)
            self.bn_plain = nn.BatchNorm2d(12, affine=False)
            self.shared = nn.Conv2d(12, 12, 3, padding=1, bias=False)
            self.bn_shared = nn.BatchNorm2d(12)
            self.relu = nn.ReLU()

        def forward(self, x):
            x = self.relu(self.bn_bias(self.conv_bias(x)))
            x = self.relu(self.bn_depthwise(self.depthwise(x)))
            x = self.bn_plain(self.grouped(x))
            y = self.shared(x)
            return self.bn_shared(y) + y  # y has two users: not folded

    class BNFoldLinear(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(16, 12)
            self.bn_fc = nn.BatchNorm1d(12)
            self.conv1d = nn.Conv1d(4, 6, 2, bias=False)
            self.bn_conv1d = nn.BatchNorm1d(6)
            self.head = nn.Linear(12, 5, bias=False)
            self.bn_head = nn.BatchNorm1d(5)

        def forward(self, x):  # x: (2, 16)
            x = self.bn_fc(self.fc(x)).relu()
            x = self.bn_conv1d(self.conv1d(x.view(2, 4, 3))).flatten(1)
            return self.bn_head(self.head(x))

    classes = (BNFoldConv, BNFoldLinear)
    for c in classes:
        c.__module__ = "mav_test_models"
        c.__qualname__ = c.__name__
    return classes


@register("bn_fold_conv", "Conv2d(bias) -> BatchNorm2d, depthwise Conv2d -> "
          "BatchNorm2d, grouped Conv2d -> BatchNorm2d(affine=False), Conv2d "
          "whose result also feeds an add -> BatchNorm2d; random BN statistics, "
          "eval mode, input 1x3x8x8")
def _bn_fold_conv():
    m = _randomise_batchnorms(_bn_fold_classes()[0]())
    return Spec(m, _randn(1, 3, 8, 8),
                notes="BatchNorm running stats and affine parameters are random")


@register("bn_fold_linear", "Linear -> BatchNorm1d, Conv1d -> BatchNorm1d, "
          "Linear(bias=False) -> BatchNorm1d; random BN statistics, eval mode, "
          "input 2x16")
def _bn_fold_linear():
    m = _randomise_batchnorms(_bn_fold_classes()[1]())
    return Spec(m, _randn(2, 16),
                notes="BatchNorm running stats and affine parameters are random")


@register("unused_params", "Linear(8,8) -> ReLU -> Linear(8,4), with a "
          "Linear(8,8) 'spare' and a Parameter 'unused_scale' that forward "
          "never uses; eval mode, input 2x8")
def _unused_params():
    import torch
    import torch.nn as nn

    class UnusedParams(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(8, 8)
            self.spare = nn.Linear(8, 8)
            self.fc2 = nn.Linear(8, 4)
            self.unused_scale = nn.Parameter(torch.ones(8))

        def forward(self, x):
            return self.fc2(torch.relu(self.fc1(x)))

    UnusedParams.__module__ = "mav_test_models"
    return Spec(UnusedParams(), _randn(2, 8),
                notes="spare.* and unused_scale are never used in forward")


@register("ops_einsum", "einsum('bij,bjk->bik') + bmm + matmul of inputs "
          "2x3x4 and 2x4x5, then einsum('bik->bk') (a sum)")
def _ops_einsum():
    import torch
    import torch.nn as nn

    class Contractions(nn.Module):
        def forward(self, a, b):
            product = torch.einsum("bij,bjk->bik", a, b)
            product = product + torch.bmm(a, b) + torch.matmul(a, b)
            return torch.einsum("bik->bk", product)

    Contractions.__module__ = "mav_test_models"
    return Spec(Contractions(),
                lambda: [torch.randn(2, 3, 4), torch.randn(2, 4, 5)],
                notes="contractions the profiler counts as bmm")


@register("frozen_stem", "Sequential(Conv2d(3,8,3) frozen, BatchNorm2d(8) "
          "frozen, ReLU, Flatten, Linear(1568,4)): the stem's parameters have "
          "requires_grad=False; eval mode, input 1x3x16x16")
def _frozen_stem():
    import torch.nn as nn
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(),
                          nn.Flatten(), nn.Linear(8 * 14 * 14, 4))
    for parameter in list(model[0].parameters()) + list(model[1].parameters()):
        parameter.requires_grad_(False)
    return Spec(model, _randn(1, 3, 16, 16),
                notes="frozen parameters: a summary counts them apart")


# The hardware flow (issue 17): the three designs simulated bit for bit.
# Every tensor size is a multiple of 4, so parallelism 1, 2 and 4 all fit.

def _hw_classes():
    """Modules of the hw_* models; __module__ pinned as in _custom_classes."""
    import torch
    import torch.nn as nn

    class HwMLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(16, 16)
            self.bn1 = nn.BatchNorm1d(16)
            self.fc2 = nn.Linear(16, 8)
            self.bn2 = nn.BatchNorm1d(8)
            self.fc3 = nn.Linear(8, 4)
            self.relu = nn.ReLU()

        def forward(self, x):  # x: (2, 16)
            x = self.relu(self.bn1(self.fc1(x)))
            x = self.relu(self.bn2(self.fc2(x)))
            return self.fc3(x)

    class HwCNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 4, 3, padding=1)
            self.bn = nn.BatchNorm2d(4)
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(2)
            self.flatten = nn.Flatten()
            self.fc = nn.Linear(64, 8)

        def forward(self, x):  # x: (1, 3, 8, 8)
            x = self.pool(self.relu(self.bn(self.conv(x))))
            return self.fc(self.flatten(x))

    class HwResidual(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(4, 4, 3, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(4)
            self.conv2 = nn.Conv2d(4, 4, 3, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(4)
            self.relu = nn.ReLU()
            self.pool = nn.AdaptiveAvgPool2d(1)
            self.fc = nn.Linear(4, 4)

        def forward(self, x):  # x: (1, 4, 6, 6)
            y = self.relu(self.bn1(self.conv1(x)))
            y = self.bn2(self.conv2(y))
            y = self.relu(y + x)
            return self.fc(self.pool(y).flatten(1))

    class HwRanges(nn.Module):
        """Layers whose ranges differ: conv2's weights and bias are scaled
        by 50, so its activations are tens of times conv1's. One format
        for every layer either saturates conv2 or rounds conv1 coarsely."""

        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 4, 3, padding=1)
            self.relu1 = nn.ReLU()
            self.conv2 = nn.Conv2d(4, 4, 3, padding=1)
            self.relu2 = nn.ReLU()
            self.pool = nn.MaxPool2d(2)
            self.flatten = nn.Flatten()
            self.fc = nn.Linear(64, 8)
            with torch.no_grad():
                self.conv2.weight.mul_(50)
                self.conv2.bias.mul_(50)

        def forward(self, x):  # x: (1, 3, 8, 8)
            x = self.relu2(self.conv2(self.relu1(self.conv1(x))))
            return self.fc(self.flatten(self.pool(x)))

    classes = (HwMLP, HwCNN, HwResidual, HwRanges)
    for c in classes:
        c.__module__ = "mav_test_models"
        c.__qualname__ = c.__name__
    return classes


@register("hw_mlp", "hardware flow: Linear(16,16) -> BatchNorm1d -> ReLU -> "
          "Linear(16,8) -> BatchNorm1d -> ReLU -> Linear(8,4); random BN "
          "statistics, input 2x16")
def _hw_mlp():
    return Spec(_randomise_batchnorms(_hw_classes()[0]()), _randn(2, 16))


@register("hw_cnn", "hardware flow: Conv2d(3,4,3,pad 1) -> BatchNorm2d -> "
          "ReLU -> MaxPool2d(2) -> Flatten -> Linear(64,8); random BN "
          "statistics, input 1x3x8x8")
def _hw_cnn():
    return Spec(_randomise_batchnorms(_hw_classes()[1]()), _randn(1, 3, 8, 8))


@register("hw_residual", "hardware flow: a residual block, conv-bn-relu-"
          "conv-bn + x -> ReLU -> AdaptiveAvgPool2d(1) -> flatten -> "
          "Linear(4,4); random BN statistics, input 1x4x6x6")
def _hw_residual():
    return Spec(_randomise_batchnorms(_hw_classes()[2]()), _randn(1, 4, 6, 6))


@register("hw_unfit", "hardware flow refusals: Conv2d(3,4,3,dilation=2) -> "
          "ReLU, which no component computes (dilation), input 1x3x8x8")
def _hw_unfit():
    import torch.nn as nn
    return Spec(nn.Sequential(nn.Conv2d(3, 4, 3, dilation=2), nn.ReLU()),
                _randn(1, 3, 8, 8))


# The hardware flow on unmodified torchvision models (issue 29), at 1x3x32x32,
# eval mode, random BatchNorm statistics, then made meaningful by
# lsuv_rescale and checked by check_hardware_ranges (below).

HW_INPUT_SHAPE = (1, 3, 32, 32)


def _hw_torchvision(fn_name, **kw):
    """torchvision.models.FN_NAME(weights=None, **kw), unmodified, in eval
    mode, with random BatchNorm statistics (_randomise_batchnorms), rescaled
    by lsuv_rescale on the calibration batch; generate() checks it with
    check_hardware_ranges (Spec.hardware_ranges)."""
    import torch
    import torchvision
    model = getattr(torchvision.models, fn_name)(weights=None, **kw).eval()
    _randomise_batchnorms(model)
    generator = torch.Generator().manual_seed(CALIBRATION_SEED)
    calibration = torch.randn((HW_CALIBRATION_DRAWS,) + HW_INPUT_SHAPE[1:],
                              generator=generator)
    lsuv_rescale(model, [calibration])
    return Spec(model, _randn(*HW_INPUT_SHAPE), hardware_ranges=True,
                notes="random BatchNorm statistics, then LSUV rescaling "
                      "(lsuv_rescale) on %d calibration inputs"
                      % HW_CALIBRATION_DRAWS)


@register("hw_resnet18", "hardware flow: torchvision resnet18, num_classes=10; "
          "random BN statistics, LSUV-rescaled, input 1x3x32x32")
def _hw_resnet18():
    return _hw_torchvision("resnet18", num_classes=10)


@register("hw_mobilenet_v2", "hardware flow: torchvision mobilenet_v2, "
          "num_classes=10, width_mult=0.5; random BN statistics, "
          "LSUV-rescaled, input 1x3x32x32")
def _hw_mobilenet_v2():
    return _hw_torchvision("mobilenet_v2", num_classes=10, width_mult=0.5)


@register("hw_mobilenet_v3_small", "hardware flow: torchvision "
          "mobilenet_v3_small, num_classes=10; random BN statistics, "
          "LSUV-rescaled, input 1x3x32x32")
def _hw_mobilenet_v3_small():
    return _hw_torchvision("mobilenet_v3_small", num_classes=10)


@register("hw_squeezenet1_1", "hardware flow: torchvision squeezenet1_1, "
          "num_classes=10 (no BatchNorm); LSUV-rescaled, input 1x3x32x32")
def _hw_squeezenet1_1():
    return _hw_torchvision("squeezenet1_1", num_classes=10)


@register("hw_squeezenet1_0", "hardware flow, another of the contract "
          "families: torchvision squeezenet1_0, num_classes=10 (no "
          "BatchNorm); LSUV-rescaled, input 1x3x32x32")
def _hw_squeezenet1_0():
    return _hw_torchvision("squeezenet1_0", num_classes=10)


@register("hw_mobilenet_v3_large", "hardware flow, another of the contract "
          "families: torchvision mobilenet_v3_large, num_classes=10; random "
          "BN statistics, LSUV-rescaled, input 1x3x32x32")
def _hw_mobilenet_v3_large():
    return _hw_torchvision("mobilenet_v3_large", num_classes=10)


@register("hw_ranges", "hardware flow, calibration: Conv2d(3,4,3,pad 1) -> "
          "ReLU -> Conv2d(4,4,3,pad 1) with weights and bias x50 -> ReLU -> "
          "MaxPool2d(2) -> Flatten -> Linear(64,8); input 1x3x8x8")
def _hw_ranges():
    return Spec(_hw_classes()[3](), _randn(1, 3, 8, 8))


# Operator coverage (issue 12): small torch.nn models that use the operators
# added to the op registry for it, each in a real module.

def _ops_classes():
    """Modules of the ops_* models; __module__ pinned as in _custom_classes."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

    class Recurrent(nn.Module):
        """LSTM, GRU and RNN layers and their cells on a padded batch."""

        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(8, 6, num_layers=2, bidirectional=True)
            self.gru = nn.GRU(12, 6, batch_first=True)
            self.rnn = nn.RNN(6, 5, nonlinearity="relu")
            self.lstm_cell = nn.LSTMCell(5, 4)
            self.gru_cell = nn.GRUCell(4, 4)
            self.rnn_cell = nn.RNNCell(4, 3)

        def forward(self, x):  # x: (seq, batch, 8)
            y, (h, c) = self.lstm(x)
            y, h_gru = self.gru(y.transpose(0, 1))
            y, h_rnn = self.rnn(y.transpose(0, 1))
            hx, cx = self.lstm_cell(y[-1])
            g = self.gru_cell(hx)
            return self.rnn_cell(g), h, c, h_gru, h_rnn, cx

    class RecurrentPacked(nn.Module):
        """LSTM and GRU over a packed sequence; the lengths are a buffer."""

        def __init__(self):
            super().__init__()
            self.register_buffer("lengths", torch.tensor([5, 3, 2]))
            self.lstm = nn.LSTM(8, 6)
            self.gru = nn.GRU(6, 4, bidirectional=True)

        def forward(self, x):  # x: (seq=5, batch=3, 8), sorted lengths
            packed = pack_padded_sequence(x, self.lengths)
            y, _ = self.lstm(packed)
            y, _ = self.gru(y)
            out, lengths = pad_packed_sequence(y, total_length=5)
            return out

    class VisionLayers(nn.Module):
        def __init__(self):
            super().__init__()
            self.mish = nn.Mish()
            self.shuffle = nn.PixelShuffle(2)
            self.unshuffle = nn.PixelUnshuffle(2)
            self.up_bilinear = nn.Upsample(scale_factor=2, mode="bilinear",
                                           align_corners=False)
            self.up_nearest = nn.UpsamplingNearest2d(scale_factor=2)
            self.up_bilinear2d = nn.UpsamplingBilinear2d(size=(8, 8))
            self.lrn = nn.LocalResponseNorm(3)
            self.softmin = nn.Softmin(dim=1)
            self.bilinear = nn.Bilinear(16, 16, 8)
            self.channel_shuffle = nn.ChannelShuffle(2)

        def forward(self, x):  # x: (1, 8, 8, 8)
            y = self.mish(x)
            y = self.unshuffle(self.shuffle(y))              # 1x8x8x8
            y = self.lrn(self.channel_shuffle(y))
            small = F.avg_pool2d(y, 2)                       # 1x8x4x4
            up = self.up_bilinear(small) + self.up_nearest(small)
            up = up + self.up_bilinear2d(small)
            up = up + F.interpolate(small, size=(8, 8), mode="nearest")
            up = up + F.interpolate(small, scale_factor=2.0, mode="bilinear",
                                    align_corners=True)
            theta = torch.tensor([[[0.9, 0.1, 0.0], [-0.1, 0.9, 0.05]]])
            grid = F.affine_grid(theta, [1, 8, 6, 6], align_corners=False)
            sampled = F.grid_sample(up, grid, align_corners=False)  # 1x8x6x6
            probs = self.softmin(sampled)
            flat = probs.flatten(2).transpose(1, 2)          # 1x36x8
            pair = self.bilinear(flat[..., :4].repeat(1, 1, 4),
                                 flat[..., 4:].repeat(1, 1, 4))
            return pair, probs

    class Indexing(nn.Module):
        """Functional indexing, sorting, scattering and creation ops."""

        def forward(self, x):  # x: (4, 6) float
            order = x.argsort(dim=1)                          # int64 in [0, 6)
            top, top_index = x.topk(3, dim=1)
            ordered, _ = x.sort(dim=1, descending=True)
            picked = x.gather(1, top_index)
            scattered = torch.zeros_like(x).scatter(1, order, ordered)
            summed = torch.zeros_like(x).scatter_add(1, order, x)
            hot = F.one_hot(order[:, 0], num_classes=6).float()
            running = torch.cumsum(x, dim=1).flip(1)
            mixed = torch.einsum("ij,kj->ik", x, hot)          # 4x4
            upper = torch.triu(mixed, diagonal=1)
            rows = torch.triu_indices(4, 4, 1)
            pairs = mixed[rows[0], rows[1]]                    # 6 values
            norms = x.norm(dim=1) + torch.linalg.vector_norm(x, dim=1)
            norms = norms + torch.norm(x, p=1, dim=1)
            a, b = torch.meshgrid(torch.linspace(0, 1, 4),
                                  torch.linspace(-1, 1, 6), indexing="ij")
            inverse = (x.abs() + 1).reciprocal()
            mask = (x > 0) & (x < 1)
            clamped = torch.clamp_min(x, 0.1)
            buffer = torch.empty_like(x)
            buffer.zero_()
            buffer.copy_(x * 2)
            return (top, picked, scattered, summed, running + a + b, upper,
                    pairs, norms, inverse, mask, clamped + buffer,
                    ordered.flip(0))

    class EmbeddingBags(nn.Module):
        def __init__(self):
            super().__init__()
            self.mean = nn.EmbeddingBag(50, 8, mode="mean")
            self.sum = nn.EmbeddingBag(50, 8, mode="sum")

        def forward(self, tokens):  # tokens: (batch, bag) int64
            offsets = torch.arange(0, tokens.numel(), tokens.size(1))
            return self.mean(tokens), self.sum(tokens.flatten(), offsets)

    classes = (Recurrent, RecurrentPacked, VisionLayers, Indexing,
               EmbeddingBags)
    for c in classes:
        c.__module__ = "mav_test_models"
        c.__qualname__ = c.__name__
    return classes


@register("ops_rnn", "nn.LSTM(8,6,2 layers,bidirectional) -> nn.GRU(12,6,"
          "batch_first) -> nn.RNN(6,5,relu) -> LSTMCell(5,4) -> GRUCell(4,4) "
          "-> RNNCell(4,3), eval mode, input 5x3x8 (seq, batch, features)")
def _ops_rnn():
    return Spec(_ops_classes()[0](), _randn(5, 3, 8))


@register("ops_rnn_packed", "pack_padded_sequence (lengths 5,3,2 in a buffer) "
          "-> nn.LSTM(8,6) -> nn.GRU(6,4,bidirectional) -> "
          "pad_packed_sequence(total_length=5), eval mode, input 5x3x8")
def _ops_rnn_packed():
    return Spec(_ops_classes()[1](), _randn(5, 3, 8),
                notes="the packed sequence's lengths are a buffer, so that "
                      "random inputs keep them valid")


@register("ops_rnn_packed_decoder", "tokens (0 = padding) -> Embedding(50,8) "
          "-> pack_padded_sequence (lengths counted from the tokens, unsorted) "
          "-> nn.LSTM(8,8) -> nn.GRU(8,6,bidirectional) -> "
          "pad_packed_sequence(total_length=6) -> Linear(12,50), batch_first, "
          "eval mode, input int64 tokens 3x6")
def _ops_rnn_packed_decoder():
    import torch
    import torch.nn as nn
    from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

    class PackedDecoder(nn.Module):
        """A decoder whose packed lengths are computed from its input, so
        that shape propagation does not know their values."""

        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(50, 8)
            self.lstm = nn.LSTM(8, 8, batch_first=True)
            self.gru = nn.GRU(8, 6, batch_first=True, bidirectional=True)
            self.out = nn.Linear(12, 50)

        def forward(self, tokens):
            lengths = (tokens != 0).sum(1).clamp(min=1)
            packed = pack_padded_sequence(self.embed(tokens), lengths,
                                          batch_first=True,
                                          enforce_sorted=False)
            y, _ = self.lstm(packed)
            y, _ = self.gru(y)
            y, _ = pad_packed_sequence(y, batch_first=True,
                                       total_length=tokens.shape[1])
            return self.out(y)

    return Spec(PackedDecoder(),
                lambda: [torch.randint(0, 50, (3, 6), dtype=torch.int64)],
                input_generators=["torch.randint(0, 50, shape, "
                                  "dtype=torch.int64)"],
                notes="the packed lengths depend on the input: aten::lstm.data "
                      "gets its shapes from mav's rule, not from filled "
                      "tensors")


@register("ops_vision_layers", "Mish, PixelShuffle/Unshuffle, ChannelShuffle, "
          "LocalResponseNorm, Upsample (bilinear), UpsamplingNearest2d, "
          "UpsamplingBilinear2d, F.interpolate (nearest, bilinear), "
          "affine_grid + grid_sample, Softmin, Bilinear(16,16,8), eval mode, "
          "input 1x8x8x8")
def _ops_vision_layers():
    return Spec(_ops_classes()[2](), _randn(1, 8, 8, 8))


@register("ops_indexing", "argsort, topk, sort, gather, scatter, scatter_add, "
          "one_hot, cumsum, flip, einsum, triu, triu_indices, norm, "
          "linalg.vector_norm, meshgrid, linspace, reciprocal, &, clamp_min, "
          "empty_like, zero_, copy_, input 4x6")
def _ops_indexing():
    return Spec(_ops_classes()[3](), _randn(4, 6))


@register("ops_embedding_bag", "EmbeddingBag(50,8,mean) on 2-D tokens and "
          "EmbeddingBag(50,8,sum) with offsets, eval mode, input 3x4 int64 "
          "tokens")
def _ops_embedding_bag():
    import torch
    return Spec(_ops_classes()[4](),
                lambda: [torch.randint(0, 50, (3, 4), dtype=torch.int64)],
                input_generators=["torch.randint(0, 50, shape, dtype=torch.int64)"])


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
        # A nested tensor (TransformerEncoder's fast path) has no sizes.
        return ["nested"] if out.is_nested else [mav_type(out.shape,
                                                         out.dtype)]
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
        scope = scope_path(node)
        for v in node.outputs():
            add(v, node.kind(), scope)
    return result, matched


def scope_path(node):
    """The innermost module path of a traced node, "" for the root:
    "__module.a/__module.a.b" -> "a.b"."""
    scope = node.scopeName().split("/")[-1]
    return scope[len("__module."):] if scope.startswith("__module.") else ""


# --------------------------------------------------------------------------
# Entry/exit classification (reference for -mav-classify-entry-exit)
# --------------------------------------------------------------------------

ENTRY_TYPES = ("normal", "learnable", "learn-split", "buffer", "special")
EXIT_TYPES = ("normal", "special")
_SRC_INPUT, _SRC_PARAM, _SRC_BUFFER = 1, 2, 4
_CONSTRUCTS = ("prim::ListConstruct", "prim::TupleConstruct")
_UNPACKS = ("prim::ListUnpack", "prim::TupleUnpack")


def unoptimized_inlined_graph(module):
    """`module.inlined_graph`, fully inlined, without the graph executor's
    optimizations.

    With them on (the default), inlining uses each callee's optimized graph:
    constants are pooled and deduplicated, and aten::Int(prim::NumToTensor(x))
    is folded away. mav's importer inlines the methods' plain graphs, so these
    optimizations are turned off here. Without them each inlining pass expands
    one level of calls, so the pass is repeated until no call is left.

    Callees cache their optimized graph on first use: `module` must be freshly
    loaded and never run. The caller checks this through
    `inlined_node_scopes`, whose walk never sees optimized graphs."""
    import torch
    with torch.jit.optimized_execution(False):
        g = module.inlined_graph
        while any(n.kind() == "prim::CallMethod" for n in g.nodes()):
            torch._C._jit_pass_inline(g)
    return g


def inlined_node_scopes(module):
    """(kind, module path) of every node that full inlining of `module`'s
    forward produces, in order. Walks the methods' own graphs the way mav's
    importer does: a node's scope is the module whose method holds it, which
    is what the tracer records and `scope_path` reads (the loaded module's
    graphs carry no scope names)."""
    import torch
    out = []

    def walk(graph, owner):
        env = {next(iter(graph.inputs())).unique(): owner}
        for node in graph.nodes():
            kind = node.kind()
            if kind == "prim::CallMethod":
                mod, path = env[node.inputsAt(0).unique()]
                walk(mod._c._get_method(node.s("name")).graph, (mod, path))
                continue
            out.append((kind, owner[1]))
            if kind == "prim::GetAttr" and isinstance(node.output().type(),
                                                       torch._C.ClassType):
                mod, path = env[node.inputsAt(0).unique()]
                name = node.s("name")
                env[node.output().unique()] = (
                    getattr(mod, name), path + "." + name if path else name)

    walk(module._c._get_method("forward").graph, (module, ""))
    return out


def entry_exit_analysis(module):
    """Classify the nodes of `module`'s fully inlined forward graph (see the
    README, field `entry_exit`). `module` is a freshly loaded TorchScript
    module. Returns (list of per-node entries, counts)."""
    import torch
    g = unoptimized_inlined_graph(module)  # keep the graph alive
    nodes = list(g.nodes())
    scopes = inlined_node_scopes(module)
    if [k for k, _ in scopes] != [n.kind() for n in nodes]:
        raise RuntimeError("entry_exit: the inlined graph does not match the "
                           "walk of the module's methods")
    for n in nodes:
        if any(True for _ in n.blocks()):
            raise RuntimeError("entry_exit: control flow (%s) in the inlined "
                               "graph" % n.kind())

    def is_tensor(v):
        return isinstance(v.type(), torch._C.TensorType)

    def is_module(v):
        return isinstance(v.type(), torch._C.ClassType)

    src = {}           # value unique -> sources bitmask
    modules = {}       # value unique -> (module, path) for module values
    elements = {}      # value unique -> element Values: folded lists/tuples
    alias = {}         # value unique -> Value: outputs of folded unpacks
    folded_unpack = set()  # output uniques of folded unpack nodes
    producer = {}      # value unique -> index of the emitted node defining it
    emitted = []       # indices into `nodes`
    local_params = {}  # module path -> {name: is trainable parameter}

    def resolve(v):
        while v.unique() in alias:
            v = alias[v.unique()]
        return v

    def sources_of(v):
        return src.get(resolve(v).unique(), 0)

    inputs = list(g.inputs())
    modules[inputs[0].unique()] = (module, "")
    for v in inputs[1:]:
        src[v.unique()] = 0 if is_module(v) else _SRC_INPUT

    for i, n in enumerate(nodes):
        kind = n.kind()
        outs = list(n.outputs())
        if kind == "prim::Constant":
            if is_tensor(n.output()):
                emitted.append(i)
            src[n.output().unique()] = 0
            continue
        if kind == "prim::GetAttr":
            v = n.output()
            owner, path = modules[n.inputsAt(0).unique()]
            name = n.s("name")
            if is_module(v):
                modules[v.unique()] = (getattr(owner, name),
                                       path + "." + name if path else name)
                src[v.unique()] = 0
            elif is_tensor(v):
                if path not in local_params:
                    local_params[path] = {k: p.requires_grad for k, p in
                                          owner.named_parameters(recurse=False)}
                trainable = local_params[path].get(name, False)
                src[v.unique()] = _SRC_PARAM if trainable else _SRC_BUFFER
                emitted.append(i)
            else:
                src[v.unique()] = 0
            continue
        s = 0
        for v in n.inputs():
            if not is_module(v):
                s |= sources_of(v)
        if kind in _CONSTRUCTS:
            elements[n.output().unique()] = list(n.inputs())
            src[n.output().unique()] = s
            continue
        if kind in _UNPACKS:
            packed = elements.get(resolve(n.input()).unique())
            if packed is not None and len(packed) == len(outs):
                for o, e in zip(outs, packed):
                    alias[o.unique()] = e
                    folded_unpack.add(o.unique())
                continue
        for o in outs:
            src[o.unique()] = s
        emitted.append(i)

    for i in emitted:
        for o in nodes[i].outputs():
            producer[o.unique()] = i

    def operands(v, acc):
        """mav's operands for TorchScript value `v`: folded lists and tuples
        are looked through; constants and modules are not operands."""
        v = resolve(v)
        u = v.unique()
        if u in elements:
            for e in elements[u]:
                operands(e, acc)
        elif u in producer or (v.node().kind() == "prim::Param"
                               and not is_module(v)):
            acc.append(v)
        return acc

    def real_uses(v, path=()):
        """Uses of `v` by real nodes (and the return) once lists and tuples
        are folded. `path` holds the element indices of the folded lists
        `v` has been packed into, innermost first."""
        count = 0
        for use in v.uses():
            user = use.user
            kind = user.kind()
            if kind in _CONSTRUCTS:
                count += real_uses(user.output(), (use.offset,) + path)
            elif (kind in _UNPACKS and user.outputsSize() > 0
                  and user.outputsAt(0).unique() in folded_unpack):
                if path:
                    count += real_uses(user.outputsAt(path[0]), path[1:])
            else:
                count += 1
        return count

    node_operands = {i: [o for v in nodes[i].inputs() for o in operands(v, [])]
                     for i in emitted}

    # Entry types; learn-split is the first fan-out on a learnable-only path.
    entry = {}
    split_upstream = {}  # node -> it or a learnable producer upstream is learn-split
    for i in emitted:
        s = 0
        for o in nodes[i].outputs():
            s |= src.get(o.unique(), 0)
        if s & _SRC_INPUT:
            entry[i] = "normal"
        elif s & _SRC_PARAM:
            entry[i] = "learnable"
        elif s & _SRC_BUFFER:
            entry[i] = "buffer"
        else:
            entry[i] = "special"
        if entry[i] != "learnable":
            continue
        upstream = any(split_upstream[producer[v.unique()]]
                       for v in node_operands[i]
                       if v.unique() in producer
                       and entry[producer[v.unique()]] in ("learnable", "learn-split"))
        if not upstream and any(real_uses(o) >= 2 for o in nodes[i].outputs()):
            entry[i] = "learn-split"
        split_upstream[i] = upstream or entry[i] == "learn-split"

    # Exit types: reverse reachability from the graph's return.
    live = set()
    work = [v for r in g.return_node().inputs() for v in operands(r, [])]
    while work:
        v = work.pop()
        i = producer.get(v.unique())
        if i is None or i in live:
            continue
        live.add(i)
        work.extend(node_operands[i])

    result = []
    counts = {"entry": collections.OrderedDict((t, 0) for t in ENTRY_TYPES),
              "exit": collections.OrderedDict((t, 0) for t in EXIT_TYPES)}
    for i in emitted:
        exit_type = "normal" if i in live else "special"
        counts["entry"][entry[i]] += 1
        counts["exit"][exit_type] += 1
        result.append(collections.OrderedDict((
            ("kind", nodes[i].kind()), ("scope", scopes[i][1]),
            ("entry", entry[i]), ("exit", exit_type))))
    return result, counts


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


def as_real(t):
    """A tensor as doubles; a complex one as its real and imaginary parts (a
    trailing dimension of 2), so that no comparison drops the imaginary
    part."""
    import torch
    return torch.view_as_real(t.cdouble()) if t.is_complex() else t.double()


def max_abs_diff(a, b):
    return max([float((as_real(x) - as_real(y)).abs().max()) if x.numel() else 0.0
                for x, y in zip(a, b)] or [0.0])


# --------------------------------------------------------------------------
# Meaningful models (issue 27): every floating-point output is of order 1
# and depends on the input, so that a test comparing it can fail.
# --------------------------------------------------------------------------

CALIBRATION_SEED = 1  # torch.manual_seed before the calibration inputs
CHECK_SEED = 2        # torch.manual_seed before the second (check) inputs
MIN_OUTPUT_MAX_ABS = 1e-2     # every float output: max |y| at least this
MIN_INPUT_DEPENDENCE = 1e-3   # ... and max |y(x) - y(x')| at least this
                              # fraction of max |y(x)|
VANISHING_PARAMETER = 1e-4    # a weight no larger than this is re-drawn
CALIBRATION_DRAWS = 8         # the calibration batch: this many draws of
                              # the inputs, concatenated along dim 0


class MeaninglessModel(Exception):
    """A model whose outputs a test could not tell from wrong ones."""


def _calibrated_classes():
    import torch.nn as nn
    return (nn.Linear, nn.Bilinear, nn.modules.conv._ConvNd)


def reinitialise_vanishing(model):
    """Re-draws the parameters that make a path vanish whatever the input:
    a parameter other than a bias whose largest magnitude is at most
    VANISHING_PARAMETER (torchvision zero-initialises VisionTransformer's
    heads.head and its class_token, and starts ConvNeXt's layer_scale at
    1e-6). The weight of a Linear, Bilinear or convolution is re-drawn with
    the module's own reset_parameters() (its bias too); any other parameter
    from N(0, 1). Returns the names of the re-drawn parameters."""
    import torch
    modules = dict(model.named_modules())
    names = []
    with torch.no_grad():
        for name, p in model.named_parameters():
            owner_path, _, leaf = name.rpartition(".")
            if (not p.is_floating_point() or p.numel() == 0 or "bias" in leaf
                    or float(p.detach().abs().max()) > VANISHING_PARAMETER):
                continue
            owner = modules[owner_path]
            if isinstance(owner, _calibrated_classes()) and leaf == "weight":
                owner.reset_parameters()
            else:
                p.normal_()
            names.append(name)
    return names


def _has_default_statistics(bn):
    import torch
    return (bn.track_running_stats and bn.running_mean is not None
            and bool(torch.all(bn.running_mean == 0))
            and bool(torch.all(bn.running_var == 1)))


def _has_default_affine(bn):
    import torch
    return (bn.affine and bool(torch.all(bn.weight == 1))
            and bool(torch.all(bn.bias == 0)))


def calibrate(model, inputs, rescale):
    """One eval-mode forward of `model` on the calibration `inputs`, in
    which each layer is set from what actually reaches it, in call order,
    so that a layer already sees its calibrated predecessors:

    - a BatchNorm whose running statistics are still the defaults (mean 0,
      variance 1) gets the statistics of its input, per channel, perturbed:
      running_mean = mean + 0.2 * std * N(0, 1), running_var = var *
      U(0.5, 1.5). A channel's variance is at least a tenth of the variance
      of the whole input (a channel seen at one position has none). Default
      affine parameters (1, 0) become weight U(0.5, 1.5), bias 0.2 * N(0, 1);

    - with `rescale` (LSUV), each Linear, Bilinear and convolution has its
      weight and bias scaled so that its output has unit standard deviation.
      A recurrent module (RNN, LSTM, GRU and their cells) has its first
      layer's input weights and biases (weight_ih_l0, bias_ih_l0, and their
      _reverse twins; a cell's weight_ih, bias_ih) scaled so that the input's
      contribution to the gates has unit standard deviation: with the
      default initialisation, each recurrent stage of ops_rnn passes on about
      a tenth of the input's variation. A module runs this once, on its
      first call; a module that shares a parameter with another module (a
      tied weight) is left alone.

    Returns (BatchNorm paths, rescaled module paths), in call order."""
    import torch
    import torch.nn as nn
    paths = {}
    owners = collections.Counter()
    for path, m in model.named_modules():
        paths.setdefault(m, path)
        for p in m.parameters(recurse=False):
            owners[id(p)] += 1
    bn_done, bn_paths, scaled_done, scaled_paths = set(), [], set(), []

    def batchnorm(mod, args):
        if mod in bn_done:
            return
        bn_done.add(mod)
        x = args[0].detach().double()
        dims = [d for d in range(x.dim()) if d != 1]
        mean = x.mean(dims)
        var = x.var(dims, unbiased=False)
        whole = float(x.var(unbiased=False)) if x.numel() > 1 else 0.0
        var = var.clamp(min=0.1 * whole if whole > 0 else 1.0)
        n = mod.num_features
        mod.running_mean.copy_(mean + 0.2 * var.sqrt() * torch.randn(n, dtype=torch.double))
        mod.running_var.copy_(var * (0.5 + torch.rand(n, dtype=torch.double)))
        if _has_default_affine(mod):
            mod.weight.copy_(0.5 + torch.rand(n))
            mod.bias.copy_(0.2 * torch.randn(n))
        bn_paths.append(paths[mod])

    def lsuv(mod, args, out):
        if mod in scaled_done:
            return None
        scaled_done.add(mod)
        if (not isinstance(out, torch.Tensor) or not out.is_floating_point()
                or out.numel() < 2
                or any(owners[id(p)] > 1 for p in mod.parameters(recurse=False))):
            return None
        std = float(out.detach().double().std(unbiased=False))
        if not (0 < std < float("inf")):
            return None
        scale = 1.0 / std
        mod.weight.mul_(scale)
        if getattr(mod, "bias", None) is not None:
            mod.bias.mul_(scale)
        scaled_paths.append(paths[mod])
        return out * scale

    def recurrent(mod, args):
        if mod in scaled_done:
            return
        scaled_done.add(mod)
        x = args[0] if args else None
        if isinstance(x, nn.utils.rnn.PackedSequence):
            x = x.data
        if (not isinstance(x, torch.Tensor) or not x.is_floating_point()
                or any(owners[id(p)] > 1 for p in mod.parameters(recurse=False))):
            return
        suffixes = (("_l0", "_l0_reverse") if isinstance(mod, nn.RNNBase)
                    else ("",))
        scaled = False
        for suffix in suffixes:
            weight = getattr(mod, "weight_ih" + suffix, None)
            if weight is None:
                continue
            bias = getattr(mod, "bias_ih" + suffix, None)
            pre = nn.functional.linear(x.detach(), weight, bias)
            std = float(pre.double().std(unbiased=False)) if pre.numel() > 1 else 0.0
            if not (0 < std < float("inf")):
                continue
            weight.mul_(1.0 / std)
            if bias is not None:
                bias.mul_(1.0 / std)
            scaled = True
        if scaled:
            scaled_paths.append(paths[mod])

    handles = []
    try:
        for m in model.modules():
            if (isinstance(m, nn.modules.batchnorm._BatchNorm)
                    and _has_default_statistics(m)):
                handles.append(m.register_forward_pre_hook(batchnorm))
            if rescale and isinstance(m, _calibrated_classes()):
                handles.append(m.register_forward_hook(lsuv))
            if rescale and isinstance(m, (nn.RNNBase, nn.RNNCellBase)):
                handles.append(m.register_forward_pre_hook(recurrent))
        if not handles:
            return [], []
        with torch.no_grad():
            model(*inputs)
    finally:
        for h in handles:
            h.remove()
    return bn_paths, scaled_paths


def output_scales(outputs, others):
    """Per output: max |y| on the reference inputs, and max |y(x) - y(x')|
    against the outputs on the check inputs (None when the shapes differ:
    a data-dependent output whose size changed). Integer and boolean
    outputs are measured too, as doubles."""
    max_abs, dependence = [], []
    for i, y in enumerate(outputs):
        yd = as_real(y.detach())
        max_abs.append(float(yd.abs().max()) if y.numel() else 0.0)
        z = others[i] if i < len(others) else None
        if z is None or z.shape != y.shape:
            dependence.append(None)
        else:
            dependence.append(float((yd - as_real(z.detach())).abs().max())
                              if y.numel() else 0.0)
    return max_abs, dependence


def meaningless(outputs, others, base=None):
    """What makes these outputs unfit for a test, as one line ('' if
    nothing does): `outputs` on the reference inputs, `others` on the check
    inputs, compared with `base` (default: `outputs`), the same module's
    outputs on the reference inputs. Only floating-point outputs are
    judged (complex ones as their real and imaginary parts): an integer or boolean output (indices, masks) is compared
    exactly, and is derived from floating-point values that are judged."""
    problems = []
    if len(others) != len(outputs):
        problems.append("the check inputs give %d outputs, the reference %d"
                        % (len(others), len(outputs)))
    max_abs, _ = output_scales(outputs, [])
    _, dependence = output_scales(outputs if base is None else base, others)
    floats = [i for i, y in enumerate(outputs)
              if y.is_floating_point() or y.is_complex()]
    if not floats:
        problems.append("no floating-point output")
    for i in floats:
        if not bool(outputs[i].isfinite().all()):
            problems.append("output %d has non-finite values" % i)
        elif max_abs[i] < MIN_OUTPUT_MAX_ABS:
            problems.append("output %d: max |y| = %.3g < %g"
                            % (i, max_abs[i], MIN_OUTPUT_MAX_ABS))
        elif (dependence[i] is not None
              and dependence[i] < MIN_INPUT_DEPENDENCE * max_abs[i]):
            problems.append("output %d does not depend on the input: "
                            "max |y(x) - y(x')| = %.3g < %g * max |y| = %.3g"
                            % (i, dependence[i], MIN_INPUT_DEPENDENCE,
                               MIN_INPUT_DEPENDENCE * max_abs[i]))
    return "; ".join(problems)


def _eager_outputs(model, inputs):
    import torch
    with torch.no_grad():
        return [t.detach() for t in flatten_outputs(model(*inputs))]


def calibration_inputs(model, draw_inputs):
    """CALIBRATION_DRAWS draws of the inputs, each argument concatenated
    along dim 0, when the model runs on that; else one draw (a model whose
    batch size is fixed). A batch gives a BatchNorm the spread between
    inputs, not only within one: calibrated on one image, the deep layers of
    efficientnet_b0, where the image is 2x2, grow by orders of magnitude on
    another."""
    import torch
    draws = [draw_inputs() for _ in range(CALIBRATION_DRAWS)]
    batch = [torch.cat(args, 0) for args in zip(*draws)]
    try:
        with torch.no_grad():
            model(*batch)
    except Exception:  # noqa: BLE001  (any failure: the batch does not fit)
        return draws[0]
    return batch


def make_meaningful(model, draw_inputs, inputs, other_inputs):
    """Makes an eval-mode `model`'s outputs meaningful; returns the model
    (possibly a new object) and a record of what was done.

    1. Vanishing parameters are re-drawn (reinitialise_vanishing).
    2. BatchNorms with default statistics are calibrated (calibrate) on
       inputs drawn by `draw_inputs` after torch.manual_seed(CALIBRATION_SEED).
    3. Only if an output is still meaningless on `inputs` and
       `other_inputs`: the model as it was after step 1 is calibrated again,
       with LSUV rescaling (the BatchNorms then see rescaled inputs).
    Raises MeaninglessModel if the outputs are still meaningless."""
    import torch
    model.eval()
    torch.manual_seed(CALIBRATION_SEED)
    calibration = calibration_inputs(model, draw_inputs)
    record = collections.OrderedDict()
    record["seed"] = CALIBRATION_SEED
    record["inputs"] = [mav_type(t.shape, t.dtype) for t in calibration]
    record["reinitialised"] = reinitialise_vanishing(model)
    pristine = copy.deepcopy(model)
    torch.manual_seed(CALIBRATION_SEED)
    batchnorms, _ = calibrate(model, calibration, rescale=False)
    record["batchnorm_statistics"] = batchnorms
    record["rescaled"] = []
    record["rescaled_because"] = None
    why = meaningless(_eager_outputs(model, inputs),
                      _eager_outputs(model, other_inputs))
    if why:
        record["rescaled_because"] = why
        model = pristine
        torch.manual_seed(CALIBRATION_SEED)
        batchnorms, record["rescaled"] = calibrate(model, calibration,
                                                   rescale=True)
        record["batchnorm_statistics"] = batchnorms
        why = meaningless(_eager_outputs(model, inputs),
                          _eager_outputs(model, other_inputs))
        if why:
            raise MeaninglessModel(why + " (after calibration with LSUV "
                                   "rescaling)")
    return model, record


# --------------------------------------------------------------------------
# Models for the hardware flow (issue 29): unmodified torchvision models
# with random BatchNorm statistics, made meaningful by LSUV rescaling
# (lsuv_rescale) and checked for fixed point (check_hardware_ranges).
# --------------------------------------------------------------------------

HW_CHECK_SEED = 3         # torch.Generator seed of check_hardware_ranges' inputs
HW_CHECK_DRAWS = 8        # ... this many draws of the inputs
ACTIVATION_BOUND = 16.0   # every intermediate value: |x| <= this (<16,10>
                          # holds +-32: a margin of 2)
OUTPUT_ORDER = (0.1, 10.0)  # every input's output: max |y| within this
MIN_OUTPUT_SPREAD = 0.1   # every output element: its std across the check
                          # inputs at least this fraction of its mean |y|
LSUV_STD = 0.4            # every hidden layer's output: at most this
                          # std per channel (lsuv_rescale)
LSUV_OUTPUT_STD = 1.0     # the last layer's output (the model's output)
HW_CALIBRATION_DRAWS = 256  # lsuv_rescale's calibration batch: draws of
                          # the inputs, after CALIBRATION_SEED


class ActivationOutOfRange(MeaninglessModel):
    """An intermediate value a fixed-point format of the flow cannot hold."""


def lsuv_rescale(model, inputs, std=LSUV_STD, output_std=LSUV_OUTPUT_STD):
    """Layer-sequential unit-variance (LSUV) rescaling of an eval-mode
    `model`, in place, measured on the calibration `inputs` (a list of
    tensors, one per forward argument: a batch of many draws).

    One forward under torch.no_grad(), with a forward hook on every Linear,
    convolution and affine BatchNorm, in call order; each hook changes its
    module's parameters and returns the output they now give, so that every
    layer is measured on its already rescaled predecessors (a convolution's
    BatchNorm sees the rescaled convolution). Per output channel c (dim 1;
    a Linear's last dim) of the layer's output z, with s_c and m_c its
    standard deviation and mean over the batch and the positions, and r
    the layer's RMS channel std, sqrt(mean_c s_c^2):

    - scale: the channel is multiplied by a_c = std / max(s_c, r) (a Linear's
      or convolution's weight row and bias, a BatchNorm's weight and bias):
      a channel at or above r gets exactly the standard deviation `std`,
      one below it the layer's LSUV factor std / r, so that no channel is
      above `std`, the layer's RMS std is at most `std`, and a weak channel
      is not amplified beyond the layer as a whole;
    - shift (a layer with a bias): b_c = t_c - a_c * m_c is added to the
      bias, so that the channel's mean is t_c, the layer's own bias clamped
      to +-std: a BatchNorm's random N(0, 0.5^2) bias after
      _randomise_batchnorms, about 0 for torchvision's Linear and conv
      biases.

    Then the last layer rescaled (in call order: the classifier) is
    multiplied by output_std / std, so that the model's output has about
    `output_std` (what follows it in these models, ReLU, pooling, flatten,
    is positively homogeneous).

    Why these choices (measured on resnet18/34, mobilenet_v2 (0.5),
    mobilenet_v3_small/large and squeezenet1_0/1_1 at 1x3x32x32, several
    model seeds, 64 fresh inputs each):

    - the shift is what keeps the networks alive. With random BatchNorm
      statistics a channel's running mean can dwarf its input's variation,
      and without BatchNorm (squeezenet) the positive means of ReLU outputs
      pile up through the layers: either way a channel becomes an
      input-independent offset that ReLU/ReLU6/Hardswish turn into a
      constant, and mobilenet_v2 and mobilenet_v3_small output only their
      classifier's bias;
    - the per-channel scale keeps every value within range: with one scale
      per layer (plain LSUV) a few channels of mobilenet's depthwise
      BatchNorms and of resnet's reach 20 to 40 times the layer's std;
    - std 0.4, not 1: hardswish (x * relu6(x + 3) / 6) and the squeeze-and-
      excitation gates (x * hardsigmoid(f(x))) are quadratic near 0; at unit
      std their products compound over mobilenet_v3's blocks, and inputs
      other than the calibration batch reach 100 to 1000 (output included);
    - many draws (HW_CALIBRATION_DRAWS): the deep layers are 1x1 or 2x2
      feature maps, where 8 draws give 8 values per channel, and scales fit
      to them do not carry over to other inputs (mobilenet_v3_small's output
      reached 300 with 8, 40 with 32).

    The running statistics stay random, so folding is still exercised on
    arbitrary statistics. A module is rescaled on its first call only; a
    module that shares a parameter with another (a tied weight) is left
    alone; a transposed convolution gets the scale std / r only.

    Returns the paths of the rescaled modules, in call order."""
    import torch
    import torch.nn as nn
    paths, owners = {}, collections.Counter()
    for path, m in model.named_modules():
        paths.setdefault(m, path)
        for p in m.parameters(recurse=False):
            owners[id(p)] += 1
    done, rescaled = set(), []
    batchnorm = nn.modules.batchnorm._BatchNorm
    transposed = nn.modules.conv._ConvTransposeNd

    def hook(mod, args, out):
        if mod in done:
            return None
        done.add(mod)
        if (not isinstance(out, torch.Tensor) or not out.is_floating_point()
                or out.dim() < 2 or out.numel() < 2
                or (isinstance(mod, batchnorm) and not mod.affine)
                or any(owners[id(p)] > 1 for p in mod.parameters(recurse=False))):
            return None
        z = out.detach().double()
        cdim = z.dim() - 1 if isinstance(mod, nn.Linear) else 1
        dims = [d for d in range(z.dim()) if d != cdim]
        mean = z.mean(dims)
        spread = z.std(dims, unbiased=False)
        r = float(spread.pow(2).mean().sqrt())
        if not (0 < r < float("inf")):
            return None
        bias = getattr(mod, "bias", None)
        weight = mod.weight
        if isinstance(mod, transposed):
            a = torch.full_like(spread, std / r)
            b = torch.zeros_like(mean)
            weight.mul_(std / r)
        else:
            a = std / spread.clamp(min=r)
            b = (bias.detach().double().clamp(-std, std) - a * mean
                 if bias is not None else torch.zeros_like(mean))
            weight.copy_(weight.double()
                         * a.view([-1] + [1] * (weight.dim() - 1)))
        if bias is not None:
            bias.copy_(a * bias.double() + b)
        rescaled.append(mod)
        shape = [1] * z.dim()
        shape[cdim] = -1
        return (z * a.view(shape) + b.view(shape)).to(out.dtype)

    handles = []
    try:
        for m in model.modules():
            if isinstance(m, (nn.Linear, nn.modules.conv._ConvNd, batchnorm)):
                handles.append(m.register_forward_hook(hook))
        with torch.no_grad():
            model.eval()(*inputs)
    finally:
        for h in handles:
            h.remove()
    if rescaled and output_std != std:
        with torch.no_grad():
            for p in rescaled[-1].parameters(recurse=False):
                p.mul_(output_std / std)
    return [paths[m] for m in rescaled]


def _value_ranges(model, inputs):
    """(max |x| per kind of value, max |x| per value) over every tensor
    computed in one forward of `model` on `inputs`: torch.fx's nodes (a
    module call by its class, a function or method by its name, the input
    as `input`), which include the adds, muls and flattens between modules;
    a model fx cannot trace is measured at every module's output instead."""
    import torch
    by_kind, by_value = collections.OrderedDict(), collections.OrderedDict()

    def record(kind, name, value):
        for t in flatten_outputs(value) if not isinstance(value, torch.Tensor) else [value]:
            if isinstance(t, torch.Tensor) and t.is_floating_point() and t.numel():
                m = float(t.detach().abs().max())
                by_kind[kind] = max(by_kind.get(kind, 0.0), m)
                by_value[name] = max(by_value.get(name, 0.0), m)

    try:
        import torch.fx
        graph_module = torch.fx.symbolic_trace(model)
    except Exception:  # noqa: BLE001  (not traceable: module outputs only)
        graph_module = None
    with torch.no_grad():
        if graph_module is not None:
            modules = dict(graph_module.named_modules())

            class Recorder(torch.fx.Interpreter):
                def run_node(self, n):
                    value = super().run_node(n)
                    if n.op == "call_module":
                        kind = type(modules[n.target]).__name__
                    elif n.op in ("call_function", "call_method"):
                        kind = getattr(n.target, "__name__", str(n.target))
                    elif n.op == "placeholder":
                        kind = "input"
                    else:
                        return value
                    record(kind, n.name, value)
                    return value

            Recorder(graph_module).run(*inputs)
        else:
            handles = [m.register_forward_hook(
                lambda mod, a, out, path=path: record(type(mod).__name__,
                                                      path or "<root>", out))
                for path, m in model.named_modules()]
            try:
                model(*inputs)
            finally:
                for h in handles:
                    h.remove()
    return by_kind, by_value


def check_hardware_ranges(model, draw_inputs, reference_inputs):
    """Checks that an eval-mode model suits the fixed-point hardware flow;
    returns a report, raises MeaninglessModel (ActivationOutOfRange) if not.

    The check inputs are HW_CHECK_DRAWS draws of the inputs (each argument
    concatenated along dim 0) after torch.manual_seed(HW_CHECK_SEED), neither
    the calibration batch nor the reference inputs. On them:

    - the outputs differ across inputs: every output element's standard
      deviation across the draws is at least MIN_OUTPUT_SPREAD times its
      mean |y| (and not every one is constant);
    - the outputs are of order 1: each draw's max |y| lies in OUTPUT_ORDER;
    - every intermediate value (torch.fx nodes: module outputs and the
      functions between them), on the check inputs and on the reference
      inputs, has |x| <= ACTIVATION_BOUND."""
    import torch
    torch.manual_seed(HW_CHECK_SEED)
    draws = [draw_inputs() for _ in range(HW_CHECK_DRAWS)]
    batch = [torch.cat(args, 0) for args in zip(*draws)]
    model.eval()
    with torch.no_grad():
        outputs = [t.detach().double() for t in flatten_outputs(model(*batch))
                   if t.is_floating_point()]
    if not outputs:
        raise MeaninglessModel("no floating-point output")
    report = collections.OrderedDict()
    report["check_inputs_seed"] = HW_CHECK_SEED
    report["check_inputs"] = HW_CHECK_DRAWS
    problems = []
    for i, y in enumerate(outputs):
        if not bool(y.isfinite().all()):
            raise MeaninglessModel("output %d has non-finite values" % i)
        per = y.reshape(HW_CHECK_DRAWS, -1)   # draw x element
        spread = per.std(0, unbiased=False)
        mean_abs = per.abs().mean(0)
        ratio = spread / mean_abs.clamp(min=1e-30)
        order = per.abs().max(1).values
        report["output_%d_std_across_inputs" % i] = collections.OrderedDict((
            ("min", float(spread.min())), ("mean", float(spread.mean())),
            ("max", float(spread.max()))))
        report["output_%d_min_spread_ratio" % i] = float(ratio.min())
        report["output_%d_max_abs" % i] = [float(order.min()), float(order.max())]
        low = (spread < MIN_OUTPUT_SPREAD * mean_abs).nonzero().flatten()
        if low.numel() or float(spread.max()) == 0:
            j = int(low[0]) if low.numel() else 0
            problems.append(
                "output %d does not depend on the input: element %d has std "
                "%.3g across %d inputs < %g * its mean |y| %.3g"
                % (i, j, float(spread[j]), HW_CHECK_DRAWS, MIN_OUTPUT_SPREAD,
                   float(mean_abs[j])))
        if not (OUTPUT_ORDER[0] <= float(order.min())
                and float(order.max()) <= OUTPUT_ORDER[1]):
            problems.append("output %d is not of order 1: max |y| per input "
                            "from %.3g to %.3g, outside [%g, %g]"
                            % (i, float(order.min()), float(order.max()),
                               OUTPUT_ORDER[0], OUTPUT_ORDER[1]))
    if problems:
        raise MeaninglessModel("; ".join(problems))
    by_kind, by_value = _value_ranges(model, batch)
    ref_kind, ref_value = _value_ranges(model, reference_inputs)
    for k, v in ref_kind.items():
        by_kind[k] = max(by_kind.get(k, 0.0), v)
    for k, v in ref_value.items():
        by_value[k] = max(by_value.get(k, 0.0), v)
    report["activation_bound"] = ACTIVATION_BOUND
    report["activation_max_abs"] = max(by_kind.values())
    report["activation_max_abs_by_kind"] = by_kind
    over = [(v, k) for k, v in by_value.items() if v > ACTIVATION_BOUND]
    if over:
        v, k = max(over)
        raise ActivationOutOfRange(
            "%d intermediate values exceed |x| <= %g, the largest %s: %.3g"
            % (len(over), ACTIVATION_BOUND, k, v))
    return report


def hardware_ranges_summary(report):
    """The report of check_hardware_ranges in one line."""
    kinds = ", ".join("%s %.2f" % kv for kv in
                      report["activation_max_abs_by_kind"].items())
    spread = report["output_0_std_across_inputs"]
    return ("max |activation| by kind: %s; output 0: std across %d inputs "
            "min %.3g mean %.3g (min std/mean|y| %.3g), max |y| per input "
            "%.3g to %.3g" % (kinds, report["check_inputs"], spread["min"],
                              spread["mean"], report["output_0_min_spread_ratio"],
                              report["output_0_max_abs"][0],
                              report["output_0_max_abs"][1]))


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


Built = collections.namedtuple(
    "Built", "spec model inputs check_inputs calibration description")


def build(name, registry=None):
    """The model NAME exactly as generate() traces it: built after
    torch.manual_seed(MODEL_SEED), made meaningful (make_meaningful), in its
    mode (spec.training), with the reference inputs (INPUT_SEED) and the
    check inputs (CHECK_SEED). Use it, not the bare builder, wherever the
    weights matter: the builder alone gives the uncalibrated weights."""
    import torch
    builder, description = (REGISTRY if registry is None else registry)[name]
    torch.manual_seed(MODEL_SEED)
    spec = builder()
    torch.manual_seed(INPUT_SEED)
    inputs = spec.inputs()
    torch.manual_seed(CHECK_SEED)  # drawn the same way, with another seed
    check_inputs = spec.inputs()
    model, calibration = make_meaningful(spec.model, spec.inputs, inputs,
                                         check_inputs)
    model.train(spec.training)
    return Built(spec, model, inputs, check_inputs, calibration, description)


def generate(name, out_dir, registry=None):
    import torch
    spec, model, inputs, check_inputs, calibration, description = build(
        name, registry)
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
        traced = (torch.jit.script(model) if spec.script else
                  torch.jit.trace(model, tuple(inputs), check_trace=False,
                                  strict=spec.strict))
        eval_traced = None
        if spec.training:
            eval_traced = torch.jit.trace(eval_model, tuple(inputs),
                                          check_trace=False, strict=spec.strict)
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
        # The hardware flow's models (Spec.hardware_ranges): outputs spread
        # across inputs, of order 1, every intermediate value within
        # ACTIVATION_BOUND.
        hardware_ranges = None
        if spec.hardware_ranges:
            hardware_ranges = check_hardware_ranges(eval_model, spec.inputs,
                                                    inputs)
            print("generate.py: %s: %s" % (name, hardware_ranges_summary(
                hardware_ranges)), file=sys.stderr)
        # The references are meaningful: of order 1, and input-dependent
        # (the eager module on the check inputs against the reference inputs).
        with grad_ctx():
            eager_check = [t.detach() for t in
                           flatten_outputs(eval_model(*check_inputs))]
        why = meaningless(outputs, eager_check, eager)
        if why:
            raise MeaninglessModel(why)
        output_max_abs, _ = output_scales(outputs, [])
        _, input_dependence = output_scales(eager, eager_check)

        io_tmp = writer.temp(name + ".io.pt")
        # Tuples: libtorch (mav-run --inputs) reads no one-element list.
        io_data = {"inputs": tuple(t.clone() for t in inputs),
                   "outputs": tuple(t.clone() for t in outputs)}
        write_bytes(io_tmp, lambda f: torch.save(io_data, f))

        functional_by_scope, functional_in_leaf = functional_dropout_analysis(
            traced, model, hooks["leaf_paths"])
        functional = sum(functional_by_scope.values())
        module_dropouts = sum(hooks["dropout_by_class"].values())
        shapes, names_matched = value_shapes(traced, loaded)
        # A fresh load: `loaded` has run, and its callees cache optimized graphs.
        entry_exit, entry_exit_counts = (
            entry_exit_analysis(torch.jit.load(pt_tmp)) if spec.entry_exit
            else (None, None))
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
        info["output_max_abs"] = output_max_abs
        info["output_input_dependence"] = input_dependence
        info["check_inputs_seed"] = CHECK_SEED
        info["meaningful_thresholds"] = collections.OrderedDict((
            ("min_output_max_abs", MIN_OUTPUT_MAX_ABS),
            ("min_input_dependence", MIN_INPUT_DEPENDENCE)))
        info["calibration"] = calibration
        if hardware_ranges is not None:
            info["hardware_ranges"] = hardware_ranges
        info["io_file"] = name + ".io.pt"
        info["inlined_op_counts"] = ops
        info["inlined_node_count"] = sum(1 for _ in _all_nodes(inlined))
        info["trace_warnings"] = trace_warnings
        info["value_shapes_loaded_names_matched"] = names_matched
        info["value_shapes"] = shapes
        if spec.entry_exit:
            info["entry_exit_counts"] = entry_exit_counts
            info["entry_exit"] = entry_exit

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

    return generate_stale(names, out_dir, args.force, script_mtime)


def generate_stale(names, out_dir, force, script_mtime, registry=None,
                   prog="generate.py"):
    """Generates those of `names` that are not up to date (or all of them,
    with `force`), each under its lock; returns 1 if any failed, else 0."""
    todo = [n for n in names if force or not is_fresh(out_dir, n, script_mtime)]
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
            if not force and is_fresh(out_dir, name, script_mtime):
                continue
            start = time.time()
            try:
                generate(name, out_dir, registry)
            except Exception as e:  # report, go on with the other models
                failures += 1
                print("%s: error: %s: %s: %s" % (prog, name, type(e).__name__, e),
                      file=sys.stderr)
                continue
            print("%s: %s: %.1fs" % (prog, name, time.time() - start), file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
