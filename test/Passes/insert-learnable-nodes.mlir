// RUN: mav-opt %s -mav-classify-entry-exit | FileCheck %s --check-prefix=CLASSIFY
// RUN: mav-opt %s -mav-count-params | FileCheck %s --check-prefix=PARAMS
// RUN: mav-opt %s -mav-insert-learnable-nodes | FileCheck %s --check-prefix=INSERT
// RUN: mav-opt %s -mav-insert-learnable-nodes -mav-insert-learnable-nodes -mav-classify-entry-exit | FileCheck %s --check-prefix=TWICE
// RUN: mav-opt %s -mav-insert-learnable-nodes | mav-opt -mav-count-params | FileCheck %s --check-prefix=INSERTED-PARAMS

// A scale parameter prepared once (exp) and used twice: the exp is where the
// learnable-only path fans out. A position embedding joins the input once.
// A buffer feeds a node on its own; arange depends on nothing.

mav.weight @log_scale parameter = dense<0.0> : tensor<4xf32>
mav.weight @pos parameter = dense<1.0> : tensor<2x4xf32>
mav.weight @frozen parameter = dense<1.0> : tensor<4xf32> {frozen}
mav.weight @mask buffer = dense<1.0> : tensor<4xf32>
mav.weight @"fc.weight" parameter = dense<1.0> : tensor<4x4xf32>
mav.weight @"fc.bias" parameter = dense<1.0> : tensor<4xf32>
mav.weight @"tied.weight" parameter = dense<1.0> : tensor<4x4xf32> {tied_to = @"fc.weight"}
mav.weight @unused parameter = dense<1.0> : tensor<3xf32>

// CLASSIFY: #mav.pass_output<"mav-classify-entry-exit", {entry = {buffer = 2 : i64, "learn-split" = 1 : i64, learnable = 3 : i64, normal = 6 : i64, special = 1 : i64}, exit = {normal = 11 : i64, special = 2 : i64}}>
// PARAMS: #mav.pass_output<"mav-count-params", {top = [{node = "fc", params = 20 : i64}, {node = "add", params = 8 : i64}, {node = "exp", params = 4 : i64}], total = 35 : i64, unused = ["unused"]}>
// After insertion the learnable node carries the parameters behind it.
// INSERTED-PARAMS: {node = "exp_learnable", params = 4 : i64}], total = 35 : i64
mav.graph @forward(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  // CLASSIFY: %log_scale = mav.get_attr @log_scale {software = #mav.software<{entry = "learnable", exit = "normal"}>}
  %log_scale = mav.get_attr @log_scale : tensor<4xf32>
  // CLASSIFY: %exp = mav.call_function "aten::exp" (%log_scale) {software = #mav.software<{entry = "learn-split", exit = "normal"}>}
  // INSERT: %exp = mav.call_function "aten::exp" (%log_scale)
  // INSERT-NEXT: %exp_learnable = mav.learnable %exp {param_count = 4 : i64, params = ["log_scale"]} : tensor<4xf32>
  %exp = mav.call_function "aten::exp" (%log_scale) : (tensor<4xf32>) -> tensor<4xf32>
  // INSERT: %mul = mav.call_function "aten::mul.Tensor" (%x, %exp_learnable)
  %mul = mav.call_function "aten::mul.Tensor" (%x, %exp) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  // CLASSIFY: %pos = mav.get_attr @pos {software = #mav.software<{entry = "learnable", exit = "normal"}>}
  %pos = mav.get_attr @pos : tensor<2x4xf32>
  // CLASSIFY: %add = mav.call_function "aten::add.Tensor" (%mul, %pos, alpha = 1) {software = #mav.software<{entry = "normal", exit = "normal"}>}
  %add = mav.call_function "aten::add.Tensor" (%mul, %pos, alpha = 1) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  // INSERT: %mul_1 = mav.call_function "aten::mul.Tensor" (%add, %exp_learnable)
  %mul_1 = mav.call_function "aten::mul.Tensor" (%add, %exp) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  // CLASSIFY: %frozen = mav.get_attr @frozen {software = #mav.software<{entry = "buffer", exit = "normal"}>}
  %frozen = mav.get_attr @frozen : tensor<4xf32>
  // CLASSIFY: %mask = mav.get_attr @mask {software = #mav.software<{entry = "buffer", exit = "special"}>}
  %mask = mav.get_attr @mask : tensor<4xf32>
  %fc = mav.call_module "fc" (%mul_1) {module_class = "torch.nn.modules.linear.Linear"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  // CLASSIFY: %arange = mav.call_function "aten::arange" (4, None, None, None, None) {software = #mav.software<{entry = "special", exit = "special"}>}
  %arange = mav.call_function "aten::arange" (4, None, None, None, None) : () -> tensor<4xsi64>
  %mul_2 = mav.call_function "aten::mul.Tensor" (%fc, %frozen) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %tied = mav.get_attr @"tied.weight" : tensor<4x4xf32>
  // CLASSIFY: %linear = mav.call_function "aten::linear" (%mul_2, %tied, None) {software = #mav.software<{entry = "normal", exit = "normal"}>}
  %linear = mav.call_function "aten::linear" (%mul_2, %tied, None) : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  mav.output (%mul_2, %linear) : tensor<2x4xf32>, tensor<2x4xf32>
}

// TWICE: #mav.pass_output<"mav-insert-learnable-nodes", {inserted = 1 : i64, nodes = ["exp_learnable"]}>, #mav.pass_output<"mav-insert-learnable-nodes", {inserted = 0 : i64, nodes = []}>
// TWICE: %exp = mav.call_function "aten::exp" (%log_scale) {software = #mav.software<{entry = "learnable", exit = "normal"}>}
// TWICE-NEXT: %exp_learnable = mav.learnable %exp {param_count = 4 : i64, params = ["log_scale"], software = #mav.software<{entry = "learnable", exit = "normal"}>}
