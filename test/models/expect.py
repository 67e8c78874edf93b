#!/usr/bin/python3
"""Expected values from PyTorch, for FileCheck and for the checkers.

Command line: FileCheck definitions from a model's JSON (written by PyTorch
in generate.py) or computed with torch from the model itself.

    expect.py MODELS VAR=MODEL:EXPR ...

prints one definition per line, quoted for a response file: `-D#VAR=N` for
an integer (a FileCheck numeric variable: `[[#VAR]]`, `[[#VAR-1]]`,
`[[#mul(2,VAR)]]`), `-DVAR=TEXT` for a string (`[[VAR]]`). A test writes
them to a file and gives it to FileCheck as `@FILE`:

    RUN: %python %mav_src/test/models/expect.py %mav_models \
    RUN:   'DROPOUTS=vit:field("dropout_count")' > %t.defs
    RUN: ... | FileCheck %s @%t.defs

EXPR is a Python expression over these names:

    j                   the model's JSON (MODELS/MODEL.json)
    field(PATH)         j at PATH: keys and list indices joined by "/"; in a
                        list of objects, a key selects the object whose "key"
                        is it (state_dict_keys/conv1.weight/shape)
    tally(PATH, *SUBSTRINGS)
                        the sum of the values of the object at PATH whose
                        keys contain one of SUBSTRINGS (all with none); not
                        `count`, which lit substitutes in RUN lines
    shape(X), numel(X), dims(X)
                        a shape (list) or mav type ("1x3x8x8xf32"): its
                        extents as a list, their product, and joined by "x"
                        ("1x3x8x8")
    listed(X)           a list's items joined by ", " ("1, 3, 8, 8")
    quoted(X)           the same, each item in double quotes
    commas(N)           N with thousands separators ("36,864")
    scalar_type(DTYPE)  libtorch's name of a dtype ("torch.float32" -> "Float")
    leaf_output(PATH, CALL=0, RESULT=0)
                        the mav type of a leaf module call's output, from
                        PyTorch's forward hooks (leaf_module_output_types)
    module_params(PATH) sum(p.numel() for p in module.parameters()) of the
                        module at PATH of eager()
    calibrated_frac(PATH, WIDTH, SAMPLES, SEED)
                        the frac -mav-quantize's calibration gives the leaf
                        module PATH ("" for the graph input), measured with
                        forward hooks on eager()
    eager()             the model NAME.pt was traced from, as generate.py
                        builds it (eager_model: its seed and calibration),
                        in eval mode, e.g. eager().conv1.stride
    loaded()            torch.jit.load(MODELS/MODEL.pt)

Exits 1 with a message naming the definition when an expression fails or
gives something that is neither an integer nor a string.

As a module, the checkers take from here what PyTorch says a graph holds
(`expected_nodes`, `graph_nodes`, `scopes_of`, `difference`) and the eager
model (`eager_model`).
"""

import collections
import json
import os
import shlex
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def reference(models, name):
    """The JSON generate.py wrote for NAME."""
    with open(os.path.join(models, name + ".json")) as f:
        return json.load(f)


def eager_model(name):
    """(model, inputs): the eager module NAME.pt was traced from and its
    example inputs, as generate.py builds them (its seeds, and, with
    generate.build, the weights it calibrates), in eval mode."""
    import torch
    sys.path.insert(0, HERE)
    import generate
    if hasattr(generate, "build"):
        built = generate.build(name)
        return built.model.eval(), built.inputs
    builder, _ = generate.REGISTRY[name]
    torch.manual_seed(generate.MODEL_SEED)
    spec = builder()
    model = spec.model.eval()
    torch.manual_seed(generate.INPUT_SEED)
    return model, spec.inputs()


# --------------------------------------------------------------------------
# The nodes of a graph as PyTorch traced it.
# --------------------------------------------------------------------------

def leaf_paths(ref):
    return set(ref["leaf_module_call_sequence"])


