#!/usr/bin/python3
"""Seeds for mav-torchscript-fuzzer: small TorchScript archives, traced and
scripted, written by torch.jit.save into the corpus directory given.

Usage: /usr/bin/python3 fuzz/torchscript/make-corpus.py CORPUS_DIR
"""
import os
import sys

import torch


class Branchy(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    x = torch.zeros(1, 4)
    seeds = {
        "linear": torch.jit.trace(torch.nn.Linear(4, 2), x),
        "mlp": torch.jit.trace(torch.nn.Sequential(
            torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Dropout(0.1),
            torch.nn.Linear(3, 2)).eval(), x),
        "conv": torch.jit.trace(torch.nn.Sequential(
            torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2)).eval(),
            torch.zeros(1, 1, 5, 5)),
        "scripted": torch.jit.script(Branchy()),
    }
    for name, module in seeds.items():
        torch.jit.save(module, os.path.join(out, name + ".pt"))


if __name__ == "__main__":
    main()
