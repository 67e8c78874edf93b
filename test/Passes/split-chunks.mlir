// RUN: mav-opt %s -split-input-file -mav-split-chunks -mav-raise | FileCheck %s
// RUN: mav-opt %s -split-input-file -mav-split-chunks -mav-split-chunks | FileCheck %s --check-prefix=TWICE
// RUN: not mav-opt %s -split-input-file -mav-split-chunks=bogus 2>&1 | FileCheck %s --check-prefix=OPTION

// OPTION: error: <Pass-Options-Parser>: no such option bogus

// A chunk of 7 into 3 gives pieces of 3, 3 and 1, as torch.chunk; each
// unpacked piece becomes its slice, raised again, and the list is gone.
// CHECK: #mav.pass_output<"mav-split-chunks", {inserted = 3 : i64, nodes = ["chunk"], split = 1 : i64}>
// CHECK: mav.graph @chunk
// CHECK-NOT: aten::chunk
// CHECK-NOT: prim::ListUnpack
// CHECK: %slice = mav.call_function "aten::slice.Tensor" (%x, 1, 0, 3, 1) {{.*}}mase_op = "slice"{{.*}} : (tensor<2x7xf32>) -> tensor<2x3xf32>
// CHECK: %slice_1 = mav.call_function "aten::slice.Tensor" (%x, 1, 3, 6, 1) {{.*}} : (tensor<2x7xf32>) -> tensor<2x3xf32>
// CHECK: %slice_2 = mav.call_function "aten::slice.Tensor" (%x, 1, 6, 7, 1) {{.*}} : (tensor<2x7xf32>) -> tensor<2x1xf32>
// CHECK: mav.output (%slice, %slice_1, %slice_2)
// TWICE: #mav.pass_output<"mav-split-chunks", {inserted = 0 : i64, nodes = [], split = 0 : i64}>
mav.graph @chunk(%x: tensor<2x7xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x1xf32>) {
  %chunk = mav.call_function "aten::chunk" (%x, 3, -1) : (tensor<2x7xf32>) -> !mav.list<!mav.tensor>
  %list_unpack:3 = mav.call_function "prim::ListUnpack" (%chunk) : (!mav.list<!mav.tensor>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x1xf32>)
  mav.output (%list_unpack#0, %list_unpack#1, %list_unpack#2) : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x1xf32>
}

// -----

// split with a list of sizes, along dimension 0 by default.
// CHECK: mav.graph @split_sizes
// CHECK: %slice = mav.call_function "aten::slice.Tensor" (%x, 0, 0, 1, 1)
// CHECK: %slice_1 = mav.call_function "aten::slice.Tensor" (%x, 0, 1, 4, 1)
mav.graph @split_sizes(%x: tensor<4x2xf32>) -> (tensor<1x2xf32>, tensor<3x2xf32>) {
  %split = mav.call_function "aten::split_with_sizes" (%x, [1, 3]) : (tensor<4x2xf32>) -> !mav.list<!mav.tensor>
  %list_unpack:2 = mav.call_function "prim::ListUnpack" (%split) : (!mav.list<!mav.tensor>) -> (tensor<1x2xf32>, tensor<3x2xf32>)
  mav.output (%list_unpack#0, %list_unpack#1) : tensor<1x2xf32>, tensor<3x2xf32>
}

// -----

// A list with another use than an unpack is left alone.
// CHECK: #mav.pass_output<"mav-split-chunks", {inserted = 0 : i64, nodes = [], split = 0 : i64}>
// CHECK: mav.graph @returned
// CHECK: aten::chunk
mav.graph @returned(%x: tensor<2x4xf32>) -> !mav.list<!mav.tensor> {
  %chunk = mav.call_function "aten::chunk" (%x, 2, 1) : (tensor<2x4xf32>) -> !mav.list<!mav.tensor>
  mav.output %chunk : !mav.list<!mav.tensor>
}
