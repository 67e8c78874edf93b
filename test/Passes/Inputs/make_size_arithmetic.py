#!/usr/bin/python3
"""Writes a model whose traced graph computes sizes with integer arithmetic
on 0-dim tensors, as attention heads do: NumToTensor of a size, then //,
div with a rounding mode, *, + and -, with traced 0-dim int64 constants,
then aten::Int into view. Usage: make_size_arithmetic.py OUT.pt"""

import sys

import torch


class SizeArithmetic(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(12, 12)

    def forward(self, x):
        batch, length, width = x.shape
        heads = 3
        head = width // heads
        y = self.proj(x).view(batch, length, heads, head).transpose(1, 2)
        y = y.reshape(batch * heads, length, head)
        z = y.reshape(batch, heads * length, torch.div(width, 2, rounding_mode="trunc") - 2)
        w = z.reshape(batch + 0, -1, (width - 6) // -2 * -1 + 0)
        return torch.cat([w.flatten(1), x.flatten(1)], 1)


torch.manual_seed(0)
model = SizeArithmetic().eval()
with torch.no_grad():
    traced = torch.jit.trace(model, torch.randn(2, 5, 12))
traced.save(sys.argv[1])
