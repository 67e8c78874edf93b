#!/usr/bin/python3
"""The torch.fx side of "cold against cold" (issue 13): one whole process
doing the MASE tutorial's job from file to file, as a user's script would.

    bench/fx_file_to_file.py GM.pt INPUTS.pt OUT.pt

imports torch, loads the saved GraphModule and its example inputs, runs
ShapeProp, count-dropout, remove-dropout and count-dropout (fx_reference.py's
passes), and saves the GraphModule.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
from torch.fx.passes.shape_prop import ShapeProp  # noqa: E402

from fx_reference import (count_dropout_analysis_pass,  # noqa: E402
                          remove_dropout_transform_pass)


def main():
    graph_module = torch.load(sys.argv[1])
    inputs = torch.load(sys.argv[2])
    ShapeProp(graph_module).propagate(*inputs)
    count_dropout_analysis_pass(graph_module)
    remove_dropout_transform_pass(graph_module)
    _, out = count_dropout_analysis_pass(graph_module)
    assert out["dropout_count"] == 0, out
    torch.save(graph_module, sys.argv[3])


if __name__ == "__main__":
    main()
