// RUN: mav-opt %s -split-input-file -mav-fold-batchnorm -verify-diagnostics

// -mav-fold-batchnorm's errors: a fold needs the layer's and the batch
// norm's weights as f32 data. Each names the batch norm node and the weight.
// What is skipped rather than refused (training mode, other producers):
// fold-batchnorm.mlir.

// Only f32 weights are folded.

mav.weight @fc.weight parameter = dense<1.0> : tensor<2x3xf64>
mav.weight @bn.running_mean buffer = dense<0.0> : tensor<2xf64>
mav.weight @bn.running_var buffer = dense<1.0> : tensor<2xf64>

mav.graph @forward(%x: tensor<4x3xf64>) -> tensor<4x2xf64> {
  %fc = mav.call_module "fc" (%x) {body = @fc.forward, module_class = "torch.nn.modules.linear.Linear"} : (tensor<4x3xf64>) -> tensor<4x2xf64>
  // expected-error @+1 {{node 'bn': cannot fold: weight 'fc.weight' has element type 'f64'; only f32 weights are folded}}
  %bn = mav.call_module "bn" (%fc) {body = @bn.forward, module_class = "torch.nn.modules.batchnorm.BatchNorm1d"} : (tensor<4x2xf64>) -> tensor<4x2xf64>
  mav.output %bn : tensor<4x2xf64>
}
mav.graph private @fc.forward(%input: !mav.tensor) -> !mav.tensor {
  %fc_weight = mav.get_attr @fc.weight : tensor<2x3xf64>
  %linear = mav.call_function "aten::linear" (%input, %fc_weight, None) : (!mav.tensor, tensor<2x3xf64>) -> !mav.tensor
  mav.output %linear : !mav.tensor
}
mav.graph private @bn.forward(%input: !mav.tensor) -> !mav.tensor {
  %bn_running_var = mav.get_attr @bn.running_var : tensor<2xf64>
  %bn_running_mean = mav.get_attr @bn.running_mean : tensor<2xf64>
  %batch_norm = mav.call_function "aten::batch_norm" (%input, None, None, %bn_running_mean, %bn_running_var, false, 1.000000e-01, 1.000000e-05, true) : (!mav.tensor, tensor<2xf64>, tensor<2xf64>) -> !mav.tensor
  mav.output %batch_norm : !mav.tensor
}

// -----

// Elided weights carry no values to fold.

mav.weight @fc.weight parameter = dense_resource<__elided__> : tensor<2x3xf32>
mav.weight @bn.running_mean buffer = dense<0.0> : tensor<2xf32>
mav.weight @bn.running_var buffer = dense<1.0> : tensor<2xf32>

mav.graph @forward(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %fc = mav.call_module "fc" (%x) {body = @fc.forward, module_class = "torch.nn.modules.linear.Linear"} : (tensor<4x3xf32>) -> tensor<4x2xf32>
  // expected-error @+1 {{node 'bn': cannot fold: weight 'fc.weight' carries no data (elided, or an unsupported attribute)}}
  %bn = mav.call_module "bn" (%fc) {body = @bn.forward, module_class = "torch.nn.modules.batchnorm.BatchNorm1d"} : (tensor<4x2xf32>) -> tensor<4x2xf32>
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
  %batch_norm = mav.call_function "aten::batch_norm" (%input, None, None, %bn_running_mean, %bn_running_var, false, 1.000000e-01, 1.000000e-05, true) : (!mav.tensor, tensor<2xf32>, tensor<2xf32>) -> !mav.tensor
  mav.output %batch_norm : !mav.tensor
}
