// RUN: mav-opt %s -mav-init-metadata | FileCheck %s
// RUN: mav-opt %s -mav-init-metadata -mav-init-metadata | FileCheck %s

// Every node of a public graph is left with empty metadata, replacing what
// it had. An empty section is not stored: the node has no common, hardware
// or software attribute. The graph gets inputs/outputs metadata; private
// bodies are left alone.

mav.weight @"fc.weight" parameter = dense<1.0> : tensor<4x8xf32>

// CHECK-LABEL: mav.graph @forward(%x: !mav.tensor) -> !mav.tensor attributes {inputs = [#mav.value<name = "x">], outputs = [#mav.value<name = "data_out_0">]}
mav.graph @forward(%x: !mav.tensor) -> !mav.tensor {
  // CHECK: %fc_weight = mav.get_attr @fc.weight : tensor<4x8xf32>
  %fc_weight = mav.get_attr @"fc.weight" {hardware = #mav.hardware<toolchain = "INTERNAL_RTL">, software = #mav.software<{params = 32}>} : tensor<4x8xf32>
  // CHECK: %linear = mav.call_function "aten::linear" (%x, %fc_weight, None) : (!mav.tensor, tensor<4x8xf32>) -> !mav.tensor
  %linear = mav.call_function "aten::linear" (%x, %fc_weight, None) {common = #mav.common<mase_op = "stale">} : (!mav.tensor, tensor<4x8xf32>) -> !mav.tensor
  // CHECK: %relu = mav.call_module "relu" (%linear) {body = @relu.forward, module_class = "torch.nn.modules.activation.ReLU"} : (!mav.tensor) -> !mav.tensor
  %relu = mav.call_module "relu" (%linear) {module_class = "torch.nn.modules.activation.ReLU", body = @relu.forward} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// CHECK-LABEL: mav.graph private @relu.forward
// CHECK-NEXT: %relu = mav.call_function "aten::relu" (%input) : (!mav.tensor) -> !mav.tensor
mav.graph private @relu.forward(%input: !mav.tensor) -> !mav.tensor {
  %relu = mav.call_function "aten::relu" (%input) : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}
