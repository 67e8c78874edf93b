#!/usr/bin/python3
"""Print every aten op kind that appears in the small reference models.

The models are traced with torch.jit.trace; the op kinds are collected from the
inlined graph and from the graph of every submodule. One op per line, sorted.
The OpRegistry unit test reads this list (MAV_TRACED_OPS) and checks that each
op is in the registry.

Usage: /usr/bin/python3 list_traced_ops.py [-o FILE] [--modules]
  --modules  also print the qualified classes of the leaf torch.nn modules
             that the models use (for registry maintenance; not read by tests).
"""

import argparse
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from torchvision.models.convnext import CNBlockConfig, ConvNeXt
from torchvision.models.swin_transformer import SwinTransformer
from torchvision.models.vision_transformer import VisionTransformer


class DropoutMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 8)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.dropout(x, p=0.5, training=self.training)
        return self.fc2(x)


class SelfAttention(nn.Module):
    """Self-attention, so that eval mode under no_grad takes the fast path."""

    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(32, 4, batch_first=True)

    def forward(self, x):
        return self.attn(x, x, x, need_weights=False)[0]


def image(size):
    return torch.randn(1, 3, size, size)


def models():
    """Yields (name, module, example_input, train_mode, no_grad)."""
    tv = torchvision.models
    yield "resnet18", tv.resnet18(), image(64), False, False
    yield "alexnet", tv.alexnet(), image(64), False, False
    yield "vgg11", tv.vgg11(), image(32), False, False
    yield "squeezenet1_0", tv.squeezenet1_0(), image(64), False, False
    yield "mobilenet_v2", tv.mobilenet_v2(), image(32), False, False
    yield "mobilenet_v3_small", tv.mobilenet_v3_small(), image(32), False, False
    yield "efficientnet_b0", tv.efficientnet_b0(), image(32), False, False
    yield "vit", VisionTransformer(
        image_size=32, patch_size=8, num_layers=2, num_heads=2,
        hidden_dim=32, mlp_dim=64), image(32), False, False
    yield "swin", SwinTransformer(
        patch_size=[4, 4], embed_dim=16, depths=[2, 2], num_heads=[2, 2],
        window_size=[4, 4]), image(32), False, False
    yield "convnext", ConvNeXt([
        CNBlockConfig(16, 32, 1),
        CNBlockConfig(32, None, 1),
    ]), image(32), False, False
    layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64)
    seq = torch.randn(5, 2, 32)
    yield "transformer_encoder_train", nn.TransformerEncoder(
        layer, num_layers=2), seq, True, False
    layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64)
    yield "transformer_encoder_eval", nn.TransformerEncoder(
        layer, num_layers=2), seq, False, True
    # batch_first=True in eval mode under no_grad takes the fast paths
    # aten::_transformer_encoder_layer_fwd and aten::_native_multi_head_attention.
    layer = nn.TransformerEncoderLayer(
        d_model=32, nhead=4, dim_feedforward=64, batch_first=True)
    yield "transformer_encoder_fast_path", nn.TransformerEncoder(
        layer, num_layers=2), seq.transpose(0, 1), False, True
    yield "self_attention_fast_path", SelfAttention(), seq, False, True
    yield "dropout_mlp", DropoutMLP(), torch.randn(4, 16), True, False


def trace(model, example, train, no_grad):
    model.train(train)
    if no_grad:
        with torch.no_grad():
            return torch.jit.trace(model, example, check_trace=False)
    return torch.jit.trace(model, example, check_trace=False)


def graph_kinds(graph, kinds):
    for node in graph.nodes():
        kinds.add(node.kind())
        for block in node.blocks():
            graph_kinds(block, kinds)


def traced_kinds(traced):
    kinds = set()
    graph_kinds(traced.inlined_graph, kinds)
    for _, sub in traced.named_modules():
        # A submodule that the trace never called has no forward method.
        if sub._c._has_method("forward"):
            graph_kinds(sub.graph, kinds)
    return kinds


def leaf_classes(model):
    classes = set()
    for module in model.modules():
        if any(True for _ in module.children()):
            continue
        cls = type(module)
        if cls.__module__.startswith("torch.nn."):
            classes.add(cls.__module__ + "." + cls.__qualname__)
    return classes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default="-")
    parser.add_argument("--modules", action="store_true")
    args = parser.parse_args()

    torch.manual_seed(0)
    ops = set()
    classes = set()
    for _, model, example, train, no_grad in models():
        traced = trace(model, example, train, no_grad)
        ops |= {k for k in traced_kinds(traced) if k.startswith("aten::")}
        classes |= leaf_classes(model)

    lines = sorted(ops)
    if args.modules:
        lines += sorted(classes)
    text = "".join(line + "\n" for line in lines)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as out:
            out.write(text)


if __name__ == "__main__":
    main()
