#!/usr/bin/python3
"""Checks -mav-analyse-scale and -mav-param-exec-order against PyTorch.

For each model of test/models: mav imports NAME.pt and runs
    -mav-raise [-mav-remove-dropout] -mav-analyse-scale -mav-param-exec-order
with --mav-report. PyTorch runs the same model, built by the generator with
its seed and calibration (the module NAME.pt was traced from,
test/models/expect.py eager_model), in eval mode, on
inputs drawn the documented way (torch.manual_seed(seed), torch.randn, or
torch.rand with --distribution uniform, per argument, times scale), backward
from output gradients drawn the same way, with:
  - forward hooks on every leaf module PyTorch calls (the generator's
    leaf_module_call_sequence, without the dropout modules when they are
    removed), which must be mav's call_module nodes, in order, no more, no
    fewer; and a tensor hook on (a clone of) its output: std, mean, abs
    max, zero fraction of the output, std of its gradient;
  - the parameters' .grad: std per state_dict name;
  - forward pre-hooks on the leaf modules: module order, and parameter
    first-use order (a module's parameters when it is called);
  - param.register_hook: the order in which gradients become ready.
Values must agree to 1e-5 relative; orders exactly. Prints "NAME: OK: ..."
or "NAME: FAIL: reason".
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "models"))
import expect  # noqa: E402
import mavtest  # noqa: E402

RTOL = 1e-5


def close(a, b, atol=1e-7):
    return abs(a - b) <= atol + RTOL * abs(b)


def stats(t):
    v = t.detach().double()
    return {"std": v.std().item() if v.numel() > 1 else 0.0,
            "mean": v.mean().item(), "abs_max": v.abs().max().item(),
            "zero_fraction": v.eq(0).double().mean().item()}


def flat_tensors(value):
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in flat_tensors(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in flat_tensors(v)]
    return []


def run_mav(name, args, work):
    mlir = os.path.join(work, name + ".mlir")
    mavtest.import_model(args.translate, args.models, name, mlir)
    report = os.path.join(work, name + ".report.json")
    out = os.path.join(work, name + ".analysed.mlir")
    pipeline = ["-mav-raise"]
    if args.remove_dropout:
        pipeline.append("-mav-remove-dropout")
    pipeline += ["-mav-analyse-scale=seed=%d scale=%g distribution=%s" %
                 (args.seed, args.scale, args.distribution),
                 "-mav-param-exec-order=seed=%d second-seed=%d" %
                 (args.seed, args.seed + 1)]
    subprocess.run([args.opt, mlir, *pipeline, "--mav-elide-weights",
                    "--mav-report=" + report, "-o", out], check=True)
    outputs = {p["pass"]: p["outputs"] for p in json.load(open(report))}
    calls, in_forward = [], False
    for line in open(out):
        if line.lstrip().startswith("mav.graph"):
            in_forward = "@forward(" in line
        m = re.match(r'\s+%([\w.]+) = mav\.call_module "([^"]+)"', line)
        if m and in_forward:
            calls.append((m.group(1), m.group(2)))
    return outputs, calls


def run_torch(name, ref, args, targets):
    model, _ = expect.eager_model(name)
    modules = dict(model.named_modules())
    recorded, order, forward_order, backward_order = {}, [], [], []
    seen = set()
    names = {id(p): n for n, p in model.named_parameters()}

    def pre_hook(path):
        def hook(module, inputs):
            order.append(path)
            for p in module.parameters():
                if id(p) not in seen:
                    seen.add(id(p))
                    forward_order.append(names[id(p)])
        return hook

    def post_hook(path):
        # A tensor output is replaced by its clone, which the hook watches:
        # an in-place op downstream (resnet's relu_) then modifies the clone,
        # and the hook still sees the gradient w.r.t. this module's value
        # (in torch 1.13 a hook registered on a tensor after an in-place op
        # may see the gradient of the value before it).
        def hook(module, inputs, output):
            if path in recorded:
                return None
            t = output.clone() if isinstance(output, torch.Tensor) else \
                flat_tensors(output)[0]
            entry = recorded[path] = stats(t)
            if t.requires_grad:
                t.register_hook(
                    lambda g: entry.__setitem__("bwd_std", stats(g)["std"]))
            return t if isinstance(output, torch.Tensor) else None
        return hook

    for path in targets.values():
        modules[path].register_forward_pre_hook(pre_hook(path))
        modules[path].register_forward_hook(post_hook(path))
    for n, p in model.named_parameters():
        if p.requires_grad:
            p.register_hook(lambda g, n=n: backward_order.append(n))

    draw = torch.rand if args.distribution == "uniform" else torch.randn
    torch.manual_seed(args.seed)
    inputs = []
    for dtype in ref["input_dtypes"]:
        shape = [int(d) for d in ref["input_shapes"][len(inputs)].split("x")[:-1]]
        if dtype.startswith("torch.float"):
            x = (draw(shape) * args.scale).requires_grad_()
        else:
            x = torch.randint(0, 10, shape, dtype=getattr(torch, dtype[6:]))
        inputs.append(x)
    outputs = [t for t in flat_tensors(model(*inputs)) if t.is_floating_point()]
    roots, grads = [], []
    for t in outputs:
        g = draw(t.shape) * args.scale
        if t.requires_grad:
            roots.append(t)
            grads.append(g)
    torch.autograd.backward(roots, grads)
    grad_std = {n: p.grad.double().std().item()
                for n, p in model.named_parameters() if p.grad is not None}
    return recorded, order, forward_order, backward_order, grad_std


def check(name, args):
    ref = mavtest.reference(args.models, name)
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    mav, calls = run_mav(name, args, work)
    scale, execution = mav["mav-analyse-scale"], mav["mav-param-exec-order"]
    # The leaf module calls are PyTorch's (forward hooks in the generator):
    # each must be a call_module node of mav's graph, in order, and mav's
    # graph may call nothing else.
    removed = expect.dropout_module_paths(ref) if args.remove_dropout \
        else set()
    expected = [p for p in ref["leaf_module_call_sequence"]
                if p not in removed]
    got = [path for _, path in calls]
    if got != expected:
        return "FAIL: call_module nodes differ from PyTorch's leaf calls: " \
            + (expect.difference(collections.Counter(expected),
                                 collections.Counter(got)) or
               "order %s, PyTorch %s" % (got, expected))
    targets = {}
    for node, path in calls:
        if path not in targets.values():
            targets[node] = path
    recorded, order, forward_order, backward_order, grad_std = run_torch(
        name, ref, args, targets)

    compared = 0
    for node, path in targets.items():
        want = recorded.get(path)
        if want is None:
            return "FAIL: PyTorch never called " + path
        for key in ("std", "mean", "abs_max", "zero_fraction"):
            got = scale["fwd_" + key].get(node)
            if got is None or not close(got, want[key]):
                return "FAIL: %s fwd_%s %s, PyTorch %s" % (node, key, got,
                                                           want[key])
            compared += 1
        if "bwd_std" in want:
            got = scale["bwd_std"].get(node)
            if got is None or not close(got, want["bwd_std"]):
                return "FAIL: %s bwd_std %s, PyTorch %s" % (
                    node, got, want["bwd_std"])
            compared += 1
    if set(scale["grad_std"]) != set(grad_std):
        return "FAIL: grad_std for %s, PyTorch %s" % (
            sorted(scale["grad_std"]), sorted(grad_std))
    for n, want in grad_std.items():
        if not close(scale["grad_std"][n], want):
            return "FAIL: grad_std %s %s, PyTorch %s" % (
                n, scale["grad_std"][n], want)
        compared += 1
    if execution["module_order"] != order:
        return "FAIL: module_order %s, PyTorch %s" % (
            execution["module_order"], order)
    if execution["param_forward_order"] != forward_order:
        return "FAIL: param_forward_order %s, PyTorch %s" % (
            execution["param_forward_order"], forward_order)
    if execution["param_backward_order"] != backward_order:
        return "FAIL: param_backward_order %s, PyTorch %s" % (
            execution["param_backward_order"], backward_order)
    unused = sorted(n for n, _ in torch.jit.load(
        os.path.join(args.models, name + ".pt")).named_parameters()
        if n not in forward_order)
    if sorted(execution["unused_params"]) != unused:
        return "FAIL: unused_params %s, PyTorch %s" % (
            execution["unused_params"], unused)
    return ("OK: %d values within %g, %d modules, %d parameters in order, "
            "unused %s, shared %s, input_dependent %s" % (
                compared, RTOL, len(order), len(forward_order),
                execution["unused_params"], execution["shared_params"],
                execution["input_dependent"]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", required=True)
    parser.add_argument("--translate", default="mav-translate")
    parser.add_argument("--opt", default="mav-opt")
    parser.add_argument("--work", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--distribution", choices=["normal", "uniform"],
                        default="normal")
    parser.add_argument("--remove-dropout", action="store_true")
    parser.add_argument("names", nargs="+")
    args = parser.parse_args()
    torch.set_num_threads(1)
    failed = False
    for name in args.names:
        try:
            result = check(name, args)
        except subprocess.CalledProcessError as error:
            result = "FAIL: %s" % error
        failed |= result.startswith("FAIL")
        print("%s: %s" % (name, result), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
