// transformer-format-errors.test: a scale by a factor too small for
// <16,10>, then a GELU.
mav.graph @forward(%x: tensor<2x8xf32>) -> !mav.tensor {
  %mul = mav.call_function "aten::mul.Scalar" (%x, 1.0e-05) : (tensor<2x8xf32>) -> !mav.tensor
  %gelu = mav.call_function "aten::gelu" (%mul) : (!mav.tensor) -> !mav.tensor
  mav.output %gelu : !mav.tensor
}
