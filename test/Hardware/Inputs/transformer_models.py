#!/usr/bin/python3
"""Writes a transformer of issue 32's classes as a TorchScript trace, for the
hardware flow's tests and benchmark (transformer-flow.sh):

  transformer_models.py OUT encoder D_MODEL HEADS FF LAYERS SEQ
                        {post,pre} {relu,gelu} {fused,decomposed}
  transformer_models.py OUT vit IMAGE PATCH LAYERS HEADS HIDDEN MLP CLASSES
                        {fused,decomposed}

writes OUT.pt and prints the input shape (1xSEQxD_MODEL, 1x3xIMAGExIMAGE).
`encoder` is nn.TransformerEncoder of nn.TransformerEncoderLayer(d_model,
nhead, dim_feedforward, batch_first=True, norm_first, activation); `vit` is
torchvision's unmodified VisionTransformer, its zero-initialised head redrawn
so that its output depends on its input. Weights are PyTorch's default
initialisation from a fixed seed. Both trace in eval mode: `fused` under
torch.no_grad (PyTorch 1.13's fast path, aten::_transformer_encoder_layer_fwd
and aten::_native_multi_head_attention), `decomposed` with gradients enabled
(the operators one by one).
"""

import sys

import torch
from torch import nn


def encoder(d_model, heads, ff, layers, norm, activation):
    layer = nn.TransformerEncoderLayer(d_model=d_model, nhead=heads,
                                       dim_feedforward=ff, batch_first=True,
                                       norm_first=norm == "pre",
                                       activation=activation)
    return nn.TransformerEncoder(layer, num_layers=layers,
                                 enable_nested_tensor=False)


def vit(image, patch, layers, heads, hidden, mlp, classes):
    from torchvision.models.vision_transformer import VisionTransformer
    model = VisionTransformer(image_size=image, patch_size=patch,
                              num_layers=layers, num_heads=heads,
                              hidden_dim=hidden, mlp_dim=mlp,
                              num_classes=classes)
    nn.init.normal_(model.heads.head.weight, std=0.2)
    return model


def main():
    out, kind, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    torch.manual_seed(0)
    if kind == "encoder":
        d_model, heads, ff, layers, seq = map(int, args[:5])
        model = encoder(d_model, heads, ff, layers, args[5], args[6])
        shape = (1, seq, d_model)
    else:
        image, patch, layers, heads, hidden, mlp, classes = map(int, args[:7])
        model = vit(image, patch, layers, heads, hidden, mlp, classes)
        shape = (1, 3, image, image)
    path = args[-1]
    model.eval()
    example = torch.randn(shape)
    with torch.set_grad_enabled(path == "decomposed"):
        traced = torch.jit.trace(model, example, check_trace=False)
    fused = "_transformer_encoder_layer_fwd" in str(traced.inlined_graph) or \
        "_native_multi_head_attention" in str(traced.inlined_graph)
    if fused != (path == "fused"):
        raise SystemExit("the trace took the %s path, not %s"
                         % ("fused" if fused else "decomposed", path))
    traced.save(out + ".pt")
    print("x".join(map(str, shape)))


if __name__ == "__main__":
    main()
