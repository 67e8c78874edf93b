// RUN: mav-opt %s -mav-add-hardware-metadata -mav-fold-parallelism='target-cycles=2600' | FileCheck %s --check-prefixes=T2600,ALL
// RUN: mav-opt %s -mav-add-hardware-metadata -mav-fold-parallelism='target-cycles=1000' | FileCheck %s --check-prefixes=T1000,ALL
// RUN: mav-opt %s -mav-add-hardware-metadata -mav-fold-parallelism='target-cycles=100' --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefixes=T100,ALL
// RUN: mav-opt %s -mav-add-hardware-metadata -mav-fold-parallelism='multipliers=16' | FileCheck %s --check-prefixes=M16,ALL
// RUN: mav-opt %s -mav-add-hardware-metadata -mav-fold-parallelism='multipliers=17' | FileCheck %s --check-prefixes=M17,ALL
// The folding is applied, not only reported: the lowering reads it back.
// RUN: mav-opt %s -mav-add-hardware-metadata -mav-fold-parallelism='target-cycles=1000' -o %t.mlir
// RUN: mav-translate --export-verilog %t.mlir -o %t.rtl
// RUN: FileCheck %s --input-file=%t.rtl/top.sv --check-prefix=TOP
// The design figures are the performance model's.
// RUN: mav-translate --report-performance %t.mlir -o %t.perf.json | FileCheck %s --check-prefix=PERF
// Running it again on its own output chooses the same widths.
// RUN: mav-opt %t.mlir -mav-fold-parallelism='target-cycles=1000' | FileCheck %s --check-prefixes=T1000,ALL

