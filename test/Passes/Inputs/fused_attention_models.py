#!/usr/bin/python3
"""Writes TorchScript traces that take PyTorch 1.13's fused attention paths
(eval mode, under torch.no_grad), for -mav-lower-fused-attention's test:

- encoder_{post,pre}_{relu,gelu}.pt: nn.TransformerEncoder of two
  nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128,
  batch_first=True), norm_first False (post) or True (pre), activation relu
  or gelu, at 1x16x64: aten::_transformer_encoder_layer_fwd per layer;
- mha.pt: nn.MultiheadAttention(64, 4, batch_first=True) as self-attention
  without weights, at 2x16x64: aten::_native_multi_head_attention;
- vit.pt: torchvision's VisionTransformer(image_size=32, patch_size=8,
  num_layers=2, num_heads=4, hidden_dim=64, mlp_dim=128, num_classes=10) at
  1x3x32x32, its zero-initialised head redrawn so that its output depends on
  its input.

Usage: fused_attention_models.py OUTDIR
"""

import os
import sys

import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention = nn.MultiheadAttention(64, 4, batch_first=True)

    def forward(self, x):
        return self.attention(x, x, x, need_weights=False)[0]


def encoder(norm_first, activation):
    layer = nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128,
                                       batch_first=True, norm_first=norm_first,
                                       activation=activation)
    return nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)


def vit():
    from torchvision.models.vision_transformer import VisionTransformer
    model = VisionTransformer(image_size=32, patch_size=8, num_layers=2,
                              num_heads=4, hidden_dim=64, mlp_dim=128,
                              num_classes=10)
    nn.init.normal_(model.heads.head.weight, std=0.2)
    return model


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    models = {"mha": (SelfAttention(), (2, 16, 64)),
              "vit": (vit(), (1, 3, 32, 32))}
    for norm_first in (False, True):
        for activation in ("relu", "gelu"):
            name = f"encoder_{'pre' if norm_first else 'post'}_{activation}"
            models[name] = (encoder(norm_first, activation), (1, 16, 64))
    for name, (model, shape) in models.items():
        torch.manual_seed(0)
        model.eval()
        with torch.no_grad():
            traced = torch.jit.trace(model, torch.randn(shape),
                                     check_trace=False)
        traced.save(os.path.join(out, name + ".pt"))


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
