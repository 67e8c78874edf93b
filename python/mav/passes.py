"""Python functions as mav passes.

A pass is a function that takes a `mav.Graph`. Registered by name, any
pipeline string can run it next to mav's C++ passes::

    @mav.register_pass("my-count-relu")
    def count_relu(graph):
        return {"relu": sum(n.mase_op == "relu" for n in graph.nodes)}

    g.run("mav-raise,my-count-relu")
    g.pass_outputs["my-count-relu"]          # {'relu': 17}

What the function returns, a dict or None, is recorded as its pass outputs,
as MASE passes return `(graph, pass_outputs)`. An exception it raises fails
the pipeline, and the graph is left as it was before the pipeline ran.
"""

from . import _core
from .errors import Error

_passes = {}
_running = []


def register_pass(name, function=None, *, description=""):
    """Registers `function` as the pass `name`; usable as a decorator.

    Registering a name again replaces its function. A name that one of mav's
    own passes or pipelines has is refused.
    """

    def register(function):
        if not callable(function):
            raise Error(f"register_pass: {function!r} is not callable")
        _core.register_python_pass(
            name, description or (function.__doc__ or "").strip() or name)
        _passes[name] = function
        return function

    return register if function is None else register(function)


def registered_passes():
    """The names of the Python passes registered so far."""
    return sorted(_passes)


def _anonymous(function):
    """A registered name for a function run directly by `Graph.run`."""
    name = f"python-{getattr(function, '__name__', 'pass')}-{id(function):x}"
    name = name.replace("_", "-").replace("<", "").replace(">", "")
    if _passes.get(name) is not function:
        register_pass(name, function)
    return name


def _dispatch(name):
    """Called by the C++ pass `name` on the graph being run."""
    graph = _running[-1]
    # The passes before this one in the pipeline may have changed anything.
    graph._session.forget_nodes()
    graph._changed()
    try:
        outputs = _passes[name](graph)
    finally:
        graph._changed()
    if outputs is not None:
        if not isinstance(outputs, dict):
            raise Error(f"python pass '{name}' returned {type(outputs).__name__}:"
                        " a pass returns a dict of pass outputs, or None")
        graph._session.record_pass_outputs(name, outputs)
        graph._changed()
