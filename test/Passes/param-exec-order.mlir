// RUN: mav-opt %s -mav-param-exec-order='plan=%t.plan.json second-seed=1' | FileCheck %s
// RUN: FileCheck %s --check-prefix=PLAN < %t.plan.json
// RUN: mav-opt %s -mav-param-exec-order=backward=false | FileCheck %s --check-prefix=FORWARD

// -mav-param-exec-order on a small graph whose order follows from its
// structure: fc1 runs, then scale is read by the mul, then fc2, whose weight
// is tied to fc1's (one parameter, under fc1.weight, shared by both
// modules); extra is never read. Gradients become ready in reverse: fc2's
// bias, scale, then fc1's bias, and fc1.weight once both its uses have
// contributed. The order depends on no input value: a second seed gives the
// same. Real models, against PyTorch's hooks: analyses.test.

// CHECK: #mav.pass_output<"mav-param-exec-order", {input_dependent = false, module_order = ["fc1", "fc2"], param_backward_order = ["fc2.bias", "scale", "fc1.bias", "fc1.weight"], param_forward_order = ["fc1.weight", "fc1.bias", "scale", "fc2.bias"], shared_params = {fc1.weight = ["fc1", "fc2"]}, unused_params = ["extra"]}>
// CHECK-LABEL: mav.graph @forward
// CHECK-NEXT: %fc1 = mav.call_module "fc1" {{.*}}software = #mav.software<{exec_rank = 0 : i64, param_forward_ranks = {fc1.bias = 1 : i64, fc1.weight = 0 : i64}}>
// CHECK-NEXT: %scale = mav.get_attr @scale : tensor<4xf32>
// CHECK-NEXT: %mul = mav.call_function "aten::mul.Tensor" (%fc1, %scale) : (
// CHECK-NEXT: %fc2 = mav.call_module "fc2" {{.*}}software = #mav.software<{exec_rank = 1 : i64, param_forward_ranks = {fc1.weight = 0 : i64, fc2.bias = 3 : i64}}>

// The planner JSON: per module in order, its parameters with sizes and
// ranks (fc1.weight is 4*4 = 16 elements).
// PLAN: "modules": [
// PLAN: "backward_rank": 3,
// PLAN-NEXT: "forward_rank": 0,
// PLAN-NEXT: "name": "fc1.weight",
// PLAN-NEXT: "numel": 16,
// PLAN: "backward_rank": 2,
// PLAN-NEXT: "forward_rank": 1,
// PLAN-NEXT: "name": "fc1.bias",
// PLAN-NEXT: "numel": 4,
// PLAN: "path": "fc1",
// PLAN-NEXT: "rank": 0
// PLAN: "name": "fc1.weight",
// PLAN: "backward_rank": 0,
// PLAN-NEXT: "forward_rank": 3,
// PLAN-NEXT: "name": "fc2.bias",
// PLAN: "path": "fc2",
// PLAN-NEXT: "rank": 1
// PLAN: "param_backward_order": [
// PLAN-NEXT: "fc2.bias",
// PLAN-NEXT: "scale",
// PLAN-NEXT: "fc1.bias",
// PLAN-NEXT: "fc1.weight"
// PLAN-NEXT: ],
// PLAN-NEXT: "param_forward_order": [
// PLAN-NEXT: "fc1.weight",
// PLAN-NEXT: "fc1.bias",
// PLAN-NEXT: "scale",
// PLAN-NEXT: "fc2.bias"

// FORWARD: #mav.pass_output<"mav-param-exec-order", {input_dependent = false, module_order = ["fc1", "fc2"], param_backward_order = [], param_forward_order = ["fc1.weight", "fc1.bias", "scale", "fc2.bias"],

mav.weight @fc1.weight parameter = dense<1.0> : tensor<4x4xf32>
mav.weight @fc1.bias parameter = dense<0.0> : tensor<4xf32>
mav.weight @scale parameter = dense<2.0> : tensor<4xf32>
mav.weight @fc2.weight parameter = dense<1.0> : tensor<4x4xf32> {tied_to = @fc1.weight}
mav.weight @fc2.bias parameter = dense<0.0> : tensor<4xf32>
mav.weight @extra parameter = dense<0.0> : tensor<3xf32>

mav.graph @forward(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %fc1 = mav.call_module "fc1" (%x) {body = @fc1.forward, module_class = "torch.nn.modules.linear.Linear"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %scale = mav.get_attr @scale : tensor<4xf32>
  %mul = mav.call_function "aten::mul.Tensor" (%fc1, %scale) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %fc2 = mav.call_module "fc2" (%mul) {body = @fc2.forward, module_class = "torch.nn.modules.linear.Linear"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  mav.output %fc2 : tensor<2x4xf32>
}
mav.graph private @fc1.forward(%input: !mav.tensor) -> !mav.tensor {
  %fc1_weight = mav.get_attr @fc1.weight : tensor<4x4xf32>
  %fc1_bias = mav.get_attr @fc1.bias : tensor<4xf32>
  %linear = mav.call_function "aten::linear" (%input, %fc1_weight, %fc1_bias) : (!mav.tensor, tensor<4x4xf32>, tensor<4xf32>) -> !mav.tensor
  mav.output %linear : !mav.tensor
}
mav.graph private @fc2.forward(%input: !mav.tensor) -> !mav.tensor {
  %fc2_weight = mav.get_attr @fc2.weight : tensor<4x4xf32>
  %fc2_bias = mav.get_attr @fc2.bias : tensor<4xf32>
  %linear = mav.call_function "aten::linear" (%input, %fc2_weight, %fc2_bias) : (!mav.tensor, tensor<4x4xf32>, tensor<4xf32>) -> !mav.tensor
  mav.output %linear : !mav.tensor
}
