// RUN: mav-opt %s -split-input-file -verify-diagnostics -mav-split-chunks

// Without a static shape the pieces are unknown: run -mav-raise first.
mav.graph @unraised(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'chunk' cannot be split into slices: its input needs a static shape (run -mav-raise first)}}
  %chunk = mav.call_function "aten::chunk" (%x, 2, 0) : (!mav.tensor) -> !mav.list<!mav.tensor>
  %list_unpack:2 = mav.call_function "prim::ListUnpack" (%chunk) : (!mav.list<!mav.tensor>) -> (!mav.tensor, !mav.tensor)
  mav.output %list_unpack#0 : !mav.tensor
}

// -----

mav.graph @sizes(%x: tensor<4x2xf32>) -> tensor<1x2xf32> {
  // expected-error @+1 {{node 'split' cannot be split into slices: its split sizes do not add up to the dimension}}
  %split = mav.call_function "aten::split_with_sizes" (%x, [1, 2]) : (tensor<4x2xf32>) -> !mav.list<!mav.tensor>
  %list_unpack:2 = mav.call_function "prim::ListUnpack" (%split) : (!mav.list<!mav.tensor>) -> (tensor<1x2xf32>, tensor<2x2xf32>)
  mav.output %list_unpack#0 : tensor<1x2xf32>
}

// -----

mav.graph @unpacked(%x: tensor<4x2xf32>) -> tensor<2x2xf32> {
  %chunk = mav.call_function "aten::chunk" (%x, 2, 0) : (tensor<4x2xf32>) -> !mav.list<!mav.tensor>
  // expected-error @+1 {{node 'list_unpack' unpacks 3 values, node 'chunk' gives 2}}
  %list_unpack:3 = mav.call_function "prim::ListUnpack" (%chunk) : (!mav.list<!mav.tensor>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  mav.output %list_unpack#0 : tensor<2x2xf32>
}
