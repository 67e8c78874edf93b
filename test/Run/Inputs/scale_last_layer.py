#!/usr/bin/python3
"""Scale the last Linear layer (weight and bias) of a TorchScript model.

    scale_last_layer.py IN.pt OUT.pt FACTOR

For tolerance tests: FACTOR 1e-10 gives outputs of order 1e-10, as a vanishing
default initialisation would; 0 gives an all-zero output.
"""

import sys

import torch

source, target, factor = sys.argv[1], sys.argv[2], float(sys.argv[3])
module = torch.jit.load(source)
linears = [m for m in module.modules() if m.original_name == "Linear"]
if not linears:
    sys.exit("scale_last_layer.py: %s: no Linear layer" % source)
with torch.no_grad():
    for parameter in linears[-1].parameters():
        parameter.mul_(factor)
torch.jit.save(module, target)
