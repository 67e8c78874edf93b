"""Passes written in Python, inside mav pipelines."""

import sys
from pathlib import Path

import pytest
import torch

import mav

# The tutorial's passes (docs/WritingPasses.md, section 6), registered on
# import as tutorial-count-dropout and tutorial-remove-dropout.
sys.path.insert(0, str(Path(__file__).parents[2] / "examples" / "python"))
import dropout_passes  # noqa: E402,F401


def test_python_count_agrees_with_cpp(mobilenet_v2, image):
    g = mav.trace(mobilenet_v2, image)
    g.run("mav-raise,tutorial-count-dropout,mav-count-dropout")
    expected = sum(isinstance(m, torch.nn.Dropout)
                   for m in mobilenet_v2.modules())
    assert g.pass_outputs["tutorial-count-dropout"]["dropout_count"] == expected
    assert g.pass_outputs["mav-count-dropout"]["dropout_count"] == expected


def test_python_transform_keeps_semantics(mobilenet_v2, image):
    g = mav.trace(mobilenet_v2, image).run("mav-raise")
    g.run(["tutorial-remove-dropout", "mav-count-dropout"])
    assert g.pass_outputs["tutorial-remove-dropout"]["removed"]
    assert g.pass_outputs["mav-count-dropout"]["dropout_count"] == 0
    g.check(mobilenet_v2)


def test_function_run_directly(resnet18, image):
    g = mav.trace(resnet18, image).run("mav-raise")

    def tag_convolutions(graph):
        for node in graph.nodes:
            if node.mase_op == "conv2d":
                node.software["weight_shape"] = \
                    node.common["args"]["weight"]["shape"]

    g.run(tag_convolutions)
    assert g.node("conv1").software["weight_shape"] == \
        list(resnet18.conv1.weight.shape)


def test_insert_nodes_then_raise(resnet18, image):
    g = mav.trace(resnet18, image).run("mav-raise")
    fc = g.node("fc")
    # fc(x) becomes fc(-(-x)): two inserted aten::neg calls.
    source = fc.inputs[0]
    first = g.insert_call("aten::neg", [source], before=fc)
    second = g.insert_call("aten::neg", [first], before=fc, name="neg_again")
    fc.set_arg(0, second)
    g.run("mav-raise")
    assert g.node("neg_again").mase_op == "neg"
    assert g.node("neg_again").results[0]["shape"] == [1, 512]
    g.check(resnet18)
    # A wrong edit is caught by the same check.
    g.node("neg_again").replace_all_uses_with(first)
    g.node("neg_again").erase()
    g.run("mav-raise")
    with pytest.raises(mav.Error, match="MISMATCH"):
        g.check(resnet18)


def test_name_clash_with_cpp_pass():
    with pytest.raises(mav.Error, match="already has a pass"):
        mav.register_pass("mav-raise", lambda graph: None)
