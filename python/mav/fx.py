"""`mav.from_fx`: a torch.fx GraphModule into mav IR.

The GraphModule is traced with torch.jit.trace and imported as any model is,
so that it runs on the same importer; then fx's own names and scopes are put
back:

- every node traced from a line of the GraphModule's generated code takes
  the name of the fx node that line computes (a line that lowers to several
  operators names the last, which gives the value);
- `call_module` nodes keep the module path, named as fx names them;
- a node whose fx node carries `nn_module_stack` (custom tracers record it)
  takes its innermost module as its scope;
- fx's leaf modules that are not torch.nn leaves (a custom tracer's
  `is_leaf_module`) stay whole `call_module` nodes;
- `get_attr` weights are the GraphModule's tensors, bit for bit.
"""

import re

from .errors import Error
from .tracing import _as_tuple, import_traced, jit_trace


def _example_inputs(graph_module):
    """Inputs from the placeholders' ShapeProp metadata (tensor_meta/val)."""
    import torch
    inputs = []
    for node in graph_module.graph.nodes:
        if node.op != "placeholder":
            continue
        meta = node.meta.get("tensor_meta") or node.meta.get("val")
        if meta is None or not hasattr(meta, "shape"):
            raise Error(
                f"from_fx: placeholder '{node.name}' has no shape: pass "
                "example inputs, or run torch.fx.passes.shape_prop.ShapeProp "
                "first", "<fx GraphModule>", node.name)
        if meta.dtype.is_floating_point or meta.dtype.is_complex:
            inputs.append(torch.randn(tuple(meta.shape), dtype=meta.dtype))
        else:
            inputs.append(torch.zeros(tuple(meta.shape), dtype=meta.dtype))
    return tuple(inputs)


def _leaf_classes(graph_module):
    """The classes fx kept as leaves although they call other modules."""
    classes = []
    for node in graph_module.graph.nodes:
        if node.op != "call_module":
            continue
        module = graph_module.get_submodule(node.target)
        if any(True for _ in module.children()) and type(module) not in classes:
            classes.append(type(module))
    return classes


def _code_lines(graph_module):
    """fx node name by line of the generated code, and the code's file."""
    code = graph_module.forward.__code__
    names = {}
    pattern = re.compile(r"^\s+([A-Za-z_][A-Za-z0-9_]*)\s*=")
    for number, line in enumerate(graph_module.code.splitlines(), start=1):
        match = pattern.match(line)
        if match:
            names[number] = match.group(1)
    return code.co_filename, names


def _innermost_scope(node):
    stack = node.meta.get("nn_module_stack")
    if not stack:
        return None
    path, module_class = list(stack.items())[-1]
    if isinstance(module_class, tuple):  # newer torch: (path, class)
        module_class = module_class[-1]
    if isinstance(module_class, type):
        module_class = f"{module_class.__module__}.{module_class.__qualname__}"
    return path, str(module_class)


def _fx_node_of_error(error, file, names):
    match = re.search(re.escape(file) + r":(\d+):\d+: note: traced from here",
                      error.message)
    return names.get(int(match.group(1))) if match else None


def from_fx(graph_module, inputs=None, *, name=None):
    """Turns a `torch.fx.GraphModule` into a mav graph computing the same.

    `inputs` (a tensor or a tuple) gives the placeholders' shapes; without
    them, the placeholders' ShapeProp metadata does. A target mav cannot
    import is a mav.Error naming its fx node.
    """
    import torch
    inputs = (_example_inputs(graph_module) if inputs is None
              else _as_tuple(inputs))
    name = name or f"<fx {type(graph_module).__name__}>"
    file, names = _code_lines(graph_module)
    with torch.no_grad():
        traced = jit_trace(graph_module, inputs, name)
    try:
        graph = import_traced(traced, inputs, name,
                              _leaf_classes(graph_module))
    except Error as error:
        fx_node = _fx_node_of_error(error, file, names)
        if fx_node:
            raise Error(f"fx node '{fx_node}': {error.message}", error.file,
                        fx_node) from None
        raise
    _restore_names(graph, graph_module, file, names)
    return graph


def _restore_names(graph, graph_module, file, names):
    session = graph._session
    wanted = {}
    for node_name, (node_file, line, _) in session.node_locations().items():
        if node_file == file and line in names:
            wanted[names[line]] = node_name  # the last node of the line
    current = {node.name for node in graph.nodes}
    renamed = set(wanted.values())
    # Nodes in the way of an fx name move aside first.
    for fx_name, node_name in wanted.items():
        if fx_name in current and fx_name != node_name and \
                fx_name not in renamed:
            session.rename_node(fx_name, f"{fx_name}_mav", False)
    # Two steps, so that swapped names do not collide.
    for index, (fx_name, node_name) in enumerate(wanted.items()):
        if fx_name != node_name:
            session.rename_node(node_name, f"mav_from_fx_{index}", True)
    for index, (fx_name, node_name) in enumerate(wanted.items()):
        if fx_name != node_name:
            session.rename_node(f"mav_from_fx_{index}", fx_name, True)
    graph._changed()
    fx_nodes = {node.name: node for node in graph_module.graph.nodes}
    present = {node.name for node in graph.nodes}
    for fx_name, fx_node in fx_nodes.items():
        scope = _innermost_scope(fx_node)
        if scope and fx_name in present and fx_node.op != "placeholder":
            session.set_scope(fx_name, *scope)
    graph._changed()
