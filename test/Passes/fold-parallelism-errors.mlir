// RUN: not mav-opt %s -mav-fold-parallelism='target-cycles=100' 2>&1 | FileCheck %s --check-prefix=NOMETA
// RUN: not mav-opt %s -mav-add-hardware-metadata -mav-fold-parallelism 2>&1 | FileCheck %s --check-prefix=NEITHER
// RUN: not mav-opt %s -mav-add-hardware-metadata -mav-fold-parallelism='target-cycles=100 multipliers=4' 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not mav-opt %s -mav-add-hardware-metadata -mav-fold-parallelism='target-cycles=0' 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not mav-opt %s -mav-add-hardware-metadata -mav-fold-parallelism='multipliers=-3' 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not mav-opt %s -mav-add-hardware-metadata -mav-fold-parallelism='multipliers=1' 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not mav-opt %s -mav-add-hardware-metadata -mav-fold-parallelism='target-cycles=x' 2>&1 | FileCheck %s --check-prefix=NAN

// NOMETA: error: node 'relu' has no hardware metadata: run -mav-add-hardware-metadata first
// NEITHER: error: mav-fold-parallelism: give exactly one of target-cycles=N and multipliers=M, got neither
// BOTH: error: mav-fold-parallelism: give exactly one of target-cycles=N and multipliers=M, got both
// ZERO: error: mav-fold-parallelism: target-cycles must be at least 1, got 0
// NEGATIVE: error: mav-fold-parallelism: multipliers must be at least 1, got -3
// The cheapest folding has the two muls at width 1, one multiplier each.
// BUDGET: error: mav-fold-parallelism: multipliers=1 is below the 2 multipliers of the cheapest folding
// NAN: for the --target-cycles option: 'x' value invalid

// Fixed-point nodes: a relu (no multipliers) and two muls (one a word).
mav.graph @forward(%x: tensor<2x6xf32>) -> tensor<2x6xf32> attributes {inputs = [#mav.value<name = "x", shape = [2, 6], type = "fixed", precision = [8, 4]>]} {
  %relu = mav.call_function "aten::relu" (%x) {common = #mav.common<mase_type = "module_related_func", mase_op = "relu", args = [#mav.value<name = "data_in_0", shape = [2, 6], type = "fixed", precision = [8, 4]>], results = [#mav.value<name = "data_out_0", shape = [2, 6], type = "fixed", precision = [8, 4]>]>} : (tensor<2x6xf32>) -> tensor<2x6xf32>
  %mul = mav.call_function "aten::mul" (%relu, %x) {common = #mav.common<mase_type = "builtin_func", mase_op = "mul", args = [#mav.value<name = "data_in_0", shape = [2, 6], type = "fixed", precision = [8, 4]>, #mav.value<name = "data_in_1", shape = [2, 6], type = "fixed", precision = [8, 4]>], results = [#mav.value<name = "data_out_0", shape = [2, 6], type = "fixed", precision = [8, 4]>]>} : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
  %mul_1 = mav.call_function "aten::mul" (%mul, %x) {common = #mav.common<mase_type = "builtin_func", mase_op = "mul", args = [#mav.value<name = "data_in_0", shape = [2, 6], type = "fixed", precision = [8, 4]>, #mav.value<name = "data_in_1", shape = [2, 6], type = "fixed", precision = [8, 4]>], results = [#mav.value<name = "data_out_0", shape = [2, 6], type = "fixed", precision = [8, 4]>]>} : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
  mav.output %mul_1 : tensor<2x6xf32>
}
