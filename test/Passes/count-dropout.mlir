// RUN: mav-opt %s -mav-count-dropout | FileCheck %s
// RUN: mav-opt %s -mav-init-metadata -mav-add-common-metadata -mav-count-dropout | FileCheck %s

// Dropout is found by what a node computes, not by its name: the module
// dropout is named "classifier_0", the node named "dropout" is a linear, and
// the functional dropout inside the attention module's body counts too.

// CHECK: module attributes {mav.pass_outputs = [#mav.pass_output<"mav-count-dropout", {dropout_count = 3 : i64, functional = {"aten::dropout" = 1 : i64, "aten::feature_dropout" = 1 : i64}, functional_count = 2 : i64, module_count = 1 : i64, modules = {torch.nn.modules.dropout.Dropout = 1 : i64}, nodes = ["classifier_0", "attn/dropout", "feature_dropout"]}>]}

mav.weight @w parameter = dense<1.0> : tensor<4x4xf32>

mav.graph @forward(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %w = mav.get_attr @w : tensor<4x4xf32>
  %dropout = mav.call_function "aten::linear" (%x, %w, None) : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %classifier_0 = mav.call_module "classifier.0" (%dropout) {module_class = "torch.nn.modules.dropout.Dropout", body = @classifier.0.forward} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %attn = mav.call_module "attn" (%classifier_0) {module_class = "torch.nn.modules.activation.MultiheadAttention", body = @attn.forward} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %feature_dropout = mav.call_function "aten::feature_dropout" (%attn, 5.000000e-01, false) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  mav.output %feature_dropout : tensor<2x4xf32>
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
