// RUN: mav-opt %s -mav-add-common-metadata | FileCheck %s
// RUN: mav-opt %s -mav-add-common-metadata=device=cpu | FileCheck %s
// RUN: mav-opt %s --pass-pipeline='builtin.module(mav-add-common-metadata{device=cpu add-value=true})' | FileCheck %s --check-prefix=VALUE
// RUN: mav-opt %s -mav-raise | FileCheck %s --check-prefix=RAISE
// RUN: mav-opt %s -mav-raise | mav-translate --export-json | FileCheck %s --check-prefix=JSON

// Operator inference from the registry (module class, aten target, Tensor
// method), never from node names, and shape propagation through the
// interpreter: metadata on every node, types refined. The metadata leaves
// out what the types say (shape, dtype, format, contiguous strides: IR.md);
// the JSON export, like getCommonMeta(), gives it whole.

mav.weight @"fc.weight" parameter = dense<5.000000e-01> : tensor<4x8xf32>
mav.weight @"fc.bias" parameter = dense<1.000000e+00> : tensor<4xf32>

// CHECK-LABEL: mav.graph @forward(%x: tensor<2x8xf32>) -> tensor<2x4xf32>
// CHECK-SAME: inputs = [#mav.value<name = "x", shape = [2, 8]>], outputs = [#mav.value<name = "data_out_0", shape = [2, 4], torch_dtype = "torch.float32", type = "float", precision = [32], stride = [4, 1]>]
mav.graph @forward(%x: tensor<2x8xf32>) -> !mav.tensor {
  // CHECK: %fc_weight = mav.get_attr @fc.weight {common = #mav.common<mase_type = "get_attr", mase_op = "constant", args = []>} : tensor<4x8xf32>
  %fc_weight = mav.get_attr @"fc.weight" : tensor<4x8xf32>
  %fc_bias = mav.get_attr @"fc.bias" : tensor<4xf32>
  // A node whose name says "dropout" is not a dropout.
  // CHECK: %dropout = mav.call_function "aten::linear" (%x, %fc_weight, %fc_bias) {common = #mav.common<mase_type = "module_related_func", mase_op = "linear", args = [#mav.value<name = "data_in_0">, #mav.value<name = "weight">, #mav.value<name = "bias">]>} : (tensor<2x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %dropout = mav.call_function "aten::linear" (%x, %fc_weight, %fc_bias) : (tensor<2x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> !mav.tensor
  // CHECK: %relu = mav.call_method "relu" (%dropout) {common = #mav.common<mase_type = "module_related_func", mase_op = "relu"{{.*}}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %relu = mav.call_method "relu" (%dropout) : (!mav.tensor) -> !mav.tensor
  // Non-tensor values are recorded with their value.
  // CHECK: %size = mav.call_method "size" (%relu, 0) {common = #mav.common<mase_type = "implicit_func", mase_op = "size", args = [#mav.value<name = "data_in_0">, #mav.value<name = "dim", type = "int", value = 0 : i64>], results = [#mav.value<name = "data_out_0", type = "int", value = 2 : i64>]>} : (tensor<2x4xf32>) -> !mav.int
  %size = mav.call_method "size" (%relu, 0) : (!mav.tensor) -> !mav.int
  // CHECK: %view = mav.call_method "view" (%relu, [%size, -1]) {{.*}} : (tensor<2x4xf32>, !mav.int) -> tensor<2x4xf32>
  %view = mav.call_method "view" (%relu, [%size, -1]) : (!mav.tensor, !mav.int) -> !mav.tensor
  // CHECK: mav.output %view : tensor<2x4xf32>
  mav.output %view : !mav.tensor
}

// RAISE: %dropout = mav.call_function "aten::linear" (%x, %fc_weight, %fc_bias) {common = #mav.common<mase_type = "module_related_func", mase_op = "linear"{{.*}}>]>} : (tensor<2x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// VALUE: %relu = mav.call_method "relu" {{.*}}results = [#mav.value<name = "data_out_0", value = dense<{{.*}}> : tensor<2x4xf32>>]

// JSON-LABEL: "name": "dropout",
// JSON: "common": {
// JSON: "args": {
// JSON-NEXT: "data_in_0": {
// JSON-NEXT: "shape": [
// JSON-NEXT: 2,
// JSON-NEXT: 8
// JSON-NEXT: ],
// JSON-NEXT: "torch_dtype": "torch.float32",
// JSON-NEXT: "type": "float",
// JSON-NEXT: "precision": [
// JSON-NEXT: 32
// JSON-NEXT: ],
// JSON-NEXT: "stride": [
// JSON-NEXT: 8,
// JSON-NEXT: 1
// JSON-NEXT: ]
// JSON: "results": {
// JSON-NEXT: "data_out_0": {
// JSON-NEXT: "shape": [
// JSON-NEXT: 2,
// JSON-NEXT: 4
// JSON-NEXT: ],
// JSON-NEXT: "torch_dtype": "torch.float32",
