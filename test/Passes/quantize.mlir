// RUN: mav-opt %s -split-input-file -mav-raise -mav-quantize=allow-float=true | FileCheck %s
// RUN: mav-opt %s -split-input-file -mav-raise -mav-quantize='width=16 frac=10 allow-float=true' | FileCheck %s --check-prefix=OPTIONS
// RUN: echo '{"default": {"width": 4, "frac": 2}, "by_type": {"linear": {"width": 6, "frac": 3}, "relu": {"width": 12, "frac": 6}}, "by_name": {"fc": {"width": 16, "frac": 10}, "x": {"width": 10, "frac": 5}}}' > %t.json
// RUN: mav-opt %s -split-input-file -mav-raise -mav-quantize='config=%t.json allow-float=true' | FileCheck %s --check-prefix=CONFIG

// -mav-quantize on small raised graphs: which nodes get a format, where it
// is recorded, and the precedence of the config file. With allow-float, a
// node without a fitting component stays float and is listed; without it,
// it is an error (quantize-errors.mlir). Real models and every
// config error through the hardware flow: quantize.test; errors of this
// pass: quantize-errors.mlir.

// fc (linear), relu and add have components and get the format on every
// tensor entry, the weight and bias included; sigmoid has none and stays
// float. The input and the output the add gives are fixed; the sigmoid's
// output stays float.
// CHECK: #mav.pass_output<"mav-quantize", {formats = {"<8,4>" = 3 : i64}, quantized = 3 : i64, unquantized_nodes = ["sigmoid"]}>
// CHECK-LABEL: mav.graph @forward
// CHECK-SAME: inputs = [#mav.value<name = "x", shape = [2, 4], type = "fixed", precision = [8, 4]>]
// CHECK-SAME: outputs = [#mav.value<name = "data_out_0", {{.*}}type = "fixed", precision = [8, 4]{{.*}}>, #mav.value<name = "data_out_1", {{.*}}type = "float", precision = [32]
// CHECK-NEXT: %fc = mav.call_module "fc" (%x) {body = @fc.forward, common = #mav.common<mase_type = "module_related_func", mase_op = "linear", args = [#mav.value<name = "data_in_0", type = "fixed", precision = [8, 4]>, #mav.value<name = "weight", shape = [8, 4], torch_dtype = "torch.float32", type = "fixed", precision = [8, 4]>, #mav.value<name = "bias", shape = [8], torch_dtype = "torch.float32", type = "fixed", precision = [8, 4]>], results = [#mav.value<name = "data_out_0", type = "fixed", precision = [8, 4]>]>
// CHECK-NEXT: %relu = {{.*}}results = [#mav.value<name = "data_out_0", type = "fixed", precision = [8, 4]>]
// Only tensor entries: the add's alpha keeps its type.
// CHECK-NEXT: %add = {{.*}}#mav.value<name = "data_in_1", type = "fixed", precision = [8, 4]>, #mav.value<name = "alpha", type = "int", value = 1 : i64>], results = [#mav.value<name = "data_out_0", type = "fixed", precision = [8, 4]>]
// CHECK-NEXT: %sigmoid = {{.*}}args = [#mav.value<name = "data_in_0">]>
// CHECK-NOT: fixed
// CHECK-SAME: : (tensor<2x8xf32>) -> tensor<2x8xf32>
// Weights keep their float values.
// CHECK-LABEL: mav.graph private @fc.forward
// CHECK-NEXT: %fc_weight = mav.get_attr @fc.weight : tensor<8x4xf32>

// OPTIONS: #mav.pass_output<"mav-quantize", {formats = {"<16,10>" = 3 : i64}, quantized = 3 : i64, unquantized_nodes = ["sigmoid"]}>
// OPTIONS: inputs = [#mav.value<name = "x", shape = [2, 4], type = "fixed", precision = [16, 10]>]

// by_name beats by_type (fc is a linear), by_type beats the file's default
// (relu), the default beats the options (add); the input takes its
// placeholder's entry.
// CONFIG: #mav.pass_output<"mav-quantize", {formats = {"<12,6>" = 1 : i64, "<16,10>" = 1 : i64, "<4,2>" = 1 : i64}, quantized = 3 : i64, unquantized_nodes = ["sigmoid"]}>
// CONFIG-LABEL: mav.graph @forward
// CONFIG-SAME: inputs = [#mav.value<name = "x", shape = [2, 4], type = "fixed", precision = [10, 5]>]
// CONFIG-SAME: outputs = [#mav.value<name = "data_out_0", {{.*}}precision = [4, 2]
// CONFIG-NEXT: %fc = {{.*}}results = [#mav.value<name = "data_out_0", type = "fixed", precision = [16, 10]>]
// CONFIG-NEXT: %relu = {{.*}}results = [#mav.value<name = "data_out_0", type = "fixed", precision = [12, 6]>]
// CONFIG-NEXT: %add = {{.*}}results = [#mav.value<name = "data_out_0", type = "fixed", precision = [4, 2]>]

mav.weight @fc.weight parameter = dense<1.0> : tensor<8x4xf32>
mav.weight @fc.bias parameter = dense<0.0> : tensor<8xf32>

mav.graph @forward(%x: tensor<2x4xf32>) -> (!mav.tensor, !mav.tensor) {
  %fc = mav.call_module "fc" (%x) {body = @fc.forward, module_class = "torch.nn.modules.linear.Linear"} : (tensor<2x4xf32>) -> !mav.tensor
  %relu = mav.call_function "aten::relu" (%fc) : (!mav.tensor) -> !mav.tensor
  %add = mav.call_function "aten::add.Tensor" (%relu, %relu, alpha = 1) : (!mav.tensor, !mav.tensor) -> !mav.tensor
  %sigmoid = mav.call_function "aten::sigmoid" (%add) : (!mav.tensor) -> !mav.tensor
  mav.output (%add, %sigmoid) : !mav.tensor, !mav.tensor
}
mav.graph private @fc.forward(%input: !mav.tensor) -> !mav.tensor {
  %fc_weight = mav.get_attr @fc.weight : tensor<8x4xf32>
  %fc_bias = mav.get_attr @fc.bias : tensor<8xf32>
  %linear = mav.call_function "aten::linear" (%input, %fc_weight, %fc_bias) : (!mav.tensor, tensor<8x4xf32>, tensor<8xf32>) -> !mav.tensor
  mav.output %linear : !mav.tensor
}

// -----

// An operator with a component that does not fit it (an add with alpha 2)
// stays float and is listed, even when by_name names it; the input still
// gets its format.
// CHECK: #mav.pass_output<"mav-quantize", {formats = {}, quantized = 0 : i64, unquantized_nodes = ["fc"]}>
// CHECK-LABEL: mav.graph @unfit
// CHECK-SAME: inputs = [#mav.value<name = "x", shape = [2, 4], type = "fixed", precision = [8, 4]>]
// CHECK-NOT: type = "fixed"
// CHECK: mav.output
// CONFIG: #mav.pass_output<"mav-quantize", {formats = {}, quantized = 0 : i64, unquantized_nodes = ["fc"]}>
// CONFIG-LABEL: mav.graph @unfit
// CONFIG-SAME: inputs = [#mav.value<name = "x", shape = [2, 4], type = "fixed", precision = [10, 5]>]
mav.graph @unfit(%x: tensor<2x4xf32>) -> !mav.tensor {
  %fc = mav.call_function "aten::add.Tensor" (%x, %x, alpha = 2) : (tensor<2x4xf32>, tensor<2x4xf32>) -> !mav.tensor
  mav.output %fc : !mav.tensor
}
