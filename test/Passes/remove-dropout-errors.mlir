// RUN: mav-opt %s -split-input-file -mav-remove-dropout -verify-diagnostics

// A dropout is bypassed by handing its users its first argument: a dropout
// whose first argument is not a value, or that gives more than one value,
// cannot be, and is an error naming the node.

mav.graph @literal_first_argument(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{node 'dropout': a dropout must take its input as first argument and produce one value}}
  %dropout = mav.call_function "aten::dropout" (5.000000e-01, %x, false) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  mav.output %dropout : tensor<2x4xf32>
}

// -----

mav.graph @two_results(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{node 'drop': a dropout must take its input as first argument and produce one value}}
  %drop:2 = mav.call_module "drop" (%x) {module_class = "torch.nn.modules.dropout.Dropout"} : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  mav.output %drop#0 : tensor<2x4xf32>
}

// -----

// Inside a module body too.
mav.graph @forward(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %attn = mav.call_module "attn" (%x) {module_class = "torch.nn.modules.activation.MultiheadAttention", body = @attn.forward} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  mav.output %attn : tensor<2x4xf32>
}
mav.graph private @attn.forward(%input: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'dropout': a dropout must take its input as first argument and produce one value}}
  %dropout = mav.call_function "aten::dropout" (1.000000e-01, %input, false) : (!mav.tensor) -> !mav.tensor
  mav.output %dropout : !mav.tensor
}
