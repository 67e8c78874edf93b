#!/usr/bin/python3
"""PyTorch's own lists of operators, enumerated at test time.

Writes OUT/operators.json: every operator (a TorchScript node kind such as
"aten::log10") that one of these emits when traced, with where it came from:

  - PyTorch's operator database (torch.testing._internal's op_db), by
    family: `elementwise` (UnaryUfuncInfo, and BinaryUfuncInfo whose result
    is not boolean), `comparison` (BinaryUfuncInfo with a boolean result),
    `reduction` (ReductionOpInfo), `spectral` (SpectralFuncInfo), and,
    from the schema list (torch._C._jit_get_all_schemas), `creation` (every
    aten function with a `layout` argument, the factories and *_like) and
    `indexing` (every aten function with a tensor argument named index,
    indices or mask); backward functions are left out. Each op_db entry is
    traced on its first CPU sample; a schema name op_db has no entry for is
    listed by name;
  - the model builders of torchvision, torchaudio and torchtext, each traced
    in eval mode on a small input (model_builders.py).

For the sampled op_db entries it also writes bundles, OUT/BUNDLE.pt: one
traced module per family whose submodule `op_N` calls entry N on its sample,
with the sample's tensors as the module's inputs (OUT/BUNDLE.io.pt, as
test/models/generate.py writes) and, in OUT/BUNDLE.json, the input shapes and
each entry's output types. An entry that calls an operator mav refuses
(--registry) is listed but not bundled.
The operators an entry's trace calls besides its own (masked.mean's sum)
are listed as `used`. An entry whose outputs cannot be compared (random
or uninitialised values, non-finite values, or a float output below 0.01 in
magnitude, which a wrong result of zeros would match) goes to a `_shapes`
bundle, which is raised but not run.

Usage: pytorch_operators.py --out DIR [--registry REGISTRY.json]
                             [--builders all|none]
"""

import argparse
import collections
import json
import os
import sys
import time
import types
import unittest
import warnings

import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model_builders  # noqa: E402

INDEX_ARGUMENTS = ("index", "indices", "mask")
# Operators whose values are drawn at random or left uninitialised.
UNCOMPARABLE = ("rand", "randn", "randint", "randperm", "normal", "bernoulli",
                "empty", "multinomial", "poisson", "dropout", "rrelu",
                "exponential", "geometric", "cauchy", "log_normal",
                "uniform", "random")
MIN_OUTPUT_MAX_ABS = 0.01


def load_op_db():
    """torch.testing._internal.common_methods_invocations, whose import
    needs the expecttest package (not in Debian) only for its TestCase."""
    if "expecttest" not in sys.modules:
        shim = types.ModuleType("expecttest")
        shim.TestCase, shim.ACCEPT = unittest.TestCase, False
        sys.modules["expecttest"] = shim
    from torch.testing._internal import common_methods_invocations
    return common_methods_invocations


def schema_families():
    """aten function names by family, from the schema list."""
    families = collections.defaultdict(set)
    for schema in torch._C._jit_get_all_schemas():
        namespace, _, name = schema.name.partition("::")
        if namespace != "aten" or name.startswith("_") or \
                name.endswith("_backward"):
            continue
        arguments = [a for a in schema.arguments if not a.is_out]
        if any(a.name == "layout" for a in arguments):
            families["creation"].add(schema.name)
        if any(a.name in INDEX_ARGUMENTS and "Tensor" in str(a.type)
               for a in arguments):
            families["indexing"].add(schema.name)
    return families


STRUCTURE = ("prim::Constant", "prim::GetAttr", "prim::CallMethod")


def traced_kinds(graph):
    kinds = set()
    for node in graph.nodes():
        kinds.add(node.kind())
        for block in node.blocks():
            kinds |= traced_kinds(block)
    return kinds - set(STRUCTURE)


