// RUN: mav-opt %s -mav-add-hardware-metadata='max-parallelism=2' | FileCheck %s
// RUN: not mav-opt %s -mav-add-hardware-metadata='max-parallelism=4,0' 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not mav-opt %s -mav-add-hardware-metadata='max-parallelism=4,x' 2>&1 | FileCheck %s --check-prefix=NAN

// ZERO: error: mav-add-hardware-metadata: max-parallelism entries must be at least 1, got 0
// NAN: for the --max-parallelism option: 'x' value invalid

// A get_attr and a roll (implicit_func, no component) are implicit; a
// fixed-point value gets both precisions, a float32 one its dtype's 32 (the
// roll's entries give no format: it is the type's); a scalar argument gets no
// parameters; an operator mav has no component for is UNSUPPORTED.
// CHECK-LABEL: mav.graph @implicit
mav.graph @implicit(%x: tensor<2x6xf32>) -> tensor<2x6xf32> {
  // CHECK: %w = mav.get_attr @w
  // CHECK-SAME: hardware = #mav.hardware<is_implicit = true, toolchain = "UNSUPPORTED", device_id = -1 : i64, interface = {},
  // CHECK-SAME: verilog_param = {DATA_OUT_0_PARALLELISM_DIM_0 = 2 : i64, DATA_OUT_0_PARALLELISM_DIM_1 = 1 : i64, DATA_OUT_0_PRECISION_0 = 8 : i64, DATA_OUT_0_PRECISION_1 = 4 : i64, DATA_OUT_0_TENSOR_SIZE_DIM_0 = 6 : i64, DATA_OUT_0_TENSOR_SIZE_DIM_1 = 2 : i64},
  // CHECK-SAME: dependence_files = [], max_parallelism = [2]>
  %w = mav.get_attr @w {common = #mav.common<mase_type = "get_attr", mase_op = "constant", results = [#mav.value<name = "data_out_0", shape = [2, 6], type = "fixed", precision = [8, 4]>]>} : tensor<2x6xf32>
  // CHECK: %mul = mav.call_function "aten::mul"
  // CHECK-SAME: hardware = #mav.hardware<is_implicit = false, toolchain = "INTERNAL_RTL", module = "fixed_mul", device_id = -1 : i64, interface = {},
  // CHECK-SAME: verilog_param = {DATA_IN_0_PARALLELISM_DIM_0 = 2 : i64, DATA_IN_0_PARALLELISM_DIM_1 = 1 : i64, DATA_IN_0_PRECISION_0 = 8 : i64, DATA_IN_0_PRECISION_1 = 4 : i64, DATA_IN_0_TENSOR_SIZE_DIM_0 = 6 : i64, DATA_IN_0_TENSOR_SIZE_DIM_1 = 2 : i64,
  // CHECK-SAME: DATA_IN_1_PRECISION_1 = 4 : i64,
  // CHECK-SAME: dependence_files = ["fixed_round_sat.sv", "fixed_skid_buffer.sv", "fixed_join2.sv", "fixed_mul.sv"], max_parallelism = [2]>
  %mul = mav.call_function "aten::mul" (%x, %x) {common = #mav.common<mase_type = "builtin_func", mase_op = "mul", args = [#mav.value<name = "data_in_0", shape = [2, 6], type = "fixed", precision = [8, 4]>, #mav.value<name = "data_in_1", shape = [2, 6], type = "fixed", precision = [8, 4]>], results = [#mav.value<name = "data_out_0", shape = [2, 6], type = "fixed", precision = [8, 4]>]>} : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
  // CHECK: %roll = mav.call_method "roll"
  // CHECK-SAME: hardware = #mav.hardware<is_implicit = true, toolchain = "UNSUPPORTED", device_id = -1 : i64, interface = {},
  // CHECK-SAME: verilog_param = {DATA_IN_0_PARALLELISM_DIM_0 = 2 : i64, DATA_IN_0_PARALLELISM_DIM_1 = 1 : i64, DATA_IN_0_PRECISION_0 = 32 : i64, DATA_IN_0_TENSOR_SIZE_DIM_0 = 6 : i64, DATA_IN_0_TENSOR_SIZE_DIM_1 = 2 : i64,
  // CHECK-SAME: DATA_OUT_0_PARALLELISM_DIM_0 = 2 : i64, DATA_OUT_0_PARALLELISM_DIM_1 = 1 : i64, DATA_OUT_0_PRECISION_0 = 32 : i64, DATA_OUT_0_TENSOR_SIZE_DIM_0 = 6 : i64, DATA_OUT_0_TENSOR_SIZE_DIM_1 = 2 : i64}
  %roll = mav.call_method "roll" (%mul, [1], [0]) {common = #mav.common<mase_type = "implicit_func", mase_op = "roll", args = [#mav.value<name = "data_in_0", shape = [2, 6]>, #mav.value<name = "shifts", type = "list", value = [1]>, #mav.value<name = "dims", type = "list", value = [0]>], results = [#mav.value<name = "data_out_0", shape = [2, 6]>]>} : (tensor<2x6xf32>) -> tensor<2x6xf32>
  mav.output %roll : tensor<2x6xf32>
}
mav.weight @w parameter = dense<1.0> : tensor<2x6xf32>
