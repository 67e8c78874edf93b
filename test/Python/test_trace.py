"""trace, raise, check, summary, save and load on real torchvision models."""

import pytest
import torch

import mav


def test_trace_raise_check(resnet18, image):
    g = mav.trace(resnet18, image)
    g.run("mav-raise")
    result = g.check(resnet18)
    assert "match" in result.report
    # The graph's output is the model's shape.
    expected = resnet18(image)
    assert g.outputs[0]["shape"] == list(expected.shape)


def test_check_on_given_inputs(resnet18, image):
    g = mav.trace(resnet18, image).run("mav-raise")
    g.check(resnet18, torch.randn(1, 3, 64, 64))


def test_check_fails_for_another_model(resnet18, image):
    g = mav.trace(resnet18, image).run("mav-raise")
    torch.manual_seed(5)
    other = type(resnet18)(block=type(resnet18.layer1[0]), layers=[2, 2, 2, 2],
                           num_classes=10).eval()
    with pytest.raises(mav.Error, match="MISMATCH"):
        g.check(other)


def test_nodes_read_like_fx(resnet18, image):
    g = mav.trace(resnet18, image).run("mav-raise")
    by_name = {n.name: n for n in g.nodes}
    conv = by_name["conv1"]
    assert conv.op == "call_module"
    assert conv.target == "conv1"
    assert conv.scope == "conv1"
    assert conv.mase_op == "conv2d"
    assert conv.common["mase_type"] == "module_related_func"
    assert conv.results[0]["shape"] == list(resnet18.conv1(image).shape)
    assert g.nodes[0].op == "placeholder"
    assert g.nodes[-1].op == "output"
    assert [n.name for n in by_name["layer1_0_conv1"].inputs] == ["maxpool"]


def test_dropout_count_and_removal(mobilenet_v2, image):
    expected = sum(isinstance(m, torch.nn.Dropout)
                   for m in mobilenet_v2.modules())
    assert expected > 0
    g = mav.trace(mobilenet_v2, image)
    g.run("mav-raise,mav-count-dropout,mav-remove-dropout")
    counted = g.pass_output_history[-2]["outputs"]
    assert counted["dropout_count"] == expected
    assert g.pass_outputs["mav-remove-dropout"]["removed"] == expected
    g.run("mav-count-dropout")
    assert g.pass_outputs["mav-count-dropout"]["dropout_count"] == 0
    g.check(mobilenet_v2)


def test_summary_counts_parameters(resnet18, image):
    g = mav.trace(resnet18, image).run("mav-raise,mav-count-flops")
    summary = g.summary()
    assert summary.totals["params"] == sum(
        p.numel() for p in resnet18.parameters())
    assert "conv1" in str(summary)


def test_save_and_load(tmp_path, resnet18, image):
    g = mav.trace(resnet18, image).run("mav-raise")
    g.node("conv1").software["note"] = "kept"
    path = tmp_path / "r.ckpt"
    g.save(path)
    loaded = mav.load(path)
    assert loaded.to_mlir() == g.to_mlir()
    assert loaded.node("conv1").software["note"] == "kept"
    loaded.check(resnet18)


def test_html_viewer(resnet18, image):
    g = mav.trace(resnet18, image).run("mav-raise")
    page = g.html()
    assert page.startswith("<!DOCTYPE html>") or page.startswith("<!doctype")
    assert "srcdoc=" in g._repr_html_()


def test_leaf_modules():
    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(8, 8)

        def forward(self, x):
            return torch.relu(self.linear(x)) + x

    torch.manual_seed(0)
    model = torch.nn.Sequential(Block(), torch.nn.Linear(8, 4)).eval()
    x = torch.randn(2, 8)
    g = mav.trace(model, x, leaf_modules=[Block]).run("mav-raise")
    blocks = [n for n in g.nodes if n.op == "call_module" and n.target == "0"]
    assert len(blocks) == 1
    assert blocks[0].module_class.endswith("Block")
    g.check(model)