// A quantized conv(4 -> 8, 3x3, pad 1) -> relu -> max_pool(2) -> flatten ->
// linear(128 -> 8) on a 1x4x8x8 input (one item per frame). Every expected
// width below follows from the cycle formulas of docs/Hardware.md's component
// table (cycles per frame = itemCycles x 1 item) and the order of
// docs/Passes.md: fewest multipliers, then the smallest sum of widths, then
// the widths in order.
//
// conv: IC 4, OC 8, H = W = OH = OW = 8, K 3; P_in | 4, P_out | 8,
//   T = 4*64/Pi + (8/Po)*64*((4/Pi)*9 + 1), multipliers Pi*Po:
//   (1,1) 19200 | (1,2) 9728, (2,1) 9856 | (2,2) 4992, (1,4) 4992, (4,1) 5184
//   | 8: (2,4) 2560, (4,2) 2624, (1,8) 2624 | 16: (4,4) 1344, (2,8) 1344
//   | 32: (4,8) 704
// relu (8x8x8 words): T = 512/P + 1: 513, 257, 129, 65 (P = 1, 2, 4, 8)
// pool (8 channels, 8x8 -> 4x4, 2x2): T = 512/P + (8/P)*16*(4 + 1) = 1152/P
// flatten (128 words, P | gcd(8, 128)): T = 128/P + 1: 129, 65, 33, 17
// fc: T = 128/Pi + (8/Po)*(128/Pi + 1): (1,1) 1160 | (1,2) 644, (2,1) 584 |
//   16: (4,4) 98, (8,2) 84, (16,1) 80, with every cheaper one above 100
//   (8: (8,1) 152, (4,2) 164, (2,4) 194, (1,8) 257).
//
// target-cycles=2600: conv's first folding within 2600 is (2,4) (8
// multipliers; (2,4) before (4,2) by the widths, and (4,2), (1,8) take
// 2624); everything else is within 2600 at width 1. Bottleneck conv 2560,
// 8 + 1 multipliers.
// T2600: mav-fold-parallelism", {bottleneck = "conv", bottleneck_cycles = 2560 : i64, design_cycles_per_frame = 2560 : i64, design_latency = 4429 : i64, multipliers = 9 : i64,
// T2600-SAME: nodes = {conv = {cycles = 2560 : i64, in = [2], multipliers = 8 : i64, out = 4 : i64}, fc = {cycles = 1160 : i64, in = [1], multipliers = 1 : i64, out = 1 : i64}, flatten = {cycles = 129 : i64, in = [1], multipliers = 0 : i64, out = 1 : i64}, pool = {cycles = 1152 : i64, in = [1], multipliers = 0 : i64, out = 1 : i64}, relu = {cycles = 513 : i64, in = [1], multipliers = 0 : i64, out = 1 : i64}},
// T2600-SAME: target_cycles = 2600 : i64, unreached = []}
//
// target-cycles=1000: conv (4,8) 704 (32: nothing cheaper is within 1000);
// the pool, with no multipliers, widens to P = 2 (576); fc (1,2) 644
// before (2,1) by the widths; 32 + 2 multipliers.
// The design (the performance model of the exported top level) overlaps
// the nodes: at 2600 and with multipliers=16 its cycles per frame are the
// bottleneck's; at 1000 they are 831, above conv's 704, because the pool's
// load takes relu's 513 cycles at width 1 (a buffered component loads at
// its producer's rate), but still within the target.
// PERF: performance (model, no stalls): latency 2011 cycles, 831 cycles per frame
// T1000: mav-fold-parallelism", {bottleneck = "conv", bottleneck_cycles = 704 : i64, design_cycles_per_frame = 831 : i64, design_latency = 2011 : i64, multipliers = 34 : i64,
// T1000-SAME: nodes = {conv = {cycles = 704 : i64, in = [4], multipliers = 32 : i64, out = 8 : i64}, fc = {cycles = 644 : i64, in = [1], multipliers = 2 : i64, out = 2 : i64}, flatten = {cycles = 129 : i64, in = [1], multipliers = 0 : i64, out = 1 : i64}, pool = {cycles = 576 : i64, in = [2], multipliers = 0 : i64, out = 2 : i64}, relu = {cycles = 513 : i64, in = [1], multipliers = 0 : i64, out = 1 : i64}},
// T1000-SAME: target_cycles = 1000 : i64, unreached = []}
//
// target-cycles=100: conv (704) and the pool (144) cannot reach it: they take
// their widest and are reported; relu P = 8 (65), flatten P = 2 (65), fc
// (4,4) 98 (the first of the 16-multiplier ones within 100 by the widths).
// T100-DAG: warning: node 'conv' cannot reach 100 cycles per frame: at its widest it takes 704
// T100-DAG: warning: node 'pool' cannot reach 100 cycles per frame: at its widest it takes 144
// T100-DAG: warning: mav-fold-parallelism: the design takes 704 cycles per frame by the performance model, above the target of 100
// T100: mav-fold-parallelism", {bottleneck = "conv", bottleneck_cycles = 704 : i64, design_cycles_per_frame = 704 : i64, design_latency = 904 : i64, multipliers = 48 : i64,
// T100-SAME: nodes = {conv = {cycles = 704 : i64, in = [4], multipliers = 32 : i64, out = 8 : i64}, fc = {cycles = 98 : i64, in = [4], multipliers = 16 : i64, out = 4 : i64}, flatten = {cycles = 65 : i64, in = [2], multipliers = 0 : i64, out = 2 : i64}, pool = {cycles = 144 : i64, in = [8], multipliers = 0 : i64, out = 8 : i64}, relu = {cycles = 65 : i64, in = [8], multipliers = 0 : i64, out = 8 : i64}},
// T100-SAME: target_cycles = 100 : i64, unreached = ["conv", "pool"]}
//
// multipliers=16: below 2560 conv needs 16 multipliers (1344), and fc at
// least 1 (it cannot go below 584 cycles), 17 > 16; so the target is 2560,
// the folding of target-cycles=2600 with 9 multipliers.
// M16: mav-fold-parallelism", {bottleneck = "conv", bottleneck_cycles = 2560 : i64, design_cycles_per_frame = 2560 : i64, design_latency = 4429 : i64, multiplier_budget = 16 : i64, multipliers = 9 : i64,
// M16-SAME: nodes = {conv = {cycles = 2560 : i64, in = [2], multipliers = 8 : i64, out = 4 : i64}, fc = {cycles = 1160 : i64, in = [1], multipliers = 1 : i64, out = 1 : i64},
// M16-SAME: target_cycles = 2560 : i64, unreached = []}
//
// multipliers=17: conv (4,4) 1344 (before (2,8) by the widths) and fc
// (1,1) 1160 fit; below 1344 conv needs 32.
// M17: mav-fold-parallelism", {bottleneck = "conv", bottleneck_cycles = 1344 : i64, design_cycles_per_frame = 1344 : i64, design_latency = 3213 : i64, multiplier_budget = 17 : i64, multipliers = 17 : i64,
// M17-SAME: nodes = {conv = {cycles = 1344 : i64, in = [4], multipliers = 16 : i64, out = 4 : i64}, fc = {cycles = 1160 : i64, in = [1], multipliers = 1 : i64, out = 1 : i64},
// M17-SAME: target_cycles = 1344 : i64, unreached = []}
//
// The widths are in each node's verilog_param, on the channels (DIM_2) of
// an image and the features (DIM_0) of a vector, 1 elsewhere.
// ALL-LABEL: mav.graph @forward
// ALL: %conv = mav.call_module "conv"
// T1000-SAME: DATA_IN_0_PARALLELISM_DIM_0 = 1 : i64, DATA_IN_0_PARALLELISM_DIM_1 = 1 : i64, DATA_IN_0_PARALLELISM_DIM_2 = 4 : i64, DATA_IN_0_PARALLELISM_DIM_3 = 1 : i64,
// T1000-SAME: DATA_OUT_0_PARALLELISM_DIM_0 = 1 : i64, DATA_OUT_0_PARALLELISM_DIM_1 = 1 : i64, DATA_OUT_0_PARALLELISM_DIM_2 = 8 : i64, DATA_OUT_0_PARALLELISM_DIM_3 = 1 : i64,
// T2600-SAME: DATA_IN_0_PARALLELISM_DIM_2 = 2 : i64,
// T2600-SAME: DATA_OUT_0_PARALLELISM_DIM_2 = 4 : i64,
// ALL: %pool = mav.call_module "pool"
// T1000-SAME: DATA_IN_0_PARALLELISM_DIM_2 = 2 : i64,
// T1000-SAME: DATA_OUT_0_PARALLELISM_DIM_2 = 2 : i64,
// ALL: %fc = mav.call_module "fc"
// T1000-SAME: DATA_IN_0_PARALLELISM_DIM_0 = 1 : i64, DATA_IN_0_PARALLELISM_DIM_1 = 1 : i64,
// T1000-SAME: DATA_OUT_0_PARALLELISM_DIM_0 = 2 : i64, DATA_OUT_0_PARALLELISM_DIM_1 = 1 : i64,

