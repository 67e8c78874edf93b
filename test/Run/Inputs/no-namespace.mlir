// A call_function whose target has no namespace (mav-run's errors.test).
mav.graph @forward(%x: tensor<2xf32>) -> !mav.tensor {
  %frob = mav.call_function "frobnicate" (%x) : (tensor<2xf32>) -> !mav.tensor
  mav.output %frob : !mav.tensor
}
