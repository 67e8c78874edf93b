// RUN: mav-opt %s -split-input-file -mav-lower-nested-tensors -verify-diagnostics

// Only TransformerEncoder's fast path is lowered: a nested tensor that
// reaches anything but encoder layers and to_padded_tensor is an error
// naming the node that makes it and the node it reaches.

mav.graph @other_user(%x: tensor<2x5x16xf32>, %valid: tensor<2x5xi1>) -> !mav.tensor {
  // expected-error @+1 {{node '_nested_tensor_from_mask': its nested tensor reaches node 'relu'; mav lowers only TransformerEncoder's fast path: encoder layers, then to_padded_tensor}}
  %_nested_tensor_from_mask = mav.call_function "aten::_nested_tensor_from_mask" (%x, %valid, false) : (tensor<2x5x16xf32>, tensor<2x5xi1>) -> !mav.tensor
  %relu = mav.call_function "aten::relu" (%_nested_tensor_from_mask) : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @two_users(%x: tensor<2x5x16xf32>, %valid: tensor<2x5xi1>) -> (!mav.tensor, !mav.tensor) {
  // expected-error @+1 {{node 'nested': its nested tensor has 2 uses after node 'nested'; mav lowers only TransformerEncoder's fast path}}
  %nested = mav.call_function "aten::_nested_tensor_from_mask" (%x, %valid, false) : (tensor<2x5x16xf32>, tensor<2x5xi1>) -> !mav.tensor
  %a = mav.call_function "aten::to_padded_tensor" (%nested, 0.000000e+00, None) : (!mav.tensor) -> !mav.tensor
  %b = mav.call_function "aten::to_padded_tensor" (%nested, 0.000000e+00, None) : (!mav.tensor) -> !mav.tensor
  mav.output (%a, %b) : !mav.tensor, !mav.tensor
}

// -----

mav.graph @output_size(%x: tensor<2x5x16xf32>, %valid: tensor<2x5xi1>) -> !mav.tensor {
  %nested = mav.call_function "aten::_nested_tensor_from_mask" (%x, %valid, false) : (tensor<2x5x16xf32>, tensor<2x5xi1>) -> !mav.tensor
  // expected-error @+1 {{node 'padded': to_padded_tensor with an output size is not lowered}}
  %padded = mav.call_function "aten::to_padded_tensor" (%nested, 0.000000e+00, [2, 5, 16]) : (!mav.tensor) -> !mav.tensor
  mav.output %padded : !mav.tensor
}

// -----

// A layer given an attention mask of its own is not the fast path.
mav.graph @layer_with_mask(%x: tensor<2x5x16xf32>, %valid: tensor<2x5xi1>, %w: tensor<48x16xf32>, %m: tensor<5x5xi1>) -> !mav.tensor {
  // expected-error @+1 {{node 'nested': its nested tensor reaches node 'layer'}}
  %nested = mav.call_function "aten::_nested_tensor_from_mask" (%x, %valid, false) : (tensor<2x5x16xf32>, tensor<2x5xi1>) -> !mav.tensor
  %layer = mav.call_function "aten::_transformer_encoder_layer_fwd" (%nested, 16, 2, %w, %w, %w, %w, false, false, 1.000000e-05, %w, %w, %w, %w, %w, %w, %w, %w, %m, 0) : (!mav.tensor, tensor<48x16xf32>, tensor<48x16xf32>, tensor<48x16xf32>, tensor<48x16xf32>, tensor<48x16xf32>, tensor<48x16xf32>, tensor<48x16xf32>, tensor<48x16xf32>, tensor<48x16xf32>, tensor<48x16xf32>, tensor<48x16xf32>, tensor<48x16xf32>, tensor<5x5xi1>) -> !mav.tensor
  %padded = mav.call_function "aten::to_padded_tensor" (%layer, 0.000000e+00, None) : (!mav.tensor) -> !mav.tensor
  mav.output %padded : !mav.tensor
}
