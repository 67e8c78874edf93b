"""The seeds' analyses from a model in hand, against PyTorch's own figures."""

import pytest
import torch

import mav


def test_analyse_scale(resnet18, image):
    analysis = mav.analyse_scale(resnet18, image)
    fwd_std = analysis.outputs["fwd_std"]
    # The same draw as mav's (seed 0, torch.randn), through PyTorch.
    torch.manual_seed(0)
    x = torch.randn(image.shape)
    with torch.no_grad():
        conv1 = resnet18.conv1(x)
        output = resnet18(x)
    assert fwd_std["conv1"] == pytest.approx(conv1.std().item(), rel=1e-5)
    assert fwd_std["fc"] == pytest.approx(output.std().item(), rel=1e-5)
    assert "conv1" in analysis.listing
    assert set(analysis.outputs["grad_std"]) == {
        name for name, _ in resnet18.named_parameters()}


def test_param_exec_order(resnet18, image):
    orders = mav.param_exec_order(resnet18, image)
    started = []
    hooks = [module.register_forward_pre_hook(
        lambda module, args, name=name: started.append(name))
        for name, module in resnet18.named_modules()
        if not list(module.children())]
    with torch.no_grad():
        resnet18(image)
    for hook in hooks:
        hook.remove()
    assert orders["module_order"] == started
    assert orders["param_forward_order"][:2] == ["conv1.weight", "bn1.weight"]
