#!/usr/bin/python3
"""The synthetic benchmark model: N residual blocks of Linear -> ReLU -> Dropout.

    x = x + dropout(relu(fc(x)))        for each of the N blocks

The same model exists twice:

* as a torch.nn.Module (`torch_model`), for the torch.fx reference: every
  block is a `Block` module with `fc` (nn.Linear), `relu` (nn.ReLU) and
  `dropout` (nn.Dropout) children, so symbolic_trace gives 4 nodes per block
  (call_module fc, relu, dropout and call_function add) plus the placeholder
  and the output: 4N + 2 fx nodes.

* as mav IR text, written directly (`write_ir`), so that a 10^6-node graph
  does not depend on Python tracing. Two styles:

  - `function` (default): call_function nodes with get_attr weights, no
    module bodies. Per block: get_attr weight, get_attr bias, aten::linear,
    aten::relu, aten::dropout, aten::add.Tensor: 6N + 1 nodes (+ output),
    2N mav.weight ops.
  - `module`: exactly what `mav-translate --import-torchscript` makes of the
    traced torch model (checked by `--check-import`): the public graph holds
    the same 4N + 1 nodes as the fx graph (call_module fc / relu / dropout
    and call_function add), and every leaf module call has its private body
    graph (`blocks.I.fc.forward` with two get_attr and aten::linear, ...),
    12 nodes per block in all.

Weights are splat constants (`dense<1.000000e-02>`), so the IR's size is the
graph's and not the weights'. Node names, scopes and types are those the
importer gives the traced model.

Usage:
    bench/synthetic.py --nodes 1000000 [--style function|module] [--width 16] -o OUT.mlir
    bench/synthetic.py --blocks 7500 ... -o OUT.mlir
    bench/synthetic.py --check-import [--blocks 3]   # module style == importer output
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

NODES_PER_BLOCK = {"function": 6, "module": 12}
LINEAR = "torch.nn.modules.linear.Linear"
RELU = "torch.nn.modules.activation.ReLU"
DROPOUT = "torch.nn.modules.dropout.Dropout"
P = "1.000000e-01"


def blocks_for_nodes(nodes, style):
    """The number of blocks whose mav graph has about `nodes` nodes."""
    return max(1, round(nodes / NODES_PER_BLOCK[style]))


def node_count(blocks, style):
    """mav nodes (get_attr, call_*, output; placeholders not counted)."""
    if style == "function":
        return 6 * blocks + 1
    # public: 4 per block + output; bodies: fc 4, relu 2, dropout 2
    return 4 * blocks + 1 + 8 * blocks


def fx_node_count(blocks):
    """symbolic_trace nodes: placeholder, 4 per block, output."""
    return 4 * blocks + 2


def _add_name(i):
    return "add" if i == 0 else f"add_{i}"


def write_ir(out, blocks, width=16, style="function", batch=1):
    """Writes the model as mav IR text to the file object `out`."""
    t = f"tensor<{width}x{width}xf32>"
    tb = f"tensor<{width}xf32>"
    xt = f"tensor<{batch}x{width}xf32>"
    w = out.write
    w("module {\n")
    for i in range(blocks):
        w(f'  mav.weight @"blocks.{i}.fc.weight" parameter = dense<1.000000e-02> : {t}\n')
        w(f'  mav.weight @"blocks.{i}.fc.bias" parameter = dense<1.000000e-02> : {tb}\n')
    w(f"  mav.graph @forward(%x: {xt}) -> !mav.tensor {{\n")
    prev, prev_t = "x", xt
    for i in range(blocks):
        fc, relu, drop, add = (f"blocks_{i}_fc", f"blocks_{i}_relu",
                               f"blocks_{i}_dropout", _add_name(i))
        if style == "function":
            sc = f'scope = #mav.scope<"blocks.{i}.fc", "{LINEAR}">'
            w(f'    %{fc}_weight = mav.get_attr @"blocks.{i}.fc.weight" {{{sc}}} : {t}\n')
            w(f'    %{fc}_bias = mav.get_attr @"blocks.{i}.fc.bias" {{{sc}}} : {tb}\n')
            w(f'    %{fc} = mav.call_function "aten::linear" (%{prev}, %{fc}_weight, %{fc}_bias) '
              f'{{{sc}}} : ({prev_t}, {t}, {tb}) -> !mav.tensor\n')
            w(f'    %{relu} = mav.call_function "aten::relu" (%{fc}) '
              f'{{scope = #mav.scope<"blocks.{i}.relu", "{RELU}">}} : (!mav.tensor) -> !mav.tensor\n')
            w(f'    %{drop} = mav.call_function "aten::dropout" (%{relu}, {P}, false) '
              f'{{scope = #mav.scope<"blocks.{i}.dropout", "{DROPOUT}">}} : (!mav.tensor) -> !mav.tensor\n')
        else:
            w(f'    %{fc} = mav.call_module "blocks.{i}.fc" (%{prev}) {{body = @"blocks.{i}.fc.forward", '
              f'config = {{training = false}}, module_class = "{LINEAR}", '
              f'scope = #mav.scope<"blocks.{i}.fc", "{LINEAR}">}} : ({prev_t}) -> !mav.tensor\n')
            w(f'    %{relu} = mav.call_module "blocks.{i}.relu" (%{fc}) {{body = @"blocks.{i}.relu.forward", '
              f'config = {{training = false}}, module_class = "{RELU}", '
              f'scope = #mav.scope<"blocks.{i}.relu", "{RELU}">}} : (!mav.tensor) -> !mav.tensor\n')
            w(f'    %{drop} = mav.call_module "blocks.{i}.dropout" (%{relu}) {{body = @"blocks.{i}.dropout.forward", '
              f'config = {{p = {P} : f64, train = false, training = false}}, module_class = "{DROPOUT}", '
              f'scope = #mav.scope<"blocks.{i}.dropout", "{DROPOUT}">}} : (!mav.tensor) -> !mav.tensor\n')
        w(f'    %{add} = mav.call_function "aten::add.Tensor" (%{prev}, %{drop}, alpha = 1) '
          f'{{scope = #mav.scope<"blocks.{i}", "Block">}} : ({prev_t}, !mav.tensor) -> !mav.tensor\n')
        prev, prev_t = add, "!mav.tensor"
    w(f"    mav.output %{prev} : {prev_t}\n  }}\n")
    if style == "module":
        for i in range(blocks):
            arg = "x" if i == 0 else "argument_1"
            sc = f'#mav.scope<"blocks.{i}.fc", "{LINEAR}">'
            w(f'  mav.graph private @"blocks.{i}.fc.forward"(%{arg}: !mav.tensor) -> !mav.tensor {{\n'
              f'    %blocks_{i}_fc_bias = mav.get_attr @"blocks.{i}.fc.bias" {{scope = {sc}}} : {tb}\n'
              f'    %blocks_{i}_fc_weight = mav.get_attr @"blocks.{i}.fc.weight" {{scope = {sc}}} : {t}\n'
              f'    %linear = mav.call_function "aten::linear" (%{arg}, %blocks_{i}_fc_weight, %blocks_{i}_fc_bias) '
              f'{{scope = {sc}}} : (!mav.tensor, {t}, {tb}) -> !mav.tensor\n'
              f'    mav.output %linear : !mav.tensor\n  }}\n')
            w(f'  mav.graph private @"blocks.{i}.relu.forward"(%argument_1: !mav.tensor) -> !mav.tensor {{\n'
              f'    %relu = mav.call_function "aten::relu" (%argument_1) '
              f'{{scope = #mav.scope<"blocks.{i}.relu", "{RELU}">}} : (!mav.tensor) -> !mav.tensor\n'
              f'    mav.output %relu : !mav.tensor\n  }}\n')
            w(f'  mav.graph private @"blocks.{i}.dropout.forward"(%argument_1: !mav.tensor) -> !mav.tensor {{\n'
              f'    %dropout = mav.call_function "aten::dropout" (%argument_1, {P}, false) '
              f'{{scope = #mav.scope<"blocks.{i}.dropout", "{DROPOUT}">}} : (!mav.tensor) -> !mav.tensor\n'
              f'    mav.output %dropout : !mav.tensor\n  }}\n')
    w("}\n")


def torch_model(blocks, width=16):
    """The same model as a torch.nn.Module, in eval mode."""
    import torch.nn as nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(width, width)
            self.relu = nn.ReLU()
            self.dropout = nn.Dropout(0.1)

        def forward(self, x):
            return x + self.dropout(self.relu(self.fc(x)))

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.Sequential(*[Block() for _ in range(blocks)])

        def forward(self, x):
            return self.blocks(x)

    Block.__module__ = Net.__module__ = "__main__"
    Block.__qualname__, Net.__qualname__ = "Block", "Net"
    return Net().eval()


def check_import(blocks, width, build):
    """Traces the torch model, imports it with mav-translate, and checks that
    the module-style IR prints the same (weights elided)."""
    import torch
    torch.manual_seed(0)
    model = torch_model(blocks, width)
    opt = os.path.join(build, "bin", "mav-opt")
    translate = os.path.join(build, "bin", "mav-translate")
    with tempfile.TemporaryDirectory() as work:
        pt = os.path.join(work, "m.pt")
        torch.jit.trace(model, (torch.randn(1, width),)).save(pt)
        imported = subprocess.run(
            [translate, "--import-torchscript", pt, f"--input-shape=1x{width}xf32",
             "--mav-elide-weights"], capture_output=True, text=True, check=True).stdout
        path = os.path.join(work, "g.mlir")
        with open(path, "w") as f:
            write_ir(f, blocks, width, "module")
        generated = subprocess.run([opt, path, "--mav-elide-weights"], capture_output=True,
                                   text=True, check=True).stdout
    # Weights: blobs in the import, splats here.
    norm = lambda s: re.sub(r"dense(_resource)?<[^>]*>", "dense<...>", s)
    if norm(imported) != norm(generated):
        import difflib
        sys.stdout.writelines(difflib.unified_diff(
            norm(imported).splitlines(True), norm(generated).splitlines(True),
            "imported", "generated"))
        sys.exit("synthetic: the module style differs from the importer's output")
    print(f"synthetic: module style == imported TorchScript ({blocks} blocks)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--nodes", type=int)
    size.add_argument("--blocks", type=int)
    parser.add_argument("--style", choices=sorted(NODES_PER_BLOCK), default="function")
    parser.add_argument("--width", type=int, default=16)
    parser.add_argument("-o", "--output", default="-")
    parser.add_argument("--check-import", action="store_true")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = parser.parse_args()
    if args.check_import:
        check_import(args.blocks or 3, args.width, args.build)
        return
    blocks = args.blocks or blocks_for_nodes(args.nodes or 1000, args.style)
    out = sys.stdout if args.output == "-" else open(args.output, "w", buffering=1 << 20)
    write_ir(out, blocks, args.width, args.style)
    out.close()
    print(f"synthetic: {blocks} blocks, {node_count(blocks, args.style)} mav nodes "
          f"({args.style}), {fx_node_count(blocks)} fx nodes", file=sys.stderr)


if __name__ == "__main__":
    main()