def expected_nodes(ref):
    """What mav's @forward holds after an import with the default leaf
    policy, as PyTorch says: a Counter of (kind, scope).

    From the generator's JSON: every node of the traced, fully inlined
    graph that mav imports as a node (`entry_exit`, in TorchScript kinds)
    outside the leaf modules, and one ("call_module", PATH) per leaf call
    (`leaf_module_call_sequence`, forward hooks)."""
    if "entry_exit" not in ref:
        raise KeyError("%s.json has no entry_exit" % ref["name"])
    leaves = leaf_paths(ref)
    nodes = collections.Counter()
    for entry in ref["entry_exit"]:
        if entry["scope"] not in leaves:
            nodes[(entry["kind"], entry["scope"])] += 1
    for path in ref["leaf_module_call_sequence"]:
        nodes[("call_module", path)] += 1
    return nodes


def dropout_module_paths(ref):
    """Paths of the modules whose class is a dropout class the generator's
    hooks counted (the JSON's dropout_modules)."""
    classes = set(ref["dropout_modules"])
    if not classes:
        return set()
    model, _ = eager_model(ref["name"])
    return {path for path, module in model.named_modules()
            if type(module).__module__ + "." + type(module).__qualname__
            in classes}


def node_kind(node, weight_kinds):
    """The TorchScript kind of a node of mav's --export-json, as
    `expected_nodes` spells it."""
    op, target = node["op"], node.get("target", "")
    if op == "call_module":
        return "call_module"
    if op == "get_attr":
        return ("prim::Constant" if weight_kinds.get(target) == "constant"
                else "prim::GetAttr")
    if op == "call_method":
        return "aten::" + target
    return target.split(".")[0]


def graph_nodes(doc, graph="forward"):
    """A Counter of (kind, scope) of mav's --export-json graph, placeholders
    and the output left out; call_module nodes keyed by their target."""
    weight_kinds = {w["name"]: w["kind"] for w in doc.get("weights", [])}
    nodes = collections.Counter()
    for node in [g for g in doc["graphs"] if g["name"] == graph][0]["nodes"]:
        if node["op"] in ("placeholder", "output"):
            continue
        if node["op"] == "call_module":
            nodes[("call_module", node["target"])] += 1
        else:
            nodes[(node_kind(node, weight_kinds), node.get("scope", ""))] += 1
    return nodes


def difference(expected, actual, limit=6):
    """'' when the Counters agree, else what is missing and what is extra."""
    missing = expected - actual
    extra = actual - expected
    if not missing and not extra:
        return ""

    def show(counter):
        items = sorted(counter.items())
        text = ", ".join("%s%s" % (key, " x%d" % n if n > 1 else "")
                         for key, n in items[:limit])
        return text + (", ..." if len(items) > limit else "")
    parts = []
    if missing:
        parts.append("missing %d (%s)" % (sum(missing.values()),
                                          show(missing)))
    if extra:
        parts.append("extra %d (%s)" % (sum(extra.values()), show(extra)))
    return "; ".join(parts)


def scopes_of(nodes):
    """Every scope of the (kind, scope) keys and its ancestors, the root
    ("") left out: the module scopes a summary has rows for."""
    scopes = set()
    for _, scope in nodes:
        while scope:
            scopes.add(scope)
            scope = scope.rpartition(".")[0]
    return scopes


# --------------------------------------------------------------------------
# The command line.
# --------------------------------------------------------------------------

def shape_of(value):
    if isinstance(value, str):
        return [int(d) for d in value.split("x")[:-1]]
    return [int(d) for d in value]


