// The shape engines of -mav-add-common-metadata: mav's rules (native), with
// libtorch's meta device as the fallback (auto) or never (native).
// RUN: mav-opt %s -split-input-file -mav-add-common-metadata=shape-engine=native 2>/dev/null | FileCheck %s --check-prefix=NATIVE

// A transposed view keeps its input's storage: its strides are permuted, and
// the elementwise op after it lays its result out in the same order. Only
// strides that are not contiguous are stored: the types say the rest.
// NATIVE-LABEL: mav.graph @views
// NATIVE: %t = mav.call_function "aten::transpose.int"{{.*}}results = [#mav.value<name = "data_out_0", stride = [12, 1, 4]>]>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
// NATIVE: %r = mav.call_function "aten::relu"{{.*}}stride = [12, 1, 4]>]
// NATIVE: %c = mav.call_method "contiguous" (%r) {common = #mav.common<mase_type = "implicit_func", mase_op = "contiguous", args = [#mav.value<name = "data_in_0", stride = [12, 1, 4]>]>} : (tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
mav.graph @views(%x: tensor<2x3x4xf32>) -> !mav.tensor {
  %t = mav.call_function "aten::transpose.int" (%x, 1, 2) : (tensor<2x3x4xf32>) -> !mav.tensor
  %r = mav.call_function "aten::relu" (%t) : (!mav.tensor) -> !mav.tensor
  %c = mav.call_method "contiguous" (%r) : (!mav.tensor) -> !mav.tensor
  mav.output %c : !mav.tensor
}

// -----

// Type promotion: an integer tensor plus a float number is float32; divided
// by an integer tensor, float32 too.
// NATIVE-LABEL: mav.graph @promotion
// NATIVE: %a = mav.call_function "aten::add.Scalar"{{.*}} : (tensor<3xsi64>) -> tensor<3xf32>
// NATIVE: %d = mav.call_function "aten::div.Tensor"{{.*}} : (tensor<3xsi64>, tensor<2x1xsi64>) -> tensor<2x3xf32>
mav.graph @promotion(%i: tensor<3xsi64>, %j: tensor<2x1xsi64>) -> !mav.tensor {
  %a = mav.call_function "aten::add.Scalar" (%i, 5.000000e-01, 1) : (tensor<3xsi64>) -> !mav.tensor
  %d = mav.call_function "aten::div.Tensor" (%i, %j) : (tensor<3xsi64>, tensor<2x1xsi64>) -> !mav.tensor
  mav.output %d : !mav.tensor
}

