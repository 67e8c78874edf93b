#!/usr/bin/python3
"""Writes DIR/bn_fold_train.pt and .json: the generator's bn_fold_conv model
(random batch norm statistics) traced in train mode, where batch norm uses
batch statistics and must not be folded. Kept out of generate.py's registry
because the other real-model tests compare every model against its eval-mode
twin, which a train-mode batch norm does not match.

Usage: bn_fold_train.py DIR
"""

import collections
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, os.pardir, "models"))
import generate  # noqa: E402
import torch  # noqa: E402


def main():
    out = sys.argv[1]
    torch.manual_seed(0)
    model = generate._randomise_batchnorms(generate._bn_fold_classes()[0]())
    model.train()
    shape = (1, 3, 8, 8)
    traced = torch.jit.trace(model, (torch.randn(*shape),))
    traced.save(os.path.join(out, "bn_fold_train.pt"))
    leaves = collections.Counter(
        type(m).__module__ + "." + type(m).__name__
        for m in model.modules() if not list(m.children()))
    json.dump({"input_shapes": ["x".join(map(str, shape)) + "xf32"],
               "training": True,
               "leaf_modules_by_class": dict(sorted(leaves.items()))},
              open(os.path.join(out, "bn_fold_train.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
