"""torchtext's model classes without torchtext's __init__.

Debian's python3-torchtext 0.14 ships an empty C++ extension, so `import
torchtext` fails (`dynamic module does not define module export function
(PyInit__torchtext)`). Its model classes (RoBERTa, the prototype T5) are pure
Python: load_torchtext_module imports one from its file, with the packages on
the way made empty namespace modules, so that the package's __init__, which
loads the extension, never runs.

    model = load_torchtext_module("torchtext.models.roberta.model")
"""

import importlib
import os
import sys
import types


def load_torchtext_module(dotted):
    """Imports torchtext.X.Y from its file, with the packages on the way
    made empty namespace modules, so that torchtext/__init__.py (which
    loads the broken extension) never runs."""
    import torch  # noqa: F401
    root = None
    for path in sys.path:
        if os.path.isdir(os.path.join(path, "torchtext")):
            root = path
            break
    parts = dotted.split(".")
    for depth in range(1, len(parts)):
        package = ".".join(parts[:depth])
        if package not in sys.modules:
            module = types.ModuleType(package)
            module.__path__ = [os.path.join(root, *parts[:depth])]
            sys.modules[package] = module
    return importlib.import_module(dotted)
