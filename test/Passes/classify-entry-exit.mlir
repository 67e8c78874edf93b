// RUN: mav-opt %s -split-input-file -mav-classify-entry-exit | FileCheck %s

// -mav-classify-entry-exit on small graphs: entry and exit types in software
// metadata, and the counts as pass outputs. Real models, checked node by node
// against PyTorch's traced graph: learnable-models.test.

// Every entry type by its sources: an input (normal), a trainable parameter
// (learnable), a buffer and a frozen parameter (buffer), a trace constant and
// a literal-only node (special). A node no output depends on exits special.
// CHECK: #mav.pass_output<"mav-classify-entry-exit", {entry = {buffer = 2 : i64, learnable = 1 : i64, normal = 3 : i64, special = 2 : i64}, exit = {normal = 6 : i64, special = 2 : i64}}>
// CHECK-LABEL: mav.graph @sources
// CHECK-NEXT: %w = mav.get_attr @w {software = #mav.software<{entry = "learnable", exit = "normal"}>}
// CHECK-NEXT: %linear = mav.call_function "aten::linear" (%x, %w, None) {software = #mav.software<{entry = "normal", exit = "normal"}>}
// CHECK-NEXT: %mask = mav.get_attr @mask {software = #mav.software<{entry = "buffer", exit = "normal"}>}
// CHECK-NEXT: %frozen = mav.get_attr @frozen {software = #mav.software<{entry = "buffer", exit = "special"}>}
// CHECK-NEXT: %c = mav.get_attr @c {software = #mav.software<{entry = "special", exit = "normal"}>}
// CHECK-NEXT: %arange = mav.call_function "aten::arange" (4, None, None, None, None) {software = #mav.software<{entry = "special", exit = "special"}>}
// CHECK-NEXT: %mul = mav.call_function "aten::mul.Tensor" (%linear, %mask) {software = #mav.software<{entry = "normal", exit = "normal"}>}
// CHECK-NEXT: %add = mav.call_function "aten::add.Tensor" (%mul, %c, alpha = 1) {software = #mav.software<{entry = "normal", exit = "normal"}>}
// CHECK-NEXT: mav.output %add
mav.weight @w parameter = dense<1.0> : tensor<4x4xf32>
mav.weight @mask buffer = dense<1.0> : tensor<4xf32>
mav.weight @frozen parameter = dense<1.0> : tensor<4xf32> {frozen}
mav.weight @c constant = dense<1.0> : tensor<4xf32>

mav.graph @sources(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %w = mav.get_attr @w : tensor<4x4xf32>
  %linear = mav.call_function "aten::linear" (%x, %w, None) : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %mask = mav.get_attr @mask : tensor<4xf32>
  %frozen = mav.get_attr @frozen : tensor<4xf32>
  %c = mav.get_attr @c : tensor<4xf32>
  %arange = mav.call_function "aten::arange" (4, None, None, None, None) : () -> tensor<4xsi64>
  %mul = mav.call_function "aten::mul.Tensor" (%linear, %mask) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %add = mav.call_function "aten::add.Tensor" (%mul, %c, alpha = 1) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  mav.output %add : tensor<2x4xf32>
}

// -----

// Learn-split: the first learnable node whose value fans out. A parameter
// read twice is itself the split; below a split, a fan-out is not a split
// again; a buffer joining a learnable path keeps it learnable.
// CHECK: #mav.pass_output<"mav-classify-entry-exit", {entry = {buffer = 1 : i64, "learn-split" = 1 : i64, learnable = 3 : i64, normal = 3 : i64}, exit = {normal = 8 : i64}}>
// CHECK-LABEL: mav.graph @split
// CHECK-NEXT: %p = mav.get_attr @p {software = #mav.software<{entry = "learn-split", exit = "normal"}>}
// CHECK-NEXT: %b = mav.get_attr @b {software = #mav.software<{entry = "buffer", exit = "normal"}>}
// CHECK-NEXT: %exp = mav.call_function "aten::exp" (%p) {software = #mav.software<{entry = "learnable", exit = "normal"}>}
// CHECK-NEXT: %scaled = mav.call_function "aten::mul.Tensor" (%exp, %b) {software = #mav.software<{entry = "learnable", exit = "normal"}>}
// CHECK-NEXT: %neg = mav.call_function "aten::neg" (%p) {software = #mav.software<{entry = "learnable", exit = "normal"}>}
// CHECK-NEXT: %mul = mav.call_function "aten::mul.Tensor" (%x, %scaled) {software = #mav.software<{entry = "normal", exit = "normal"}>}
// CHECK-NEXT: %mul_1 = mav.call_function "aten::mul.Tensor" (%mul, %scaled) {software = #mav.software<{entry = "normal", exit = "normal"}>}
// CHECK-NEXT: %add = mav.call_function "aten::add.Tensor" (%mul_1, %neg, alpha = 1) {software = #mav.software<{entry = "normal", exit = "normal"}>}
mav.weight @p parameter = dense<0.0> : tensor<4xf32>
mav.weight @b buffer = dense<2.0> : tensor<4xf32>

mav.graph @split(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %p = mav.get_attr @p : tensor<4xf32>
  %b = mav.get_attr @b : tensor<4xf32>
  %exp = mav.call_function "aten::exp" (%p) : (tensor<4xf32>) -> tensor<4xf32>
  %scaled = mav.call_function "aten::mul.Tensor" (%exp, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %neg = mav.call_function "aten::neg" (%p) : (tensor<4xf32>) -> tensor<4xf32>
  %mul = mav.call_function "aten::mul.Tensor" (%x, %scaled) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %mul_1 = mav.call_function "aten::mul.Tensor" (%mul, %scaled) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %add = mav.call_function "aten::add.Tensor" (%mul_1, %neg, alpha = 1) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  mav.output %add : tensor<2x4xf32>
}

// -----

// Only public graphs are classified: a module body keeps no metadata, and
// its nodes are not counted. A call_module computes on its input.
// CHECK: #mav.pass_output<"mav-classify-entry-exit", {entry = {normal = 1 : i64}, exit = {normal = 1 : i64}}>
// CHECK-LABEL: mav.graph @forward
// CHECK-NEXT: %relu = mav.call_module "relu" (%x) {body = @relu.forward, module_class = "torch.nn.modules.activation.ReLU", software = #mav.software<{entry = "normal", exit = "normal"}>}
// CHECK-LABEL: mav.graph private @relu.forward
// CHECK-NEXT: %relu = mav.call_function "aten::relu" (%input) : (!mav.tensor) -> !mav.tensor
mav.graph @forward(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %relu = mav.call_module "relu" (%x) {module_class = "torch.nn.modules.activation.ReLU", body = @relu.forward} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  mav.output %relu : tensor<2x4xf32>
}
mav.graph private @relu.forward(%input: !mav.tensor) -> !mav.tensor {
  %relu = mav.call_function "aten::relu" (%input) : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}
