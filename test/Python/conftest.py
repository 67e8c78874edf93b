"""Real models, built by PyTorch in the test's own process."""

import pytest
import torch
import torchvision


@pytest.fixture(scope="session")
def resnet18():
    torch.manual_seed(0)
    return torchvision.models.resnet18(num_classes=10).eval()


@pytest.fixture(scope="session")
def mobilenet_v2():
    torch.manual_seed(0)
    return torchvision.models.mobilenet_v2(num_classes=10).eval()


@pytest.fixture(scope="session")
def image():
    torch.manual_seed(1)
    return torch.randn(1, 3, 64, 64)