class Model:
    def __init__(self, models, name):
        self.models, self.name = models, name
        self.json = reference(models, name)
        self._eager = self._loaded = None

    def field(self, path):
        value = self.json
        for key in str(path).split("/"):
            if isinstance(value, list):
                if key.lstrip("-").isdigit():
                    value = value[int(key)]
                else:
                    found = [v for v in value
                             if isinstance(v, dict) and v.get("key") == key]
                    if not found:
                        raise KeyError("no entry %r" % key)
                    value = found[0]
            else:
                value = value[key]
        return value

    def tally(self, path, *substrings):
        return sum(v for k, v in self.field(path).items()
                   if not substrings or any(s in k for s in substrings))

    def leaf_output(self, path, call=0, result=0):
        """The mav type of a leaf module call's output, as PyTorch's
        forward hooks saw it."""
        calls = [types for p, types in zip(
            self.json["leaf_module_call_sequence"],
            self.json["leaf_module_output_types"]) if p == path]
        return calls[call][result]

    def module_params(self, path):
        return sum(p.numel() for p in
                   self.eager().get_submodule(path).parameters())

    def calibrated_frac(self, node, width, samples, seed):
        """The frac -mav-quantize='width=W calibrate=N calibration-seed=S'
        gives `node` (a leaf module's path, or "" for the graph input), from
        PyTorch: over inputs drawn after torch.manual_seed(S + i), i < N,
        the largest |x| of the module's input, output, weight and bias, r;
        I the smallest I >= 1 with 2^(I-1) > r * 9/8; frac = W - I, or 0
        when I > W."""
        import torch
        model = self.eager()
        shapes = [shape_of(t) for t in self.json["input_shapes"]]
        seen = [0.0]

        def magnitude(t):
            return float(t.detach().abs().max()) if t.numel() else 0.0

        def hook(module, inputs, output):
            values = [t for t in list(inputs) + [output]
                      if isinstance(t, torch.Tensor)]
            values += list(module.parameters(recurse=False))
            seen[0] = max([seen[0]] + [magnitude(t) for t in values])

        handle = (model.get_submodule(node).register_forward_hook(hook)
                  if node else None)
        try:
            with torch.no_grad():
                for i in range(samples):
                    torch.manual_seed(seed + i)
                    inputs = [torch.randn(shape) for shape in shapes]
                    if not node:
                        seen[0] = max([seen[0]] +
                                      [magnitude(t) for t in inputs])
                    model(*inputs)
        finally:
            if handle:
                handle.remove()
        bits = 1
        while not 2.0 ** (bits - 1) > seen[0] * 9 / 8:
            bits += 1
        return width - bits if bits <= width else 0

    def eager(self):
        if self._eager is None:
            self._eager = eager_model(self.name)[0]
        return self._eager

    def loaded(self):
        if self._loaded is None:
            import torch
            self._loaded = torch.jit.load(
                os.path.join(self.models, self.name + ".pt"))
        return self._loaded


def scalar_type(dtype):
    import torch
    tensor_type = torch.empty(0, dtype=getattr(torch, dtype.split(".")[-1]))
    return tensor_type.type().split(".")[-1].replace("Tensor", "")


def evaluate(model, expr):
    names = {
        "j": model.json, "field": model.field, "tally": model.tally,
        "eager": model.eager, "loaded": model.loaded,
        "leaf_output": model.leaf_output,
        "module_params": model.module_params,
        "calibrated_frac": model.calibrated_frac,
        "numel": lambda x: int(__import__("math").prod(shape_of(x))),
        "dims": lambda x: "x".join(str(d) for d in shape_of(x)),
        "listed": lambda x: ", ".join(str(v) for v in x),
        "quoted": lambda x: ", ".join('"%s"' % v for v in x),
        "commas": lambda n: "{:,}".format(int(n)),
        "shape": shape_of, "scalar_type": scalar_type, "len": len,
        "sum": sum, "int": int, "str": str, "list": list, "tuple": tuple,
    }
    return eval(expr, {"__builtins__": {}}, names)


def main(argv):
    if len(argv) < 2 or argv[0] in ("-h", "--help"):
        print(__doc__.split("\n\n")[1] if argv else "", file=sys.stderr)
        sys.exit("usage: expect.py MODELS VAR=MODEL:EXPR ...")
    models, definitions = argv[0], argv[1:]
    cache = {}
    for definition in definitions:
        var, _, rest = definition.partition("=")
        name, _, expr = rest.partition(":")
        if not var or not name or not expr:
            sys.exit("expect.py: %r is not VAR=MODEL:EXPR" % definition)
        try:
            model = cache.get(name) or cache.setdefault(name,
                                                        Model(models, name))
            value = evaluate(model, expr)
        except Exception as error:  # noqa: BLE001 - reported by name
            sys.exit("expect.py: %s: %s: %s" % (definition,
                                               type(error).__name__, error))
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            sys.exit("expect.py: %s: %r is neither an integer nor a string"
                     % (definition, value))
        if isinstance(value, int):
            print(shlex.quote("-D#%s=%d" % (var, value)))
        else:
            print(shlex.quote("-D%s=%s" % (var, value)))


if __name__ == "__main__":
    main(sys.argv[1:])
