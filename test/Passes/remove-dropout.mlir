// RUN: mav-opt %s -mav-remove-dropout -mav-count-dropout | FileCheck %s
// RUN: mav-opt %s -mav-remove-dropout -mav-remove-dropout | FileCheck %s --check-prefix=TWICE

// Every use of a dropout becomes a use of its input, for module and
// functional forms and inside other modules' bodies; the dropout module's
// body, now unused, is erased; nothing else changes.

// CHECK: #mav.pass_output<"mav-remove-dropout", {nodes = ["classifier_0", "feature_dropout", "attn.forward/dropout"], removed = 3 : i64}>, #mav.pass_output<"mav-count-dropout", {dropout_count = 0 : i64
// CHECK-LABEL: mav.graph @forward(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK-NEXT: %w = mav.get_attr @w
// CHECK-NEXT: %dropout = mav.call_function "aten::linear" (%x, %w, None)
// CHECK-NEXT: %attn = mav.call_module "attn" (%dropout)
// CHECK-NEXT: mav.output (%attn, %dropout) : tensor<2x4xf32>, tensor<2x4xf32>
// CHECK-NOT: classifier.0.forward
// CHECK-LABEL: mav.graph private @attn.forward(%input: !mav.tensor) -> !mav.tensor
// CHECK-NEXT: %softmax = mav.call_function "aten::softmax.int" (%input, -1, None)
// CHECK-NEXT: mav.output %softmax : !mav.tensor

// A second run finds nothing and changes nothing.
// TWICE: #mav.pass_output<"mav-remove-dropout", {nodes = [{{.+}}], removed = 3 : i64}>, #mav.pass_output<"mav-remove-dropout", {nodes = [], removed = 0 : i64}>

mav.weight @w parameter = dense<1.0> : tensor<4x4xf32>

mav.graph @forward(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %w = mav.get_attr @w : tensor<4x4xf32>
  %dropout = mav.call_function "aten::linear" (%x, %w, None) : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %classifier_0 = mav.call_module "classifier.0" (%dropout) {module_class = "torch.nn.modules.dropout.Dropout", body = @classifier.0.forward} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %attn = mav.call_module "attn" (%classifier_0) {module_class = "torch.nn.modules.activation.MultiheadAttention", body = @attn.forward} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %feature_dropout = mav.call_function "aten::feature_dropout" (%classifier_0, 5.000000e-01, false) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  mav.output (%attn, %feature_dropout) : tensor<2x4xf32>, tensor<2x4xf32>
}

mav.graph private @classifier.0.forward(%input: !mav.tensor) -> !mav.tensor {
  %dropout = mav.call_function "aten::dropout" (%input, 5.000000e-01, false) : (!mav.tensor) -> !mav.tensor
  mav.output %dropout : !mav.tensor
}

mav.graph private @attn.forward(%input: !mav.tensor) -> !mav.tensor {
  %softmax = mav.call_function "aten::softmax.int" (%input, -1, None) : (!mav.tensor) -> !mav.tensor
  %dropout = mav.call_function "aten::dropout" (%softmax, 1.000000e-01, false) : (!mav.tensor) -> !mav.tensor
  mav.output %dropout : !mav.tensor
}
