"""Two passes written in Python, run inside mav pipelines: an analysis that
counts dropout, and a transform that removes it, proven by Graph.check."""

import torch
import torchvision

import mav

DROPOUT_OPS = {"dropout", "feature_dropout", "alpha_dropout"}


@mav.register_pass("tutorial-count-dropout")
def count_dropout(graph):
    """Counts dropout nodes by operator."""
    counts = {}
    for node in graph.nodes:
        if node.mase_op in DROPOUT_OPS:
            counts[node.mase_op] = counts.get(node.mase_op, 0) + 1
            node.software["is_dropout"] = True
    return {"dropout_count": sum(counts.values()), "by_op": counts}


@mav.register_pass("tutorial-remove-dropout")
def remove_dropout(graph):
    """Each dropout's users read its input instead; the dropout goes."""
    removed = []
    for node in graph.nodes:
        if node.mase_op in DROPOUT_OPS:
            node.replace_all_uses_with(node.inputs[0])
            node.erase()
            removed.append(node.name)
    return {"removed": removed}


def main():
    torch.manual_seed(0)
    model = torchvision.models.mobilenet_v2(num_classes=10).eval()
    graph = mav.trace(model, torch.randn(1, 3, 64, 64))
    graph.run("mav-raise,tutorial-count-dropout")

    expected = sum(isinstance(m, torch.nn.Dropout) for m in model.modules())
    counted = graph.pass_outputs["tutorial-count-dropout"]
    print("dropout counted by the pass:", counted["dropout_count"])
    print("nn.Dropout modules in PyTorch:", expected)
    assert counted["dropout_count"] == expected

    graph.run("tutorial-remove-dropout,tutorial-count-dropout")
    print("removed:", graph.pass_outputs["tutorial-remove-dropout"]["removed"])
    print("left:", graph.pass_outputs["tutorial-count-dropout"]["dropout_count"])
    print("check:", graph.check(model).report)


if __name__ == "__main__":
    main()
