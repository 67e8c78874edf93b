// MLIR's own passes on mav IR, as mav-opt registers them (docs/Passes.md,
// "Upstream passes").
// RUN: mav-opt %s -symbol-dce | FileCheck %s --check-prefix=DCE
// RUN: mav-opt %s -cse | FileCheck %s --check-prefix=KEEP
// RUN: mav-opt %s -canonicalize | FileCheck %s --check-prefix=KEEP
// RUN: mav-opt %s -print-op-stats -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: mav-opt %s -view-op-graph -o /dev/null 2>&1 | FileCheck %s --check-prefix=VIEW
// RUN: mav-opt %s -strip-debuginfo -mlir-print-debuginfo | FileCheck %s --check-prefix=STRIP
// RUN: mav-opt %s -snapshot-op-locations=filename=%t.snapshot.mlir -mlir-print-debuginfo | FileCheck %s --check-prefix=SNAPSHOT

// symbol-dce erases the leaf body no call_module uses; weights are public
// symbols (state_dict entries), kept even when unused, as PyTorch keeps them.
// DCE: mav.weight @fc.weight
// DCE: mav.weight @spare.weight
// DCE: mav.graph @forward
// DCE: mav.graph private @fc.forward
// DCE-NOT: @spare.forward

// cse and canonicalize change nothing: every node has its own FX name, so no
// two nodes are the same op, and nodes declare no memory effects, so a node
// without users is not dead to MLIR (torch.fx keeps it too, until
// eliminate_dead_code).
// KEEP: %relu = mav.call_function "aten::relu" (%fc)
// KEEP-NEXT: %relu_1 = mav.call_function "aten::relu" (%fc)
// KEEP-NEXT: %unused = mav.call_function "aten::sigmoid" (%x)
// KEEP: mav.graph private @spare.forward

// STATS: Operations encountered:
// STATS: mav.call_function , 6
// STATS: mav.call_module   , 1
// STATS: mav.get_attr      , 2
// STATS: mav.graph         , 3
// STATS: mav.weight        , 2

// VIEW: digraph G {
// VIEW: label = "mav.graph
// VIEW: mav.call_function

// STRIP: [[LOC:#loc[0-9]*]] = loc(unknown)
// STRIP-NOT: upstream-passes.mlir
// STRIP: mav.call_function "aten::relu" (%fc) : (tensor<2x4xf32>) -> tensor<2x4xf32> loc([[LOC]])
// SNAPSHOT: mav.call_function "aten::relu" (%fc) : (tensor<2x4xf32>) -> tensor<2x4xf32> loc([[SNAP:#loc[0-9]+]])
// SNAPSHOT: [[SNAP]] = loc("{{.*}}snapshot.mlir":{{[0-9]+}}:{{[0-9]+}})

mav.weight @fc.weight parameter = dense<1.0> : tensor<4x4xf32>
mav.weight @spare.weight parameter = dense<1.0> : tensor<4x4xf32>

mav.graph @forward(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %fc = mav.call_module "fc" (%x) {body = @fc.forward, module_class = "torch.nn.modules.linear.Linear"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %relu = mav.call_function "aten::relu" (%fc) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %relu_1 = mav.call_function "aten::relu" (%fc) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %unused = mav.call_function "aten::sigmoid" (%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %add = mav.call_function "aten::add" (%relu, %relu_1, alpha = 1) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  mav.output %add : tensor<2x4xf32>
}
mav.graph private @fc.forward(%input: !mav.tensor) -> !mav.tensor {
  %w = mav.get_attr @fc.weight : tensor<4x4xf32>
  %linear = mav.call_function "aten::linear" (%input, %w, None) : (!mav.tensor, tensor<4x4xf32>) -> !mav.tensor
  mav.output %linear : !mav.tensor
}
mav.graph private @spare.forward(%input: !mav.tensor) -> !mav.tensor {
  %w = mav.get_attr @spare.weight : tensor<4x4xf32>
  %linear = mav.call_function "aten::linear" (%input, %w, None) : (!mav.tensor, tensor<4x4xf32>) -> !mav.tensor
  mav.output %linear : !mav.tensor
}
