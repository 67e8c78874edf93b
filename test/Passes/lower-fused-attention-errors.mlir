// RUN: mav-opt %s -split-input-file -mav-lower-fused-attention -verify-diagnostics

// What -mav-lower-fused-attention refuses, naming the node: a mask,
// attention whose query, key and value differ, attention whose weights are
// used.

mav.graph @mask(%x: tensor<1x4x8xf32>, %w: tensor<24x8xf32>, %b: tensor<24xf32>, %pw: tensor<8x8xf32>, %pb: tensor<8xf32>, %mask: tensor<1x4xi1>) -> !mav.tensor {
  // expected-error @+1 {{node 'attention' (aten::_native_multi_head_attention) cannot be lowered: a mask is not lowered (the hardware flow's contract has none)}}
  %attention:2 = mav.call_function "aten::_native_multi_head_attention" (%x, %x, %x, 8, 2, %w, %b, %pw, %pb, %mask, false, true, 1) : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<24x8xf32>, tensor<24xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<1x4xi1>) -> (!mav.tensor, !mav.tensor)
  mav.output %attention#0 : !mav.tensor
}

// -----

mav.graph @cross(%x: tensor<1x4x8xf32>, %y: tensor<1x4x8xf32>, %w: tensor<24x8xf32>, %b: tensor<24xf32>, %pw: tensor<8x8xf32>, %pb: tensor<8xf32>) -> !mav.tensor {
  // expected-error @+1 {{node 'attention' (aten::_native_multi_head_attention) cannot be lowered: its query, key and value differ (only self-attention is lowered)}}
  %attention:2 = mav.call_function "aten::_native_multi_head_attention" (%x, %y, %y, 8, 2, %w, %b, %pw, %pb, None, false, true, None) : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<24x8xf32>, tensor<24xf32>, tensor<8x8xf32>, tensor<8xf32>) -> (!mav.tensor, !mav.tensor)
  mav.output %attention#0 : !mav.tensor
}

// -----

mav.graph @weights(%x: tensor<1x4x8xf32>, %w: tensor<24x8xf32>, %b: tensor<24xf32>, %pw: tensor<8x8xf32>, %pb: tensor<8xf32>) -> (!mav.tensor, !mav.tensor) {
  // expected-error @+1 {{node 'attention' (aten::_native_multi_head_attention) cannot be lowered: its attention weights are used}}
  %attention:2 = mav.call_function "aten::_native_multi_head_attention" (%x, %x, %x, 8, 2, %w, %b, %pw, %pb, None, true, true, None) : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<24x8xf32>, tensor<24xf32>, tensor<8x8xf32>, tensor<8xf32>) -> (!mav.tensor, !mav.tensor)
  mav.output (%attention#0, %attention#1) : !mav.tensor, !mav.tensor
}

// -----

mav.graph @layer_mask(%x: tensor<1x4x8xf32>, %w: tensor<24x8xf32>, %b: tensor<24xf32>, %pw: tensor<8x8xf32>, %pb: tensor<8xf32>, %n: tensor<8xf32>, %f1: tensor<16x8xf32>, %fb1: tensor<16xf32>, %f2: tensor<8x16xf32>, %mask: tensor<1x4xi1>) -> !mav.tensor {
  // expected-error @+1 {{node 'layer' (aten::_transformer_encoder_layer_fwd) cannot be lowered: a mask is not lowered}}
  %layer = mav.call_function "aten::_transformer_encoder_layer_fwd" (%x, 8, 2, %w, %b, %pw, %pb, false, false, 1.0e-05, %n, %n, %n, %n, %f1, %fb1, %f2, %pb, %mask, 1) : (tensor<1x4x8xf32>, tensor<24x8xf32>, tensor<24xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<16x8xf32>, tensor<16xf32>, tensor<8x16xf32>, tensor<8xf32>, tensor<1x4xi1>) -> !mav.tensor
  mav.output %layer : !mav.tensor
}
