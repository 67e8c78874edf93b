"""Reading and writing MASE metadata from Python."""

import mav


def test_software_metadata_round_trip(resnet18, image):
    g = mav.trace(resnet18, image).run("mav-raise")
    node = g.node("layer1_0_conv1")
    node.software["my_stat"] = 3.0
    node.software["tags"] = ["a", "b"]
    node.software["nested"] = {"count": 2, "ok": True}
    again = g.node("layer1_0_conv1")
    assert again.software == {"my_stat": 3.0, "tags": ["a", "b"],
                              "nested": {"count": 2, "ok": True}}
    assert 'my_stat = 3.0' in g.to_mlir()
    del again.software["tags"]
    assert "tags" not in g.node("layer1_0_conv1").software


def test_hardware_and_common_writes(resnet18, image):
    g = mav.trace(resnet18, image).run("mav-raise")
    fc = g.node("fc")
    fc.hardware["toolchain"] = "INTERNAL_RTL"
    fc.hardware["max_parallelism"] = [4, 2]
    fc.common["mase_op"] = "linear"
    fc = g.node("fc")
    assert fc.hardware["toolchain"] == "INTERNAL_RTL"
    assert fc.hardware["max_parallelism"] == [4, 2]


def test_every_node_has_metadata_after_raise(resnet18, image):
    g = mav.trace(resnet18, image).run("mav-raise")
    for node in g.nodes:
        if node.op in ("placeholder", "output"):
            continue
        assert node.mase_type, node.name
        assert isinstance(node.common, dict)