def flatten(value, out):
    if isinstance(value, torch.Tensor):
        out.append(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            flatten(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            flatten(item, out)
    return out


def rebuild(value, tensors):
    """`value` with its tensors replaced, in order, by `tensors`."""
    if isinstance(value, torch.Tensor):
        return tensors.pop(0)
    if isinstance(value, (list, tuple)):
        return type(value)(rebuild(item, tensors) for item in value)
    if isinstance(value, dict):
        return {k: rebuild(item, tensors) for k, item in value.items()}
    return value


class OpCall(nn.Module):
    """One op_db entry called on one sample, its tensors given as inputs."""

    def __init__(self, info, sample):
        super().__init__()
        self.info, self.sample = info, sample

    def forward(self, *tensors):
        s = self.sample
        call = rebuild([s.input, list(s.args), dict(s.kwargs)], list(tensors))
        return self.info.op(call[0], *call[1], **call[2])


class Bundle(nn.Module):
    def __init__(self, calls):
        super().__init__()
        self.counts = [len(inputs) for _, inputs in calls]
        for index, (call, _) in enumerate(calls):
            self.add_module("op_%d" % index, call)

    def forward(self, *tensors):
        outputs, start = [], 0
        for index, count in enumerate(self.counts):
            result = getattr(self, "op_%d" % index)(
                *tensors[start:start + count])
            outputs.extend(flatten(result, []))
            start += count
        return tuple(outputs)


def sample_dtype(info):
    supported = info.supported_dtypes("cpu")
    for dtype in (torch.float32, torch.int64, torch.bool):
        if dtype in supported:
            return dtype
    return None


def comparable(name, outputs):
    if any(word in name.split(".")[-1].split("_") for word in UNCOMPARABLE) \
            or name.split(".")[-1] in UNCOMPARABLE:
        return False
    for y in outputs:
        if y.is_floating_point() and y.numel():
            if not bool(y.isfinite().all()):
                return False
            if float(y.abs().max()) < MIN_OUTPUT_MAX_ABS:
                return False
    return True


def type_text(t):
    dtype = {torch.float32: "f32", torch.float64: "f64", torch.int64: "si64",
             torch.int32: "si32", torch.bool: "i1", torch.int8: "si8",
             torch.uint8: "ui8", torch.int16: "si16", torch.float16: "f16",
             torch.bfloat16: "bf16", torch.complex64: "complex<f32>",
             torch.complex128: "complex<f64>"}.get(t.dtype, str(t.dtype))
    return "x".join([str(d) for d in t.shape] + [dtype])


def op_db_entries(cmi, families_by_schema):
    """(family, info) for every op_db entry of a family, and the schema
    names each entry's family claims."""
    chosen = []
    for info in cmi.op_db:
        kind = type(info).__name__
        family = {"UnaryUfuncInfo": "elementwise",
                  "BinaryUfuncInfo": "elementwise",
                  "ReductionOpInfo": "reduction",
                  "SpectralFuncInfo": "spectral"}.get(kind)
        aten = "aten::" + (info.aten_name or info.name)
        for schema_family in ("creation", "indexing"):
            if aten in families_by_schema[schema_family]:
                family = family or schema_family
        if family:
            chosen.append((family, info))
    return chosen


def sample_entries(cmi, families_by_schema, operators, untraced,
                   unsupported):
    """Traces each chosen op_db entry on its first CPU sample; returns the
    calls that trace, by family. An entry that cannot be traced here (a
    CUDA-only jiterator op, a complex-only variant) goes to `untraced` with
    the reason."""
    calls = collections.defaultdict(list)
    for family, info in op_db_entries(cmi, families_by_schema):
        label = info.name + ("." + info.variant_test_name
                             if info.variant_test_name else "")
        dtype = sample_dtype(info)
        if dtype is None:  # complex only
            untraced[label] = "no real or integer dtype"
            continue
        try:
            torch.manual_seed(0)
            sample = next(iter(info.sample_inputs("cpu", dtype)))
            tensors = flatten([sample.input, list(sample.args),
                               dict(sample.kwargs)], [])
            call = OpCall(info, sample)
            with torch.no_grad(), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                traced = torch.jit.trace(call, tuple(tensors),
                                         check_trace=False)
                outputs = flatten(call(*tensors), [])
        except Exception as error:  # not on this CPU, or not traceable
            untraced[label] = str(error).strip().splitlines()[0][:200]
            continue
        kinds = traced_kinds(traced.inlined_graph)
        if family == "elementwise" and type(info).__name__ == \
                "BinaryUfuncInfo" and outputs and all(
                    y.dtype == torch.bool for y in outputs):
            family = "comparison"
        primary = "aten::" + (info.aten_name or info.name)
        for kind in kinds:
            # The entry's own operator is of its family; the others its
            # trace calls (masked.mean's sum and ones) are listed as used.
            role = family if kind.split(".")[0] in (primary, primary + "_") \
                else "used"
            entry = operators.setdefault(kind, {"families": [],
                                                "sources": []})
            if role not in entry["families"]:
                entry["families"].append(role)
            entry["sources"].append("op_db:" + label)
        if not outputs:
            continue
        if kinds & unsupported:
            continue
        calls[family].append({
            "label": label, "call": call, "inputs": tensors,
            "outputs": outputs, "kinds": sorted(kinds),
            "compare": comparable(info.name, outputs)})
    return calls


def write_bundle(out, name, family, entries):
    bundle = Bundle([(e["call"], e["inputs"]) for e in entries])
    inputs = [t for e in entries for t in e["inputs"]]
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        traced = torch.jit.trace(bundle, tuple(inputs), check_trace=False)
        outputs = list(traced(*inputs))
    pt = os.path.join(out, name + ".pt")
    traced.save(pt + ".tmp")
    os.replace(pt + ".tmp", pt)
    torch.save({"inputs": tuple(inputs), "outputs": tuple(outputs)},
               os.path.join(out, name + ".io.pt"))
    ops, position = [], 0
    for index, e in enumerate(entries):
        count = len(e["outputs"])
        ops.append({"module": "op_%d" % index, "label": e["label"],
                    "kinds": e["kinds"],
                    "input_types": [type_text(t) for t in e["inputs"]],
                    "output_types": [type_text(t) for t in
                                     outputs[position:position + count]],
                    "output_numel": [t.numel() for t in
                                     outputs[position:position + count]],
                    "input_numel": [t.numel() for t in e["inputs"]]})
        position += count
    json.dump({"family": family, "compare": name.endswith("_values"),
               "input_shapes": [type_text(t) for t in inputs],
               "output_types": [type_text(t) for t in outputs], "ops": ops},
              open(os.path.join(out, name + ".json"), "w"), indent=1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--registry", help="mav-opt --list-operators's "
                        "JSON: entries that call an unsupported operator are "
                        "listed but not bundled")
    parser.add_argument("--builders", choices=("all", "none"), default="all")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(1)
    warnings.filterwarnings("ignore")
    start = time.time()
    cmi = load_op_db()
    families_by_schema = schema_families()
    operators, untraced = {}, {}
    for family, names in families_by_schema.items():
        for name in names:
            entry = operators.setdefault(name, {"families": [], "sources": []})
            entry["families"].append(family)
            entry["sources"].append("schema")
    unsupported = set()
    if args.registry:
        unsupported = {u["aten_op"] for u in
                       json.load(open(args.registry))["unsupported"]}
    calls = sample_entries(cmi, families_by_schema, operators, untraced,
                           unsupported)
    for family, entries in sorted(calls.items()):
        for suffix, chosen in (("values", [e for e in entries if e["compare"]]),
                               ("shapes", [e for e in entries
                                           if not e["compare"]])):
            if chosen:
                write_bundle(args.out, "%s_%s" % (family, suffix), family,
                             chosen)
    timings, untraceable = {}, {}
    if args.builders != "none":
        for source, kinds, seconds in model_builders.trace_all():
            if kinds is None:
                untraceable[source] = seconds
                continue
            timings[source] = round(seconds, 2)
            for kind in kinds - set(STRUCTURE):
                entry = operators.setdefault(kind, {"families": [],
                                                    "sources": []})
                if "builders" not in entry["families"]:
                    entry["families"].append("builders")
                entry["sources"].append(source)
    json.dump({"operators": operators, "untraced": untraced,
               "untraceable_builders": untraceable,
               "builder_seconds": timings,
               "seconds": round(time.time() - start, 1)},
              open(os.path.join(args.out, "operators.json"), "w"),
              indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
