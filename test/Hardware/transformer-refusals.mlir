// RUN: mav-opt %s -split-input-file -mav-raise -mav-quantize -verify-diagnostics

// A transformer operator whose call its component does not fit is refused
// by -mav-quantize with one line naming the node and the reason
// (docs/Hardware.md, "Transformer operations").

mav.graph @gelu_tanh(%x: tensor<2x8xf32>) -> !mav.tensor {
  // expected-error @+1 {{node 'gelu' (gelu) cannot be quantized: fixed_gelu computes the erf form only, not approximate='tanh'; lower it first, or give allow-float=true to leave it in float}}
  %gelu = mav.call_function "aten::gelu" (%x, approximate = "tanh") : (tensor<2x8xf32>) -> !mav.tensor
  mav.output %gelu : !mav.tensor
}

// -----

mav.graph @softmax_dim0(%x: tensor<2x8xf32>) -> !mav.tensor {
  // expected-error @+1 {{node 'softmax' (softmax) cannot be quantized: fixed_softmax computes along the last dimension only}}
  %softmax = mav.call_function "aten::softmax.int" (%x, 0, None) : (tensor<2x8xf32>) -> !mav.tensor
  mav.output %softmax : !mav.tensor
}

// -----

mav.graph @matmul_broadcast(%x: tensor<2x4x8xf32>, %y: tensor<8x3xf32>) -> !mav.tensor {
  // expected-error @+1 {{node 'matmul' (matmul) cannot be quantized: fixed_matmul needs operands of one rank, at least 2 (no broadcasting), got 2x4x8 and 8x3}}
  %matmul = mav.call_function "aten::matmul" (%x, %y) : (tensor<2x4x8xf32>, tensor<8x3xf32>) -> !mav.tensor
  mav.output %matmul : !mav.tensor
}

// -----

mav.weight @g parameter = dense<1.0> : tensor<4x8xf32>
mav.weight @b parameter = dense<0.0> : tensor<4x8xf32>
mav.graph @layer_norm_two_dims(%x: tensor<2x4x8xf32>) -> !mav.tensor {
  %g = mav.get_attr @g : tensor<4x8xf32>
  %b = mav.get_attr @b : tensor<4x8xf32>
  // expected-error @+1 {{node 'layer_norm' (layer_norm) cannot be quantized: fixed_layernorm normalizes over the last dimension only}}
  %layer_norm = mav.call_function "aten::layer_norm" (%x, [4, 8], %g, %b, 1.0e-05, true) : (tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> !mav.tensor
  mav.output %layer_norm : !mav.tensor
}

// -----

mav.graph @layer_norm_no_affine(%x: tensor<2x8xf32>) -> !mav.tensor {
  // expected-error @+1 {{node 'layer_norm' (layer_norm) cannot be quantized: its weight and bias must be module weights (elementwise_affine=True)}}
  %layer_norm = mav.call_function "aten::layer_norm" (%x, [8], None, None, 1.0e-05, true) : (tensor<2x8xf32>) -> !mav.tensor
  mav.output %layer_norm : !mav.tensor
}

// -----

mav.graph @permute_8d(%x: tensor<2x2x2x2x2x2x2x2xf32>) -> !mav.tensor {
  // expected-error @+1 {{node 'permute' (permute) cannot be quantized: fixed_reorder reorders at most 6 dimensions, this view has 8}}
  %permute = mav.call_function "aten::permute" (%x, [7, 6, 5, 4, 3, 2, 1, 0]) : (tensor<2x2x2x2x2x2x2x2xf32>) -> !mav.tensor
  mav.output %permute : !mav.tensor
}

