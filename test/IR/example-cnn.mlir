// RUN: mav-opt %s > %t.txt
// RUN: mav-opt %t.txt --emit-bytecode -o %t.mlirbc
// RUN: mav-opt %t.mlirbc > %t.back.txt
// RUN: diff %t.txt %t.back.txt
// RUN: mav-translate --mav-roundtrip --emit-bytecode %t.txt -o %t.translate.mlirbc
// RUN: mav-translate --mav-roundtrip %t.translate.mlirbc | diff %t.txt -
// RUN: FileCheck %s < %t.txt

// A small CNN written by hand: every argument form, scopes, weights (blobs
// and inline) and all three metadata sections. Used by the round-trip tests.

mav.weight @"conv.weight" parameter = dense_resource<conv_weight> : tensor<2x1x3x3xf32>
mav.weight @"conv.bias" parameter = dense_resource<conv_bias> : tensor<2xf32>
mav.weight @"bn.running_mean" buffer = dense_resource<bn_mean> : tensor<2xf32>
mav.weight @"bn.running_var" buffer = dense_resource<bn_var> : tensor<2xf32>
mav.weight @"bn.num_batches_tracked" buffer = dense<0> : tensor<si64>
mav.weight @"fc.weight" parameter = dense_resource<fc_weight> : tensor<3x8xf32> {frozen}
mav.weight @"fc.bias" parameter = dense_resource<fc_bias> : tensor<3xf32>

