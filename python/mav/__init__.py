"""mav: MASE-style IR for PyTorch models, from Python.

    import mav, torch, torchvision
    model = torchvision.models.resnet18().eval()
    g = mav.trace(model, torch.randn(1, 3, 224, 224))
    g.run("mav-raise,mav-count-dropout,mav-remove-dropout")
    g.check(model)

The engine is mav's C++ core (mav._core), sharing this process's libtorch
with torch. See docs/Python.md.
"""

import torch  # noqa: F401  (loads libtorch before the core links to it)

from . import _core  # noqa: F401
from .analyses import analyse_scale, param_exec_order, ScaleAnalysis
from .errors import Error
from .fx import from_fx
from .graph import CheckResult, Graph, Node, Summary, ValueRef
from .passes import register_pass, registered_passes
from .tracing import load, trace


def operators():
    """The op registry (`mav-opt --list-operators`) as a dict."""
    import json
    return json.loads(_core.operator_registry_json())


__all__ = [
    "CheckResult", "Error", "Graph", "Node", "ScaleAnalysis", "Summary",
    "ValueRef", "analyse_scale", "from_fx", "load", "operators",
    "param_exec_order", "register_pass", "registered_passes", "trace",
]
