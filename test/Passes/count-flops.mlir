// RUN: mav-opt %s -mav-count-flops | FileCheck %s
// RUN: mav-opt %s -mav-count-flops=scope-depth=1 | FileCheck %s --check-prefix=DEPTH1
// RUN: mav-opt %s -mav-count-flops=scope-depth=0 | FileCheck %s --check-prefix=ALL

// The mechanics of -mav-count-flops on a small graph: where the counts go,
// the pass outputs, and what stays uncounted. The formulas themselves are
// checked against PyTorch on real models (test/Visualization).

// An unraised node (no static shape) and an operator without a formula are
// uncounted; views do no arithmetic and get nothing.
// CHECK: #mav.pass_output<"mav-count-flops", {by_scope = [{flops = 1224 : i64, macs = 576 : i64, scope = "block"}, {flops = 1152 : i64, macs = 576 : i64, scope = "block.fc"}], total_flops = 1224 : i64, total_macs = 576 : i64, uncounted = ["unraised", "sorted"]}>
// DEPTH1: by_scope = [{flops = 1224 : i64, macs = 576 : i64, scope = "block"}]
// ALL: by_scope = [{flops = 1224 : i64, macs = 576 : i64, scope = "block"}, {flops = 1152 : i64, macs = 576 : i64, scope = "block.fc"}]

// A linear layer: (2, 8) x (8 -> 36) is 2 * 36 * 8 = 576 MACs.
// CHECK: %fc = mav.call_module "fc"{{.*}}software = #mav.software<{flops = 1152 : i64, macs = 576 : i64}>
// One FLOP per output element.
// CHECK: %relu = mav.call_function "aten::relu"{{.*}}software = #mav.software<{flops = 72 : i64, macs = 0 : i64}>
// CHECK: %view = mav.call_method "view"
// CHECK-NOT: software
// CHECK: %unraised = mav.call_function "aten::relu"
// CHECK-NOT: software
// CHECK: %sorted:2 = mav.call_function "aten::sort"
// CHECK-NOT: software

mav.weight @fc.weight parameter = dense<1.0> : tensor<36x8xf32>
mav.weight @fc.bias parameter = dense<0.0> : tensor<36xf32>

mav.graph @forward(%x: tensor<2x8xf32>) -> tensor<72xf32> {
  %fc = mav.call_module "fc" (%x) {body = @fc.forward, module_class = "torch.nn.modules.linear.Linear", scope = #mav.scope<"block.fc", "torch.nn.modules.linear.Linear">} : (tensor<2x8xf32>) -> tensor<2x36xf32>
  %relu = mav.call_function "aten::relu" (%fc) {scope = #mav.scope<"block", "Block">} : (tensor<2x36xf32>) -> tensor<2x36xf32>
  %view = mav.call_method "view" (%relu, -1) : (tensor<2x36xf32>) -> tensor<72xf32>
  %unraised = mav.call_function "aten::relu" (%view) : (tensor<72xf32>) -> !mav.tensor
  %sorted:2 = mav.call_function "aten::sort" (%view) : (tensor<72xf32>) -> (tensor<72xf32>, tensor<72xsi64>)
  mav.output %sorted#0 : tensor<72xf32>
}
mav.graph private @fc.forward(%input: !mav.tensor) -> !mav.tensor {
  %w = mav.get_attr @fc.weight : tensor<36x8xf32>
  %b = mav.get_attr @fc.bias : tensor<36xf32>
  %linear = mav.call_function "aten::linear" (%input, %w, %b) : (!mav.tensor, tensor<36x8xf32>, tensor<36xf32>) -> !mav.tensor
  mav.output %linear : !mav.tensor
}
