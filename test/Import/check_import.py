#!/usr/bin/python3
"""Checks mav-translate --import-torchscript against PyTorch on real models.

For each model written by test/models/generate.py it imports NAME.pt twice and
checks, against the values PyTorch computed in the generator and against the
TorchScript module itself:
  - the two imports print the same text (determinism);
  - @forward calls exactly the model's leaf modules, class by class;
  - the parameter totals (all, trainable) equal PyTorch's;
  - every state_dict entry is a mav.weight with the same shape, dtype and bytes,
    and every other weight is a tensor constant.
Exits non-zero naming the model and the mismatch.

Usage: check_import.py --models DIR --translate PATH [NAME ...]
"""

import collections
import os
import re
import subprocess
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "models"))
import mavtest  # noqa: E402

WEIGHT = re.compile(
    r'^\s*mav\.weight @"?([^\s"]+)"? (parameter|buffer) = '
    r'dense_resource<([^>]+)> : tensor<([^>]*)>(?: \{(.*)\})?$')
RESOURCE = re.compile(r'^\s*"?([^":\s]+)"?: "0x([0-9A-F]*)",?$')
GRAPH = re.compile(r'^\s*mav\.graph (private )?@"?([^\s"(]+)"?\(')
CALL_MODULE = re.compile(r'= mav\.call_module .*module_class = "([^"]+)"')

TORCH_TO_MLIR = {
    torch.float32: "f32", torch.float64: "f64", torch.float16: "f16",
    torch.bfloat16: "bf16", torch.int64: "si64", torch.int32: "si32",
    torch.int16: "si16", torch.int8: "si8", torch.uint8: "ui8",
    torch.bool: "i1",
}


def fail(model, message):
    sys.exit(f"check_import: {model}: {message}")


def parse(text):
    weights, blobs = {}, {}
    calls, graph = collections.Counter(), None
    for line in text.splitlines():
        match = GRAPH.match(line)
        if match:
            graph = match.group(2)
            continue
        match = WEIGHT.match(line)
        if match:
            name, kind, key, type_, attrs = match.groups()
            attrs = attrs or ""
            weights[name] = (kind, key, type_, "frozen" in attrs,
                             "tied_to" in attrs)
            continue
        match = RESOURCE.match(line)
        if match:
            blobs[match.group(1)] = bytes.fromhex(match.group(2))[4:]
            continue
        match = CALL_MODULE.search(line)
        if match and graph == "forward":
            calls[match.group(1)] += 1
    return weights, blobs, calls


def tensor_type(tensor):
    dims = "x".join(str(d) for d in tensor.shape)
    element = TORCH_TO_MLIR[tensor.dtype]
    return f"{dims}x{element}" if dims else element


def numel(type_):
    count = 1
    for dim in type_.split("x")[:-1]:
        count *= int(dim)
    return count


def check(models, translate, name):
    reference = mavtest.reference(models, name)
    pt = os.path.join(models, name + ".pt")
    command = [translate, "--import-torchscript", pt]
    first = subprocess.run(command, capture_output=True, text=True)
    if first.returncode != 0:
        fail(name, "import failed: " + first.stderr.strip())
    second = subprocess.run(command, capture_output=True, text=True)
    if first.stdout != second.stdout:
        fail(name, "two imports printed different text")
    weights, blobs, calls = parse(first.stdout)

    expected_calls = collections.Counter(reference["leaf_modules_by_class"])
    if calls != expected_calls:
        fail(name, f"leaf module calls {dict(calls)} != PyTorch's "
                   f"{dict(expected_calls)}")
    if sum(calls.values()) != reference["leaf_module_calls"]:
        fail(name, "leaf module call total differs from PyTorch's")

    # A tied weight is a second name of a tensor: PyTorch counts it once.
    params = [w for w in weights.values() if w[0] == "parameter" and not w[4]]
    total = sum(numel(w[2]) for w in params)
    trainable = sum(numel(w[2]) for w in params if not w[3])
    if total != reference["param_count"]:
        fail(name, f"{total} parameters, PyTorch counts "
                   f"{reference['param_count']}")
    if trainable != reference["trainable_param_count"]:
        fail(name, f"{trainable} trainable parameters, PyTorch counts "
                   f"{reference['trainable_param_count']}")

    state = torch.jit.load(pt).state_dict()
    for key, tensor in state.items():
        if key not in weights:
            fail(name, f"state_dict entry {key} is not a mav.weight")
        kind, blob, type_ = weights[key][:3]
        if type_ != tensor_type(tensor):
            fail(name, f"weight {key} has type {type_}, PyTorch "
                       f"{tensor_type(tensor)}")
        data = tensor.detach().contiguous().view(-1).view(torch.uint8)
        if blobs.get(blob) != data.numpy().tobytes():
            fail(name, f"weight {key} is not bit-exact")
    for key in weights:
        if key not in state and not key.startswith("_tensor_constant"):
            fail(name, f"weight {key} is not in the state_dict")
    print(f"{name}: OK: {sum(calls.values())} leaf calls, {total} parameters, "
          f"{len(state)} state_dict entries bit-exact, deterministic")


def main():
    args = mavtest.parse_arguments("models", "translate")
    for name in args.names:
        check(args.models, args.translate, name)


if __name__ == "__main__":
    main()
