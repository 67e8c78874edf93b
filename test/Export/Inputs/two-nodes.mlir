mav.graph @forward(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %relu = mav.call_function "aten::relu" (%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %add = mav.call_function "aten::add" (%relu, %x) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  mav.output %add : tensor<2x4xf32>
}