// The exported instances use them.
// TOP: fixed_conv2d #(
// TOP-DAG: .IN_PARALLELISM(4)
// TOP-DAG: .OUT_PARALLELISM(8)
// TOP: fixed_maxpool2d #(
// TOP: .PARALLELISM(2)
// TOP: fixed_linear #(
// TOP-DAG: .IN_PARALLELISM(1)
// TOP-DAG: .OUT_PARALLELISM(2)

module attributes {mav.module_classes = [["", "Net"], ["conv", "torch.nn.modules.conv.Conv2d"], ["relu", "torch.nn.modules.activation.ReLU"], ["pool", "torch.nn.modules.pooling.MaxPool2d"], ["flatten", "torch.nn.modules.flatten.Flatten"], ["fc", "torch.nn.modules.linear.Linear"]]} {
  mav.weight @conv.weight parameter = dense<0.0> : tensor<8x4x3x3xf32>
  mav.weight @conv.bias parameter = dense<0.0> : tensor<8xf32>
  mav.weight @fc.weight parameter = dense<0.0> : tensor<8x128xf32>
  mav.weight @fc.bias parameter = dense<0.0> : tensor<8xf32>
  mav.graph @forward(%x: tensor<1x4x8x8xf32>) -> tensor<1x8xf32> attributes {inputs = [#mav.value<name = "x", shape = [1, 4, 8, 8], type = "fixed", precision = [8, 4]>], outputs = [#mav.value<name = "data_out_0", shape = [1, 8], torch_dtype = "torch.float32", type = "fixed", precision = [8, 4], stride = [8, 1]>]} {
    %conv = mav.call_module "conv" (%x) {body = @conv.forward, common = #mav.common<mase_type = "module_related_func", mase_op = "conv2d", args = [#mav.value<name = "data_in_0", type = "fixed", precision = [8, 4]>, #mav.value<name = "weight", shape = [8, 4, 3, 3], torch_dtype = "torch.float32", type = "fixed", precision = [8, 4]>, #mav.value<name = "bias", shape = [8], torch_dtype = "torch.float32", type = "fixed", precision = [8, 4]>], results = [#mav.value<name = "data_out_0", type = "fixed", precision = [8, 4]>]>, config = {allow_tf32 = true, benchmark = false, cudnn_enabled = true, deterministic = false, dilation = [1, 1], groups = 1 : i64, output_padding = [0, 0], padding = [1, 1], stride = [1, 1], training = false, transposed = false}, module_class = "torch.nn.modules.conv.Conv2d", scope = #mav.scope<"conv", "torch.nn.modules.conv.Conv2d">} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x8xf32>
    %relu = mav.call_module "relu" (%conv) {body = @relu.forward, common = #mav.common<mase_type = "module_related_func", mase_op = "relu", args = [#mav.value<name = "data_in_0", type = "fixed", precision = [8, 4]>], results = [#mav.value<name = "data_out_0", type = "fixed", precision = [8, 4]>]>, config = {training = false}, module_class = "torch.nn.modules.activation.ReLU", scope = #mav.scope<"relu", "torch.nn.modules.activation.ReLU">} : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %pool = mav.call_module "pool" (%relu) {body = @pool.forward, common = #mav.common<mase_type = "module_related_func", mase_op = "max_pool2d", args = [#mav.value<name = "data_in_0", type = "fixed", precision = [8, 4]>], results = [#mav.value<name = "data_out_0", type = "fixed", precision = [8, 4]>]>, config = {ceil_mode = false, dilation = [1, 1], kernel_size = [2, 2], padding = [0, 0], stride = [2, 2], training = false}, module_class = "torch.nn.modules.pooling.MaxPool2d", scope = #mav.scope<"pool", "torch.nn.modules.pooling.MaxPool2d">} : (tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32>
    %flatten = mav.call_module "flatten" (%pool) {body = @flatten.forward, common = #mav.common<mase_type = "implicit_func", mase_op = "flatten", args = [#mav.value<name = "data_in_0", type = "fixed", precision = [8, 4]>], results = [#mav.value<name = "data_out_0", type = "fixed", precision = [8, 4]>]>, config = {end_dim = -1 : i64, start_dim = 1 : i64, training = false}, module_class = "torch.nn.modules.flatten.Flatten", scope = #mav.scope<"flatten", "torch.nn.modules.flatten.Flatten">} : (tensor<1x8x4x4xf32>) -> tensor<1x128xf32>
    %fc = mav.call_module "fc" (%flatten) {body = @fc.forward, common = #mav.common<mase_type = "module_related_func", mase_op = "linear", args = [#mav.value<name = "data_in_0", type = "fixed", precision = [8, 4]>, #mav.value<name = "weight", shape = [8, 128], torch_dtype = "torch.float32", type = "fixed", precision = [8, 4]>, #mav.value<name = "bias", shape = [8], torch_dtype = "torch.float32", type = "fixed", precision = [8, 4]>], results = [#mav.value<name = "data_out_0", type = "fixed", precision = [8, 4]>]>, config = {training = false}, module_class = "torch.nn.modules.linear.Linear", scope = #mav.scope<"fc", "torch.nn.modules.linear.Linear">} : (tensor<1x128xf32>) -> tensor<1x8xf32>
    mav.output %fc : tensor<1x8xf32>
  }
  mav.graph private @conv.forward(%x: !mav.tensor) -> !mav.tensor {
    %conv_bias = mav.get_attr @conv.bias {scope = #mav.scope<"conv", "torch.nn.modules.conv.Conv2d">} : tensor<8xf32>
    %conv_weight = mav.get_attr @conv.weight {scope = #mav.scope<"conv", "torch.nn.modules.conv.Conv2d">} : tensor<8x4x3x3xf32>
    %_convolution = mav.call_function "aten::_convolution" (%x, %conv_weight, %conv_bias, [1, 1], [1, 1], [1, 1], false, [0, 0], 1, false, false, true, true) {scope = #mav.scope<"conv", "torch.nn.modules.conv.Conv2d">} : (!mav.tensor, tensor<8x4x3x3xf32>, tensor<8xf32>) -> !mav.tensor
    mav.output %_convolution : !mav.tensor
  }
  mav.graph private @relu.forward(%argument_1: !mav.tensor) -> !mav.tensor {
    %relu = mav.call_function "aten::relu" (%argument_1) {scope = #mav.scope<"relu", "torch.nn.modules.activation.ReLU">} : (!mav.tensor) -> !mav.tensor
    mav.output %relu : !mav.tensor
  }
  mav.graph private @pool.forward(%argument_1: !mav.tensor) -> !mav.tensor {
    %max_pool2d = mav.call_function "aten::max_pool2d" (%argument_1, [2, 2], [2, 2], [0, 0], [1, 1], false) {scope = #mav.scope<"pool", "torch.nn.modules.pooling.MaxPool2d">} : (!mav.tensor) -> !mav.tensor
    mav.output %max_pool2d : !mav.tensor
  }
  mav.graph private @flatten.forward(%argument_1: !mav.tensor) -> !mav.tensor {
    %flatten = mav.call_function "aten::flatten.using_ints" (%argument_1, 1, -1) {scope = #mav.scope<"flatten", "torch.nn.modules.flatten.Flatten">} : (!mav.tensor) -> !mav.tensor
    mav.output %flatten : !mav.tensor
  }
  mav.graph private @fc.forward(%argument_1: !mav.tensor) -> !mav.tensor {
    %fc_bias = mav.get_attr @fc.bias {scope = #mav.scope<"fc", "torch.nn.modules.linear.Linear">} : tensor<8xf32>
    %fc_weight = mav.get_attr @fc.weight {scope = #mav.scope<"fc", "torch.nn.modules.linear.Linear">} : tensor<8x128xf32>
    %linear = mav.call_function "aten::linear" (%argument_1, %fc_weight, %fc_bias) {scope = #mav.scope<"fc", "torch.nn.modules.linear.Linear">} : (!mav.tensor, tensor<8x128xf32>, tensor<8xf32>) -> !mav.tensor
    mav.output %linear : !mav.tensor
  }
}

