#!/usr/bin/python3
"""Traces the main job's model, torchvision's mobilenet_v2 exactly as
torchvision builds it (1000 classes, random weights: no download is possible
here), at its real input size 1x3x224x224, in eval mode. Writes, into OUT_DIR:

  mobilenet_v2.pt    torch.jit.trace of the model, saved with torch.jit.save
  mobilenet_v2.json  what PyTorch counts: parameters, dropout modules called
                     in one forward, the input shape in mav's spelling

Usage: main_job_model.py OUT_DIR
"""

import json
import os
import sys

import torch
import torchvision

NAME = "mobilenet_v2"
SHAPE = (1, 3, 224, 224)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = torchvision.models.mobilenet_v2(weights=None).eval()
    example = torch.randn(*SHAPE)
    dropout_calls = []
    for module in model.modules():
        if isinstance(module, torch.nn.modules.dropout._DropoutNd):
            module.register_forward_hook(
                lambda m, i, o: dropout_calls.append(type(m).__name__))
    with torch.no_grad():
        model(example)
    dropout_count = len(dropout_calls)
    traced = torch.jit.trace(model, example)
    torch.jit.save(traced, os.path.join(out, NAME + ".pt"))
    info = {
        "model": "torchvision.models.mobilenet_v2(weights=None)",
        "torch_version": torch.__version__,
        "torchvision_version": torchvision.__version__,
        "input_shape": "x".join(map(str, SHAPE)) + "xf32",
        "param_count": sum(p.numel() for p in model.parameters()),
        "dropout_count": dropout_count,
    }
    with open(os.path.join(out, NAME + ".json"), "w") as f:
        json.dump(info, f, indent=1)


if __name__ == "__main__":
    main()
