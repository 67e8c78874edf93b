// RUN: mav-opt %s -split-input-file -mav-fold-batchnorm -verify-diagnostics | FileCheck %s

// -mav-fold-batchnorm on small un-raised graphs: what it changes, what it
// skips and why (its errors: fold-batchnorm-errors.mlir). Real models,
// raised, with values checked against PyTorch: fold-batchnorm-models.test.

// A Linear without bias, then an affine=False BatchNorm1d: the Linear gets a
// bias parameter, read in its body; the batch norm, its body and its
// weights go.
// CHECK: #mav.pass_output<"mav-fold-batchnorm", {folded = 1 : i64, nodes = ["bn"], skipped = 0 : i64, skipped_nodes = {}}>
// CHECK: mav.weight @fc.weight parameter = dense_resource<fc.weight> : tensor<2x3xf32>
// CHECK-NEXT: mav.weight @fc.bias parameter = dense_resource<fc.bias> : tensor<2xf32>
// CHECK-NOT: mav.weight @bn.
// CHECK-LABEL: mav.graph @forward
// CHECK-NEXT: %fc = mav.call_module "fc" (%x) {body = @fc.forward, config = {training = false}
// CHECK-NEXT: %relu = mav.call_function "aten::relu" (%fc)
// CHECK-LABEL: mav.graph private @fc.forward
// CHECK-NEXT: %fc_weight = mav.get_attr @fc.weight
// CHECK-NEXT: %fc_bias = mav.get_attr @fc.bias {scope = #mav.scope<"fc", "torch.nn.modules.linear.Linear">} : tensor<2xf32>
// CHECK-NEXT: mav.call_function "aten::linear" (%input, %fc_weight, %fc_bias)
// CHECK-NOT: bn.forward

mav.weight @fc.weight parameter = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
mav.weight @bn.running_mean buffer = dense<[0.5, -1.0]> : tensor<2xf32>
mav.weight @bn.running_var buffer = dense<[2.0, 0.25]> : tensor<2xf32>
mav.weight @bn.num_batches_tracked buffer = dense<0> : tensor<si64>

mav.graph @forward(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %fc = mav.call_module "fc" (%x) {body = @fc.forward, config = {training = false}, module_class = "torch.nn.modules.linear.Linear"} : (tensor<1x3xf32>) -> tensor<1x2xf32>
  %bn = mav.call_module "bn" (%fc) {body = @bn.forward, config = {eps = 1.000000e-05 : f64, training = false}, module_class = "torch.nn.modules.batchnorm.BatchNorm1d"} : (tensor<1x2xf32>) -> tensor<1x2xf32>
  %relu = mav.call_function "aten::relu" (%bn) : (tensor<1x2xf32>) -> tensor<1x2xf32>
  mav.output %relu : tensor<1x2xf32>
}
mav.graph private @fc.forward(%input: !mav.tensor) -> !mav.tensor {
  %fc_weight = mav.get_attr @fc.weight {scope = #mav.scope<"fc", "torch.nn.modules.linear.Linear">} : tensor<2x3xf32>
  %linear = mav.call_function "aten::linear" (%input, %fc_weight, None) {scope = #mav.scope<"fc", "torch.nn.modules.linear.Linear">} : (!mav.tensor, tensor<2x3xf32>) -> !mav.tensor
  mav.output %linear : !mav.tensor
}
mav.graph private @bn.forward(%input: !mav.tensor) -> !mav.tensor {
  %bn_running_var = mav.get_attr @bn.running_var : tensor<2xf32>
  %bn_running_mean = mav.get_attr @bn.running_mean : tensor<2xf32>
  %batch_norm = mav.call_function "aten::batch_norm" (%input, None, None, %bn_running_mean, %bn_running_var, false, 1.000000e-01, 1.000000e-05, true) : (!mav.tensor, tensor<2xf32>, tensor<2xf32>) -> !mav.tensor
  mav.output %batch_norm : !mav.tensor
}

// -----

// Train mode: not folded, a warning naming the node.
// CHECK: #mav.pass_output<"mav-fold-batchnorm", {folded = 0 : i64, nodes = [], skipped = 1 : i64, skipped_nodes = {bn = "training mode"}}>
// CHECK: %bn = mav.call_module "bn" (%fc)

mav.weight @fc.weight parameter = dense<1.0> : tensor<2x3xf32>
mav.weight @bn.running_mean buffer = dense<0.0> : tensor<2xf32>
mav.weight @bn.running_var buffer = dense<1.0> : tensor<2xf32>

mav.graph @forward(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %fc = mav.call_module "fc" (%x) {body = @fc.forward, module_class = "torch.nn.modules.linear.Linear"} : (tensor<4x3xf32>) -> tensor<4x2xf32>
  // expected-warning @+1 {{node 'bn': batch norm in training mode is not folded}}
  %bn = mav.call_module "bn" (%fc) {body = @bn.forward, config = {training = true}, module_class = "torch.nn.modules.batchnorm.BatchNorm1d"} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  mav.output %bn : tensor<4x2xf32>
}
mav.graph private @fc.forward(%input: !mav.tensor) -> !mav.tensor {
  %fc_weight = mav.get_attr @fc.weight : tensor<2x3xf32>
  %linear = mav.call_function "aten::linear" (%input, %fc_weight, None) : (!mav.tensor, tensor<2x3xf32>) -> !mav.tensor
  mav.output %linear : !mav.tensor
}
mav.graph private @bn.forward(%input: !mav.tensor) -> !mav.tensor {
  %bn_running_var = mav.get_attr @bn.running_var : tensor<2xf32>
  %bn_running_mean = mav.get_attr @bn.running_mean : tensor<2xf32>
  %batch_norm = mav.call_function "aten::batch_norm" (%input, None, None, %bn_running_mean, %bn_running_var, true, 1.000000e-01, 1.000000e-05, true) : (!mav.tensor, tensor<2xf32>, tensor<2xf32>) -> !mav.tensor
  mav.output %batch_norm : !mav.tensor
}

// -----

// A batch norm after something else than a conv or linear module is skipped.
// CHECK: skipped_nodes = {bn = "its input is not a conv1d, conv2d or linear module"}

mav.weight @bn.running_mean buffer = dense<0.0> : tensor<2xf32>
mav.weight @bn.running_var buffer = dense<1.0> : tensor<2xf32>

mav.graph @forward(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %relu = mav.call_function "aten::relu" (%x) : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %bn = mav.call_module "bn" (%relu) {body = @bn.forward, module_class = "torch.nn.modules.batchnorm.BatchNorm1d"} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  mav.output %bn : tensor<4x2xf32>
}
mav.graph private @bn.forward(%input: !mav.tensor) -> !mav.tensor {
  %bn_running_var = mav.get_attr @bn.running_var : tensor<2xf32>
  %bn_running_mean = mav.get_attr @bn.running_mean : tensor<2xf32>
  %batch_norm = mav.call_function "aten::batch_norm" (%input, None, None, %bn_running_mean, %bn_running_var, false, 1.000000e-01, 1.000000e-05, true) : (!mav.tensor, tensor<2xf32>, tensor<2xf32>) -> !mav.tensor
  mav.output %batch_norm : !mav.tensor
}
