"""Models into mav graphs, in this process: `mav.trace` and `mav.load`."""

import os
import tempfile

from . import _core
from .graph import Graph

_DTYPES = {
    "float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
    "int64": "si64", "int32": "si32", "int16": "si16", "int8": "si8",
    "uint8": "ui8", "bool": "i1", "complex64": "complex<f32>",
    "complex128": "complex<f64>",
}


def input_shape(tensor):
    """A tensor's type as `--input-shape` spells it: `1x3x224x224xf32`."""
    dtype = str(tensor.dtype).replace("torch.", "")
    if dtype not in _DTYPES:
        from .errors import Error
        raise Error(f"an input of dtype {tensor.dtype} has no mav type")
    return "x".join([str(size) for size in tensor.shape] + [_DTYPES[dtype]])


def class_name(leaf):
    """A leaf module given as a class, an instance or a name, as the
    importer's --leaf-module names it."""
    if isinstance(leaf, str):
        return leaf
    if not isinstance(leaf, type):
        leaf = type(leaf)
    # TorchScript drops a local class's `<locals>` path: its bare name.
    if "<locals>" in leaf.__qualname__:
        return leaf.__name__
    return f"{leaf.__module__}.{leaf.__qualname__}"


def _as_tuple(inputs):
    return tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)


def import_traced(traced, inputs, name, leaf_modules=()):
    """A TorchScript module, handed to mav's importer as an archive in a
    temporary file, which the importer maps: torch 1.13 saves to a file
    twice as fast as to memory (bench/RESULTS.md, "Python")."""
    import torch
    with tempfile.TemporaryDirectory(prefix="mav-trace-") as directory:
        path = os.path.join(directory, "traced.pt")
        torch.jit.save(traced, path)
        session = _core.Session.import_torchscript(
            path, name, [input_shape(tensor) for tensor in inputs],
            [class_name(leaf) for leaf in leaf_modules])
    return Graph(session)


def trace(model, inputs, *, leaf_modules=(), name=None):
    """Traces `model` on `inputs` (a tensor or a tuple of them) with
    torch.jit.trace and imports it, as `mav-translate --import-torchscript`
    with `--input-shape` and `--leaf-module` would, without files.

    Leaf classes in `leaf_modules` (classes, instances or qualified names)
    stay whole `call_module` nodes, as FX's leaf modules do. Returns the
    imported graph; run "mav-raise" to infer operators and shapes.
    """
    import torch
    inputs = _as_tuple(inputs)
    name = name or f"<trace of {type(model).__name__}>"
    with torch.no_grad():
        traced = jit_trace(model, inputs, name)
    return import_traced(traced, inputs, name, leaf_modules)


def jit_trace(model, inputs, name):
    """torch.jit.trace, its failure a mav.Error (PyTorch's error chained)."""
    import torch
    try:
        return torch.jit.trace(model, inputs, check_trace=False)
    except Exception as error:
        from .errors import Error
        first = str(error).strip().splitlines()[0] if str(error) else ""
        raise Error(f"{name}: error: torch.jit.trace failed: "
                    f"{type(error).__name__}: {first}", name) from error


def load(path):
    """Reads a checkpoint, or mav IR (text or bytecode, with its weights
    file)."""
    return Graph(_core.Session.load(str(path)))
