#!/usr/bin/python3
"""Writes the inputs files of run-inputs.test into OUT: a module that
compares its input with the one saved in IO.pt (equals_saved.pt), one
that returns ones (ones.pt), and files
that do not fit plain_cnn (two tensors, another shape, a dict without
"inputs", a string).

Usage: inputs_files.py IO.pt OUT"""

import os
import sys

import torch


class Ones(torch.nn.Module):
    def forward(self, x):
        return x * 0 + 1


class EqualsSaved(torch.nn.Module):
    def __init__(self, saved):
        super().__init__()
        self.register_buffer("saved", saved)

    def forward(self, x):
        return (x == self.saved).float()


def main():
    saved, out = torch.load(sys.argv[1])["inputs"][0], sys.argv[2]
    traced = torch.jit.trace(EqualsSaved(saved), (saved,))
    traced.save(os.path.join(out, "equals_saved.pt"))
    torch.jit.trace(Ones(), (saved,)).save(os.path.join(out, "ones.pt"))
    x = torch.randn(1, 3, 16, 16)
    torch.save((x, x), os.path.join(out, "two.pt"))
    torch.save((torch.randn(2, 3, 16, 16),), os.path.join(out, "shape.pt"))
    torch.save({"outputs": (x,), "other": (x,)},
               os.path.join(out, "nodict.pt"))
    torch.save("inputs", os.path.join(out, "string.pt"))


if __name__ == "__main__":
    main()
