// RUN: mav-opt %s -mav-init-metadata | FileCheck %s
// RUN: mav-opt %s -mav-init-metadata -mav-init-metadata | FileCheck %s

// Every node of a public graph gets empty metadata, replacing what it had;
// the graph gets inputs/outputs metadata; private bodies are left alone.

mav.weight @"fc.weight" parameter = dense<1.0> : tensor<4x8xf32>

// CHECK-LABEL: mav.graph @forward(%x: !mav.tensor) -> !mav.tensor attributes {inputs = [#mav.value<name = "x">], outputs = [#mav.value<name = "data_out_0">]}
mav.graph @forward(%x: !mav.tensor) -> !mav.tensor {
  // CHECK: %fc_weight = mav.get_attr @fc.weight {common = #mav.common<>, hardware = #mav.hardware<>, software = #mav.software<{}>}
  %fc_weight = mav.get_attr @"fc.weight" : tensor<4x8xf32>
  // CHECK: %linear = mav.call_function "aten::linear" (%x, %fc_weight, None) {common = #mav.common<>, hardware = #mav.hardware<>, software = #mav.software<{}>}
  %linear = mav.call_function "aten::linear" (%x, %fc_weight, None) {common = #mav.common<mase_op = "stale">} : (!mav.tensor, tensor<4x8xf32>) -> !mav.tensor
  // CHECK: %relu = mav.call_module "relu" (%linear) {body = @relu.forward, common = #mav.common<>
  %relu = mav.call_module "relu" (%linear) {module_class = "torch.nn.modules.activation.ReLU", body = @relu.forward} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// CHECK-LABEL: mav.graph private @relu.forward
// CHECK-NEXT: %relu = mav.call_function "aten::relu" (%input) : (!mav.tensor) -> !mav.tensor
mav.graph private @relu.forward(%input: !mav.tensor) -> !mav.tensor {
  %relu = mav.call_function "aten::relu" (%input) : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}
