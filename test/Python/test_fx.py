"""mav.from_fx: fx GraphModules into mav IR, names, leaves and scopes kept."""

import pytest
import torch
import torch.fx
import torchvision

import mav


def fx_names(graph_module):
    return {n.name for n in graph_module.graph.nodes
            if n.op not in ("placeholder", "output")}


@pytest.mark.parametrize("builder", [
    torchvision.models.resnet18, torchvision.models.mobilenet_v2,
    torchvision.models.squeezenet1_0, torchvision.models.densenet121,
])
def test_torchvision_models(builder, image):
    torch.manual_seed(0)
    gm = torch.fx.symbolic_trace(builder(num_classes=10).eval())
    g = mav.from_fx(gm, image).run("mav-raise")
    assert fx_names(gm) <= {n.name for n in g.nodes}
    g.check(gm)


def test_weights_bit_exact(resnet18, image):
    gm = torch.fx.symbolic_trace(resnet18)
    g = mav.from_fx(gm, image)
    g.run("mav-raise")
    result = g.check(gm)
    assert result.largest_difference == 0


def test_names_of_functional_code():
    class Functional(torch.nn.Module):
        def forward(self, x, y):
            a = x[:, :2] * torch.sigmoid(y)
            return a.view(a.size(0), -1).sum(1, keepdim=True)

    gm = torch.fx.symbolic_trace(Functional())
    inputs = (torch.randn(3, 4), torch.randn(3, 2))
    g = mav.from_fx(gm, inputs).run("mav-raise")
    names = {n.name for n in g.nodes}
    assert fx_names(gm) <= names
    assert g.node("sum_1").mase_op == "sum"
    g.check(gm, inputs)


def test_shapes_from_shape_prop(resnet18, image):
    from torch.fx.passes.shape_prop import ShapeProp
    gm = torch.fx.symbolic_trace(resnet18)
    ShapeProp(gm).propagate(image)
    g = mav.from_fx(gm).run("mav-raise")
    assert g.inputs[0]["shape"] == list(image.shape)
    with pytest.raises(mav.Error, match="placeholder 'x' has no shape"):
        mav.from_fx(torch.fx.symbolic_trace(resnet18))


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(8, 8)
        self.norm = torch.nn.LayerNorm(8)

    def forward(self, x):
        return self.norm(torch.relu(self.linear(x)) + x)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.inner = torch.nn.Sequential(Block(), torch.nn.Linear(8, 4))

    def forward(self, x):
        return torch.tanh(self.inner(self.block(x)) * 2)


class ScopeTracer(torch.fx.Tracer):
    """A tracer with custom leaves that records nn_module_stack, as MASE's
    and the dmx seed's tracers do."""

    def __init__(self, leaves=()):
        super().__init__()
        self.leaves = tuple(leaves)
        self.stack = []

    def is_leaf_module(self, module, qualified_name):
        return isinstance(module, self.leaves) or \
            super().is_leaf_module(module, qualified_name)

    def call_module(self, module, forward, args, kwargs):
        self.stack.append((self.path_of_module(module), type(module)))
        try:
            return super().call_module(module, forward, args, kwargs)
        finally:
            self.stack.pop()

    def create_proxy(self, *args, **kwargs):
        proxy = super().create_proxy(*args, **kwargs)
        proxy.node.meta["nn_module_stack"] = dict(self.stack)
        return proxy


def test_custom_leaf_modules():
    torch.manual_seed(0)
    model = Net().eval()
    gm = torch.fx.GraphModule(model, ScopeTracer([Block]).trace(model))
    x = torch.randn(2, 8)
    g = mav.from_fx(gm, x).run("mav-raise")
    leaves = {n.name: n for n in g.nodes if n.op == "call_module"}
    assert leaves["block"].module_class.endswith("Block")
    assert leaves["inner_0"].module_class.endswith("Block")
    assert fx_names(gm) <= {n.name for n in g.nodes}
    g.check(gm)
    g.check(model)


def test_scopes_from_nn_module_stack():
    torch.manual_seed(0)
    model = Net().eval()
    gm = torch.fx.GraphModule(model, ScopeTracer().trace(model))
    g = mav.from_fx(gm, torch.randn(2, 8)).run("mav-raise")
    fx_nodes = {n.name: n for n in gm.graph.nodes}
    checked = 0
    for node in g.nodes:
        fx_node = fx_nodes.get(node.name)
        if fx_node is None or fx_node.op != "call_function":
            continue
        stack = fx_node.meta["nn_module_stack"]
        assert node.scope == (list(stack)[-1] if stack else "")
        checked += 1
    assert checked >= 4
    assert g.node("relu").scope == "block"
    assert g.node("relu_1").scope == "inner.0"


def test_unmappable_target_names_the_fx_node():
    library = torch.library.Library("mavtest", "DEF")
    library.define("twice(Tensor x) -> Tensor")
    library.impl("twice", lambda x: x * 2, "CPU")

    class Custom(torch.nn.Module):
        def forward(self, x):
            return torch.ops.mavtest.twice(torch.relu(x)) + 1

    gm = torch.fx.symbolic_trace(Custom())
    g = mav.from_fx(gm, torch.randn(2, 4))
    with pytest.raises(mav.Error, match="mavtest::twice") as error:
        g.run("mav-raise")
    assert error.value.node == "twice"
