#!/usr/bin/python3
"""Writes odd_names.pt into the given folder: a module whose state_dict keys
are names PyTorch accepts but MLIR's bare identifiers do not. Its root is an
nn.Sequential (keys such as `0.weight`) and one child is called `block1-0`,
as in torchvision's RegNet. Prints the state_dict keys, one per line."""

import sys

import torch


def main():
    torch.manual_seed(0)
    inner = torch.nn.Sequential()
    inner.add_module("block1-0", torch.nn.Conv2d(3, 4, 3))
    inner.add_module("2nd$", torch.nn.BatchNorm2d(4))
    model = torch.nn.Sequential(inner, torch.nn.ReLU(), torch.nn.Flatten(),
                                torch.nn.Linear(4 * 6 * 6, 3)).eval()
    traced = torch.jit.trace(model, torch.randn(1, 3, 8, 8))
    torch.jit.save(traced, f"{sys.argv[1]}/odd_names.pt")
    for key in traced.state_dict():
        print(key)


if __name__ == "__main__":
    main()