// CHECK-LABEL: mav.graph @forward(%x: tensor<1x1x4x4xf32>, %scale: !mav.tensor)
// CHECK: %conv = mav.call_module "conv" (%x) {common = #mav.common<mase_type = "module_related_func", mase_op = "conv2d"
// CHECK-SAME: hardware = #mav.hardware<is_implicit = false, toolchain = "INTERNAL_RTL"
// CHECK-SAME: software = #mav.software<{args
// CHECK: %bn = mav.call_function "aten::batch_norm" (%conv, None, None, %bn_running_mean, %bn_running_var, false, 1.000000e-01, 1.000000e-05, true)
// CHECK: mav.call_function "aten::clamp" (%relu, 0xFFF0000000000000 : f64, 6.000000e+00)
// CHECK: %view = mav.call_method "view" (%clamp, [%size, -1])
// CHECK: mav.call_method "reshape" (%view, (1, 4, 8))
// CHECK: mav.call_method "to" (%sum, #mav.dtype<float32>, copy = false, memory_format = #mav.memory_format<preserve_format>, non_blocking = false)
// CHECK: mav.call_function "aten::zeros" ([1, 3], #mav.dtype<float32>, #mav.layout<strided>, #mav.device<"cpu">, false)
// CHECK: "prim::PythonOp" ({{\[\[}}1, 2], (3, (4,)), ()], "with \22quotes\22\0A", -2.500000e-01, true)
// CHECK: mav.output (%add, [%einsum, None]) : tensor<1x3xf32>, !mav.tensor
// CHECK: fc_weight: "0x04000000F80A243F
mav.graph @forward(%x: tensor<1x1x4x4xf32>, %scale: !mav.tensor) -> (tensor<1x3xf32>, !mav.tensor) {
  %conv = mav.call_module "conv" (%x) {
      module_class = "torch.nn.modules.conv.Conv2d",
      config = {in_channels = 1, out_channels = 2, kernel_size = [3, 3], stride = [1, 1], padding = [1, 1], bias = true},
      scope = #mav.scope<"conv", "torch.nn.modules.conv.Conv2d">,
      common = #mav.common<mase_type = "module_related_func", mase_op = "conv2d",
        args = [#mav.value<name = "data_in_0", shape = [1, 1, 4, 4], torch_dtype = "torch.float32", type = "float", precision = [32], stride = [16, 16, 4, 1]>,
                #mav.value<name = "weight", shape = [2, 1, 3, 3], torch_dtype = "torch.float32", type = "float", precision = [32]>,
                #mav.value<name = "bias", shape = [2], torch_dtype = "torch.float32", type = "float", precision = [32]>],
        results = [#mav.value<name = "data_out_0", shape = [1, 2, 4, 4], torch_dtype = "torch.float32", type = "float", precision = [32], stride = [32, 16, 4, 1]>]>,
      hardware = #mav.hardware<is_implicit = false, toolchain = "INTERNAL_RTL", module = "fixed_conv2d", device_id = -1,
        interface = {weight = {storage = "BRAM", transpose = false}},
        verilog_param = {DATA_IN_0_PRECISION_0 = 8, DATA_IN_0_PRECISION_1 = 3},
        dependence_files = ["conv/rtl/fixed_conv2d.sv", "common/rtl/join2.sv"],
        max_parallelism = [4, 4]>,
      software = #mav.software<{args = {data_in_0 = {stat = {mean = 0.0, std = 1.0}}}}>}
      : (tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  %bn_running_mean = mav.get_attr @"bn.running_mean" {scope = #mav.scope<"bn", "torch.nn.modules.batchnorm.BatchNorm2d">} : tensor<2xf32>
  %bn_running_var = mav.get_attr @"bn.running_var" {scope = #mav.scope<"bn", "torch.nn.modules.batchnorm.BatchNorm2d">} : !mav.tensor
  %bn = mav.call_function "aten::batch_norm" (%conv, None, None, %bn_running_mean, %bn_running_var, false, 1.000000e-01, 1.000000e-05, true) {
      scope = #mav.scope<"bn", "torch.nn.modules.batchnorm.BatchNorm2d">,
      common = #mav.common<>, hardware = #mav.hardware<>, software = #mav.software<{}>}
      : (tensor<1x2x4x4xf32>, tensor<2xf32>, !mav.tensor) -> tensor<1x2x4x4xf32>
  %relu = mav.call_function "aten::relu" (%bn) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %clamp = mav.call_function "aten::clamp" (%relu, 0xFFF0000000000000 : f64, 6.000000e+00) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %size = mav.call_method "size" (%clamp, 0) : (tensor<1x2x4x4xf32>) -> !mav.int
  %view = mav.call_method "view" (%clamp, [%size, -1]) : (tensor<1x2x4x4xf32>, !mav.int) -> tensor<1x32xf32>
  %reshape = mav.call_method "reshape" (%view, (1, 4, 8)) : (tensor<1x32xf32>) -> tensor<1x4x8xf32>
  %sum = mav.call_function "aten::sum" (%reshape, [1], false, dtype = None) : (tensor<1x4x8xf32>) -> tensor<1x8xf32>
  %to = mav.call_method "to" (%sum, #mav.dtype<float32>, copy = false, memory_format = #mav.memory_format<preserve_format>, non_blocking = false) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %fc_weight = mav.get_attr @"fc.weight" {scope = #mav.scope<"fc", "torch.nn.modules.linear.Linear">} : tensor<3x8xf32>
  %fc_bias = mav.get_attr @"fc.bias" {scope = #mav.scope<"fc", "torch.nn.modules.linear.Linear">} : tensor<3xf32>
  %linear = mav.call_function "aten::linear" (%to, %fc_weight, %fc_bias) {scope = #mav.scope<"fc", "torch.nn.modules.linear.Linear">} : (tensor<1x8xf32>, tensor<3x8xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  %zeros = mav.call_function "aten::zeros" ([1, 3], #mav.dtype<float32>, #mav.layout<strided>, #mav.device<"cpu">, false) : () -> tensor<1x3xf32>
  %add = mav.call_function "aten::add" (%linear, %zeros, alpha = 1) : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
  %mul = mav.call_function "aten::mul" (%add, %scale) : (tensor<1x3xf32>, !mav.tensor) -> !mav.tensor
  %einsum = mav.call_function "aten::einsum" ("ij->ji", [%mul], None) : (!mav.tensor) -> !mav.tensor
  %nested = mav.call_function "prim::PythonOp" ([[1, 2], (3, (4,)), ()], "with \"quotes\"\n", -2.500000e-01, true) : () -> !mav.none
  mav.output (%add, [%einsum, None]) : tensor<1x3xf32>, !mav.tensor
}

{-#
  dialect_resources: {
    builtin: {
      conv_weight: "0x04000000851B90BF8A8093BF0410113F5D234B3F8B4D193F5B0DC7BFCAC6AEBE4E2FED3F55AAEF3E5F7F21BEEB8E31BEA4E13B3EC0D6B13F000DCB3F9C40723F33FB57BF308C6E3F3727A13F",
      conv_bias: "0x040000003143D13E06F1B53F",
      bn_mean: "0x040000000000000000000000",
      bn_var: "0x040000000000803F0000803F",
      fc_weight: "0x04000000F80A243F3CDFE13E420B5DBEA3173EBF820E103FE2ED843ED52232BE50C22DBFABE0013FF34D17BF3EBA11BF3F836B3F392F8E3F981AA53FCE34BDBF8B4D24402C1AE43E9BA2A93FC18DD0BF00BC0CBFD6ACF5BE42D6FFBED09288BF57B68E3F",
      fc_bias: "0x0400000092C809BFB986163FA18FCD3F"
    }
  }
#-}
