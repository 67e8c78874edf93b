"""Prints, for each TorchScript model, its weight bytes as PyTorch counts
them (each storage once) and whether they exceed mav's inline limit, 1 MiB
(kMaxInlineWeightBytes): NAME above|at-most BYTES."""
import os
import sys

import torch

LIMIT = 1 << 20
for path in sys.argv[1:]:
    storages = {}
    for tensor in torch.jit.load(path).state_dict().values():
        storages[tensor.data_ptr()] = tensor.numel() * tensor.element_size()
    total = sum(storages.values())
    name = os.path.splitext(os.path.basename(path))[0]
    print(name, "above" if total > LIMIT else "at-most", total)
