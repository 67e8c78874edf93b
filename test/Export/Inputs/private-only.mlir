mav.graph private @body(%x: !mav.tensor) -> !mav.tensor {
  mav.output %x : !mav.tensor
}
