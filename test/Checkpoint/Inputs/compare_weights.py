#!/usr/bin/python3
"""Reads a mav checkpoint's weights with plain torch.load and compares them,
bit for bit, with the TorchScript module's state_dict.

Usage: compare_weights.py CHECKPOINT MODEL.pt
"""

import sys

import torch


def main():
    checkpoint = torch.load(sys.argv[1])
    reference = torch.jit.load(sys.argv[2]).state_dict()
    for name, tensor in reference.items():
        if name not in checkpoint:
            sys.exit(f"compare_weights: {name} is not in the checkpoint")
        mine = checkpoint[name]
        if mine.dtype != tensor.dtype or mine.shape != tensor.shape or \
                not torch.equal(mine.view(-1).view(torch.uint8),
                                tensor.contiguous().view(-1).view(torch.uint8)):
            sys.exit(f"compare_weights: {name} differs")
    print(f"{len(reference)} weights bit-exact through torch.load "
          f"({type(checkpoint).__name__} of {len(checkpoint)})")


if __name__ == "__main__":
    main()
