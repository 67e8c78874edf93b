"""The hardware flow from Python: quantize, export, simulate bit-exact."""

import pytest
import torch
from torch import nn

import mav


@pytest.fixture(scope="module")
def cnn():
    torch.manual_seed(3)
    model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4),
                          nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                          nn.Linear(64, 8))
    batch_norm = model[1]
    batch_norm.running_mean.uniform_(-0.5, 0.5)
    batch_norm.running_var.uniform_(0.5, 1.5)
    return model.eval()


def test_quantize_export_simulate(cnn, tmp_path):
    g = mav.trace(cnn, torch.randn(1, 3, 8, 8))
    g.run("mav-raise,mav-fold-batchnorm,mav-quantize{width=16 frac=10},"
          "mav-add-hardware-metadata{max-parallelism=2}")
    linear = g.node("_5")
    assert linear.hardware["toolchain"] == "INTERNAL_RTL"
    assert linear.common["args"]["data_in_0"]["type"] == "fixed"
    # The fixed-point model against float PyTorch, within its error bound.
    assert "within the error bound" in g.check(cnn).report
    g.export_verilog(tmp_path / "rtl")
    assert (tmp_path / "rtl" / "top.sv").exists()
    report = g.simulate_rtl(tmp_path / "rtl", cnn, samples=2, seed=3)
    assert "differing: 0" in report and "bit-exact" in report
    assert "within 10%" in report


def test_export_needs_a_quantized_graph(cnn, tmp_path):
    g = mav.trace(cnn, torch.randn(1, 3, 8, 8)).run("mav-raise")
    with pytest.raises(mav.Error):
        g.export_verilog(tmp_path / "rtl")
    assert not (tmp_path / "rtl").exists()
