// RUN: mav-opt %s -split-input-file -mav-raise -mav-fold-shape-arithmetic | FileCheck %s

// Sizes of statically shaped tensors, through NumToTensor, arithmetic with a
// traced constant and Int, become constants of their users; the chain is
// erased.
// CHECK: #mav.pass_output<"mav-fold-shape-arithmetic", {erased = 4 : i64, folded = 1 : i64, nodes = ["int", "floor_divide", "num_to_tensor", "size"]}>
// CHECK-LABEL: mav.graph @chain
// CHECK-NEXT: %two = mav.get_attr @two
// CHECK-NEXT: %view = mav.call_method "view" (%x, [2, 3, -1])
// CHECK-NEXT: mav.output %view
mav.weight @two buffer = dense<2> : tensor<si64>
mav.graph @chain(%x: tensor<4x3x4xf32>) -> !mav.tensor {
  %two = mav.get_attr @two : tensor<si64>
  %size = mav.call_method "size" (%x, 0) : (tensor<4x3x4xf32>) -> !mav.int
  %num_to_tensor = mav.call_function "prim::NumToTensor.Scalar" (%size) : (!mav.int) -> !mav.tensor
  %floor_divide = mav.call_function "aten::floor_divide" (%num_to_tensor, %two) : (!mav.tensor, tensor<si64>) -> !mav.tensor
  %int = mav.call_function "aten::Int.Tensor" (%floor_divide) : (!mav.tensor) -> !mav.int
  %view = mav.call_method "view" (%x, [%int, 3, -1]) : (tensor<4x3x4xf32>, !mav.int) -> !mav.tensor
  mav.output %view : !mav.tensor
}

// -----

// A number read from data is not a size: it stays, and so does the size of
// a tensor whose shape is not static; a size used as a tensor by a data
// node stays with what it needs.
// CHECK: #mav.pass_output<"mav-fold-shape-arithmetic", {erased = 0 : i64, folded = 0 : i64, nodes = []}>
// CHECK-LABEL: mav.graph @kept
// CHECK: %int = mav.call_function "aten::Int.Tensor" (%sum)
// CHECK: %size = mav.call_method "size" (%nonzero, 0)
// CHECK: %size_1 = mav.call_method "size" (%x, 1)
// CHECK: %num_to_tensor = mav.call_function "prim::NumToTensor.Scalar" (%size_1)
// CHECK: %add = mav.call_function "aten::add.Tensor" (%x, %num_to_tensor, alpha = 1)
mav.graph @kept(%x: tensor<2x3xf32>) -> (!mav.int, !mav.int, !mav.tensor) {
  %sum = mav.call_function "aten::sum" (%x, dtype = None) : (tensor<2x3xf32>) -> !mav.tensor
  %int = mav.call_function "aten::Int.Tensor" (%sum) : (!mav.tensor) -> !mav.int
  %nonzero = mav.call_function "aten::nonzero" (%x) : (tensor<2x3xf32>) -> !mav.tensor
  %size = mav.call_method "size" (%nonzero, 0) : (!mav.tensor) -> !mav.int
  %size_1 = mav.call_method "size" (%x, 1) : (tensor<2x3xf32>) -> !mav.int
  %num_to_tensor = mav.call_function "prim::NumToTensor.Scalar" (%size_1) : (!mav.int) -> !mav.tensor
  %add = mav.call_function "aten::add.Tensor" (%x, %num_to_tensor, alpha = 1) : (tensor<2x3xf32>, !mav.tensor) -> !mav.tensor
  mav.output (%int, %size, %add) : !mav.int, !mav.int, !mav.tensor
}
