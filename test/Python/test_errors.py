"""Every failure is a mav.Error with the text, the file and the node; the
interpreter survives and the graph is as it was."""

import pytest
import torch

import mav


@pytest.fixture
def raised(resnet18, image):
    return mav.trace(resnet18, image).run("mav-raise")


def test_bad_pipeline_string(raised):
    before = raised.to_mlir()
    with pytest.raises(mav.Error, match="invalid pipeline 'mav-nonsense'"):
        raised.run("mav-nonsense")
    with pytest.raises(mav.Error, match="invalid pipeline"):
        raised.run("mav-quantize{width=}")
    assert raised.to_mlir() == before


def test_failing_pass_leaves_the_graph(raised):
    before = raised.to_mlir()
    with pytest.raises(mav.Error) as error:
        raised.run("mav-count-dropout,mav-export-checkpoint")
    assert "mav-export-checkpoint needs a path" in error.value.message
    assert raised.to_mlir() == before
    assert "mav-count-dropout" not in raised.pass_outputs


def test_wrong_input_shape(raised, resnet18):
    with pytest.raises(mav.Error, match="shape") as error:
        raised.check(resnet18, torch.randn(1, 3, 32, 33))
    assert error.value.file == raised.source


def test_wrong_input_shape_at_trace():
    model = torch.nn.Linear(4, 3)
    with pytest.raises(mav.Error, match="torch.jit.trace failed") as error:
        mav.trace(model, torch.randn(2, 5))
    assert isinstance(error.value.__cause__, RuntimeError)


def test_pipeline_inside_a_pass_on_the_same_graph(raised):
    def nested(graph):
        graph.run("mav-count-dropout")

    with pytest.raises(mav.Error, match="a pipeline is running on this graph"):
        raised.run(nested)


def test_corrupt_checkpoint(tmp_path, raised):
    path = tmp_path / "m.ckpt"
    raised.save(path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    corrupt = tmp_path / "corrupt.ckpt"
    corrupt.write_bytes(bytes(data))
    with pytest.raises(mav.Error) as error:
        mav.load(corrupt)
    assert "corrupt.ckpt" in str(error.value)


def test_missing_file(tmp_path):
    with pytest.raises(mav.Error, match="nothing-here.mlir"):
        mav.load(tmp_path / "nothing-here.mlir")


def test_not_a_model(tmp_path):
    path = tmp_path / "junk.mlir"
    path.write_text("this is not IR")
    with pytest.raises(mav.Error) as error:
        mav.load(path)
    assert error.value.file == str(path)


def test_rejected_metadata_names_the_node(raised):
    conv = raised.node("conv1")
    with pytest.raises(mav.Error) as error:
        conv.hardware["toolchain"] = "XILINX_HLS"
    assert error.value.node == "conv1"
    assert "toolchain" in error.value.message
    assert "toolchain" not in raised.node("conv1").hardware
    with pytest.raises(mav.Error) as error:
        conv.common["mase_type"] = "not_a_type"
    assert error.value.node == "conv1"
    assert raised.node("conv1").common["mase_type"] == "module_related_func"
    with pytest.raises(mav.Error, match="cannot store"):
        conv.software["tensor"] = torch.zeros(2)


def test_unknown_node(raised):
    with pytest.raises(mav.Error) as error:
        raised.node("no_such_node")
    assert error.value.node == "no_such_node"


def test_python_pass_exception(raised):
    before = raised.to_mlir()

    def broken(graph):
        graph.node("conv1").software["touched"] = 1
        raise ValueError("something went wrong")

    with pytest.raises(mav.Error, match="something went wrong"):
        raised.run(broken)
    assert raised.to_mlir() == before


def test_erase_used_node(raised):
    with pytest.raises(mav.Error, match="'bn1' uses it") as error:
        raised.node("conv1").erase()
    assert error.value.node == "conv1"


@torch.jit.script
def _flip_negative(x):
    if bool(x.sum() < 0):
        return -x
    return x


def test_import_refusal_names_the_node():
    class Scripted(torch.nn.Module):
        def forward(self, x):
            return _flip_negative(x) + 1

    with pytest.raises(mav.Error) as error:
        mav.trace(Scripted(), torch.randn(3, 3))
    assert "control flow" in error.value.message
    assert error.value.node
