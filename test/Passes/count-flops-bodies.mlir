// RUN: mav-opt %s -mav-count-flops | FileCheck %s

// A module that neither its aten call nor its class counts (a body of
// several calls, a class without a formula) is the sum of its body's calls,
// typed for this call: linear (2 * 4 * 8 = 64 MACs), relu and mul (8 FLOPs
// each). A body with a call mav cannot count (sort) leaves its module
// uncounted, and so does a call whose operand has no static shape.
// CHECK: total_flops = 144 : i64, total_macs = 64 : i64, uncounted = ["sorting", "unraised", "dynamic"]
// CHECK-LABEL: mav.graph @forward
// CHECK: %block = mav.call_module "block"{{.*}}software = #mav.software<{flops = 144 : i64, macs = 64 : i64}>
// CHECK: %sorting = mav.call_module "sorting"
// CHECK-NOT: software
// CHECK: %unraised = mav.call_function "aten::relu"
// CHECK-NOT: software
// CHECK: %dynamic = mav.call_module "block"
// CHECK-NOT: software
// CHECK: mav.output

mav.weight @block.fc.weight parameter = dense<1.0> : tensor<4x8xf32>

mav.graph @forward(%x: tensor<2x8xf32>) -> tensor<2x4xf32> {
  %block = mav.call_module "block" (%x) {body = @block.forward, module_class = "mav_test.Block", scope = #mav.scope<"block", "mav_test.Block">} : (tensor<2x8xf32>) -> tensor<2x4xf32>
  %sorting = mav.call_module "sorting" (%block) {body = @sorting.forward, module_class = "mav_test.Sorting", scope = #mav.scope<"sorting", "mav_test.Sorting">} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %unraised = mav.call_function "aten::relu" (%x) : (tensor<2x8xf32>) -> !mav.tensor
  %dynamic = mav.call_module "block" (%unraised) {body = @block.forward, module_class = "mav_test.Block", scope = #mav.scope<"block", "mav_test.Block">} : (!mav.tensor) -> !mav.tensor
  mav.output %sorting : tensor<2x4xf32>
}
mav.graph private @block.forward(%input: !mav.tensor) -> !mav.tensor {
  %w = mav.get_attr @block.fc.weight : tensor<4x8xf32>
  %linear = mav.call_function "aten::linear" (%input, %w, None) : (!mav.tensor, tensor<4x8xf32>) -> !mav.tensor
  %relu = mav.call_function "aten::relu" (%linear) : (!mav.tensor) -> !mav.tensor
  %mul = mav.call_function "aten::mul.Tensor" (%relu, %relu) : (!mav.tensor, !mav.tensor) -> !mav.tensor
  mav.output %mul : !mav.tensor
}
mav.graph private @sorting.forward(%input: !mav.tensor) -> !mav.tensor {
  %sort:2 = mav.call_function "aten::sort" (%input) : (!mav.tensor) -> (!mav.tensor, !mav.tensor)
  %relu = mav.call_function "aten::relu" (%sort#0) : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}
