// No silent float: a graph that -mav-quantize could not quantize is refused,
// naming the node, by the pass itself and, when allow-float left the node
// float, by mav-run's fixed-point run, even when no node got a format (the
// input did): it never runs in float as if it were fixed point.
// RUN: rm -f %t.strict.mlir
// RUN: not mav-opt %s -mav-raise -mav-quantize -o %t.strict.mlir 2>&1 | FileCheck %s --check-prefix=QUANTIZE
// QUANTIZE: error: node 'sigmoid' (sigmoid) cannot be quantized: no hardware component
// RUN: not ls %t.strict.mlir
// RUN: mav-opt %s -mav-raise -mav-quantize=allow-float=true -o %t.mlir
// RUN: not mav-run %t.mlir 2>&1 | FileCheck %s --check-prefix=FLOAT --implicit-check-not="output 0"
// FLOAT: error: node 'sigmoid' (sigmoid): no hardware component

mav.graph @forward(%x: tensor<2x8xf32>) -> !mav.tensor {
  %sigmoid = mav.call_function "aten::sigmoid" (%x) : (tensor<2x8xf32>) -> !mav.tensor
  mav.output %sigmoid : !mav.tensor
}
