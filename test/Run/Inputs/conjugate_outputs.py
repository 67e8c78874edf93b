#!/usr/bin/python3
"""A TorchScript model whose complex outputs are conjugated.

    conjugate_outputs.py IN.pt OUT.pt SHAPE

The real parts stay those of IN.pt and only the imaginary parts change sign,
so a comparison that dropped the imaginary part would still match. SHAPE is
the input's shape, e.g. 1x64.
"""

import sys

import torch

source, target, shape = sys.argv[1], sys.argv[2], sys.argv[3]


class Conjugated(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return torch.conj_physical(self.model(x))


model = Conjugated(torch.jit.load(source))
example = torch.randn(*[int(d) for d in shape.split("x")])
torch.jit.save(torch.jit.trace(model, example, check_trace=False), target)
