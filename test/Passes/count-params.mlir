// RUN: mav-opt %s -split-input-file -mav-count-params | FileCheck %s
// RUN: mav-opt %s -split-input-file -mav-count-params=top=2 | FileCheck %s --check-prefix=TOP2

// -mav-count-params on small graphs: which node each trainable parameter is
// counted at, and the pass outputs. Real models, whose totals are checked
// against PyTorch: learnable-models.test.

// A call_module owns its module's parameters, its submodules' included: the
// Linear(4, 8) "fc" has 8*4 + 8 = 40, "block" owns block.fc (Linear(8, 2):
// 16 + 2 = 18) but not its buffer; its second call counts nothing again.
// "fc2" only shares a prefix with "fc": no call owns it, so it is unused,
// and still in the total (40 + 18 + 9 = 67).
// CHECK: #mav.pass_output<"mav-count-params", {top = [{node = "fc", params = 40 : i64}, {node = "block", params = 18 : i64}], total = 67 : i64, unused = ["fc2.weight"]}>
// CHECK-LABEL: mav.graph @modules
// CHECK-NEXT: %fc = mav.call_module "fc" {{.*}}software = #mav.software<{params = 40 : i64}>
// CHECK-NEXT: %block = mav.call_module "block" {{.*}}software = #mav.software<{params = 18 : i64}>
// CHECK-NEXT: %block_1 = mav.call_module "block"
// CHECK-NOT: software
// CHECK: mav.output
// TOP2: total = 67 : i64
mav.weight @fc.weight parameter = dense<1.0> : tensor<8x4xf32>
mav.weight @fc.bias parameter = dense<1.0> : tensor<8xf32>
mav.weight @block.fc.weight parameter = dense<1.0> : tensor<2x8xf32>
mav.weight @block.fc.bias parameter = dense<1.0> : tensor<2xf32>
mav.weight @block.mask buffer = dense<1.0> : tensor<2xf32>
mav.weight @fc2.weight parameter = dense<1.0> : tensor<3x3xf32>

mav.graph @modules(%x: tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %fc = mav.call_module "fc" (%x) {module_class = "torch.nn.modules.linear.Linear"} : (tensor<2x4xf32>) -> tensor<2x8xf32>
  %block = mav.call_module "block" (%fc) {module_class = "my.Block"} : (tensor<2x8xf32>) -> tensor<2x2xf32>
  %block_1 = mav.call_module "block" (%fc) {module_class = "my.Block"} : (tensor<2x8xf32>) -> tensor<2x2xf32>
  mav.output (%block, %block_1) : tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// A parameter read by get_attr goes down its learnable-only path: log_scale
// (4) through exp to the mul that joins the input; pos (2*4 = 8) to the add.
// "tied" is pos under another name and counts nothing; a frozen parameter
// and a buffer are not trainable. g (4) fans out: counted where it does, at
// its get_attr; o (3) goes straight to the output: counted at its get_attr.
// Total 4 + 8 + 4 + 3 = 19; ties in top keep graph order.
// CHECK: #mav.pass_output<"mav-count-params", {top = [{node = "add", params = 8 : i64}, {node = "mul", params = 4 : i64}, {node = "g", params = 4 : i64}, {node = "o", params = 3 : i64}], total = 19 : i64, unused = []}>
// TOP2: #mav.pass_output<"mav-count-params", {top = [{node = "add", params = 8 : i64}, {node = "mul", params = 4 : i64}], total = 19 : i64, unused = []}>
// CHECK-LABEL: mav.graph @paths
// CHECK-NEXT: %log_scale = mav.get_attr @log_scale : tensor<4xf32>
// CHECK-NEXT: %exp = mav.call_function "aten::exp" (%log_scale) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %mul = {{.*}}software = #mav.software<{params = 4 : i64}>
// CHECK-NEXT: %pos = mav.get_attr @pos : tensor<2x4xf32>
// CHECK-NEXT: %add = {{.*}}software = #mav.software<{params = 8 : i64}>
// CHECK-NEXT: %tied = mav.get_attr @tied : tensor<2x4xf32>
// CHECK-NEXT: %add_1 = mav.call_function "aten::add.Tensor" (%add, %tied, alpha = 1) : (
// CHECK-NEXT: %frozen = mav.get_attr @frozen : tensor<4xf32>
// CHECK-NEXT: %buf = mav.get_attr @buf : tensor<4xf32>
// CHECK-NEXT: %mul_1 = mav.call_function "aten::mul.Tensor" (%add_1, %frozen) : (
// CHECK-NEXT: %mul_2 = mav.call_function "aten::mul.Tensor" (%mul_1, %buf) : (
// CHECK-NEXT: %g = mav.get_attr @g {software = #mav.software<{params = 4 : i64}>}
// CHECK-NEXT: %sub = mav.call_function "aten::sub.Tensor" (%mul_2, %g, alpha = 1) : (
// CHECK-NEXT: %add_2 = mav.call_function "aten::add.Tensor" (%sub, %g, alpha = 1) : (
// CHECK-NEXT: %o = mav.get_attr @o {software = #mav.software<{params = 3 : i64}>}
mav.weight @log_scale parameter = dense<0.0> : tensor<4xf32>
mav.weight @pos parameter = dense<1.0> : tensor<2x4xf32>
mav.weight @tied parameter = dense<1.0> : tensor<2x4xf32> {tied_to = @pos}
mav.weight @frozen parameter = dense<1.0> : tensor<4xf32> {frozen}
mav.weight @buf buffer = dense<1.0> : tensor<4xf32>
mav.weight @g parameter = dense<1.0> : tensor<4xf32>
mav.weight @o parameter = dense<1.0> : tensor<3xf32>

mav.graph @paths(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<3xf32>) {
  %log_scale = mav.get_attr @log_scale : tensor<4xf32>
  %exp = mav.call_function "aten::exp" (%log_scale) : (tensor<4xf32>) -> tensor<4xf32>
  %mul = mav.call_function "aten::mul.Tensor" (%x, %exp) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %pos = mav.get_attr @pos : tensor<2x4xf32>
  %add = mav.call_function "aten::add.Tensor" (%mul, %pos, alpha = 1) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %tied = mav.get_attr @tied : tensor<2x4xf32>
  %add_1 = mav.call_function "aten::add.Tensor" (%add, %tied, alpha = 1) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %frozen = mav.get_attr @frozen : tensor<4xf32>
  %buf = mav.get_attr @buf : tensor<4xf32>
  %mul_1 = mav.call_function "aten::mul.Tensor" (%add_1, %frozen) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %mul_2 = mav.call_function "aten::mul.Tensor" (%mul_1, %buf) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %g = mav.get_attr @g : tensor<4xf32>
  %sub = mav.call_function "aten::sub.Tensor" (%mul_2, %g, alpha = 1) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %add_2 = mav.call_function "aten::add.Tensor" (%sub, %g, alpha = 1) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %o = mav.get_attr @o : tensor<3xf32>
  mav.output (%add_2, %o) : tensor<2x4xf32>, tensor<3xf32>
}

// -----

// No trainable parameter: the outputs are empty, no node gets metadata.
// CHECK: #mav.pass_output<"mav-count-params", {top = [], total = 0 : i64, unused = []}>
// CHECK-LABEL: mav.graph @none
// CHECK-NOT: software
mav.graph @none(%x: tensor<2xf32>) -> tensor<2xf32> {
  %relu = mav.call_function "aten::relu" (%x) : (tensor<2xf32>) -> tensor<2xf32>
  mav.output %relu : tensor<2xf32>
}
