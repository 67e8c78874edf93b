// RUN: mav-opt %s -split-input-file -mav-inline-modules=classes=Scale -verify-diagnostics | FileCheck %s

// A call's value arguments map to the values, its constants go into the
// cloned nodes' arguments; names are claimed afresh, scopes kept; the body
// goes when no call is left.
// CHECK: #mav.pass_output<"mav-inline-modules", {inlined = 2 : i64, inserted = 2 : i64, nodes = ["scale", "scale_1"]}>
// CHECK-LABEL: mav.graph @forward
// CHECK-NEXT: %mul = mav.call_function "aten::mul.Scalar" (%x, 2) {scope = #mav.scope<"scale", "my.Scale">}
// CHECK-NEXT: %mul_2 = mav.call_function "aten::mul.Scalar" (%mul, 3) {scope = #mav.scope<"scale", "my.Scale">}
// CHECK-NEXT: %mul_1 = mav.call_function "aten::mul.Scalar" (%mul_2, 5)
// CHECK-NEXT: mav.output %mul_1
// CHECK-NOT: @scale.forward
mav.graph @forward(%x: tensor<2xf32>) -> !mav.tensor {
  %scale = mav.call_module "scale" (%x, 2) {body = @scale.forward, module_class = "my.Scale"} : (tensor<2xf32>) -> !mav.tensor
  %scale_1 = mav.call_module "scale" (%scale, 3) {body = @scale.forward, module_class = "my.Scale"} : (!mav.tensor) -> !mav.tensor
  %mul_1 = mav.call_function "aten::mul.Scalar" (%scale_1, 5) : (!mav.tensor) -> !mav.tensor
  mav.output %mul_1 : !mav.tensor
}
mav.graph private @scale.forward(%input: !mav.tensor, %factor: !mav.int) -> !mav.tensor {
  %mul = mav.call_function "aten::mul.Scalar" (%input, %factor) {scope = #mav.scope<"scale", "my.Scale">} : (!mav.tensor, !mav.int) -> !mav.tensor
  mav.output %mul : !mav.tensor
}

// -----

mav.graph @keywords(%x: tensor<2xf32>) -> !mav.tensor {
  // expected-error @+1 {{node 'scale' (my.Scale) cannot be inlined: it passes 1 positional and 1 keyword arguments to a body of 2 arguments}}
  %scale = mav.call_module "scale" (%x, factor = 2) {body = @scale.forward, module_class = "my.Scale"} : (tensor<2xf32>) -> !mav.tensor
  mav.output %scale : !mav.tensor
}
mav.graph private @scale.forward(%input: !mav.tensor, %factor: !mav.int) -> !mav.tensor {
  %mul = mav.call_function "aten::mul.Scalar" (%input, %factor) : (!mav.tensor, !mav.int) -> !mav.tensor
  mav.output %mul : !mav.tensor
}

// -----

mav.graph @constant_returned(%x: tensor<2xf32>) -> !mav.int {
  // expected-error @+1 {{node 'scale' (my.Scale) cannot be inlined: its body returns an argument passed as a constant}}
  %scale = mav.call_module "scale" (%x, 2) {body = @scale.forward, module_class = "my.Scale"} : (tensor<2xf32>) -> !mav.int
  mav.output %scale : !mav.int
}
mav.graph private @scale.forward(%input: !mav.tensor, %factor: !mav.int) -> !mav.int {
  mav.output %factor : !mav.int
}
