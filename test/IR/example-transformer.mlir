// RUN: mav-opt %s > %t.txt
// RUN: mav-opt %t.txt --emit-bytecode -o %t.mlirbc
// RUN: mav-opt %t.mlirbc > %t.back.txt
// RUN: diff %t.txt %t.back.txt
// RUN: FileCheck %s < %t.txt
// RUN: mav-opt %s --mav-elide-weights | FileCheck %s --check-prefix=ELIDED

// A transformer block written by hand: a private body graph for a custom leaf
// module, a multi-result node, list and tuple values, keyword arguments,
// metadata on every kind of node, and weights used outside leaf modules.

mav.weight @"ln.weight" parameter = dense_resource<ln_weight> : tensor<4xf32>
mav.weight @"ln.bias" parameter = dense_resource<ln_bias> : tensor<4xf32>
mav.weight @"attn.in_proj_weight" parameter = dense_resource<in_proj_weight> : tensor<12x4xf32>
mav.weight @"attn.in_proj_bias" parameter = dense_resource<in_proj_bias> : tensor<12xf32>
mav.weight @pos_embedding parameter = dense_resource<pos_embedding> : tensor<1x3x4xf32>

// CHECK-LABEL: mav.graph private @torch.nn.modules.activation.GELU.forward(%self_input: !mav.tensor) -> !mav.tensor
// CHECK-NEXT: %gelu = mav.call_function "aten::gelu" (%self_input, approximate = "none")
mav.graph private @"torch.nn.modules.activation.GELU.forward"(%self_input: !mav.tensor) -> !mav.tensor {
  %gelu = mav.call_function "aten::gelu" (%self_input, approximate = "none") : (!mav.tensor) -> !mav.tensor
  mav.output %gelu : !mav.tensor
}

// CHECK-LABEL: mav.graph @forward(%x: tensor<1x3x4xf32>) -> (tensor<1x3x4xf32>, tensor<1x3x3xf32>)
mav.graph @forward(%x: tensor<1x3x4xf32>) -> (tensor<1x3x4xf32>, tensor<1x3x3xf32>) attributes {model = "block"} {
  // CHECK: %pos_embedding = mav.get_attr @pos_embedding
  %pos_embedding = mav.get_attr @pos_embedding {scope = #mav.scope<"", "__main__.Block">,
      common = #mav.common<mase_type = "get_attr", mase_op = "get_attr",
        results = [#mav.value<name = "data_out_0", shape = [1, 3, 4], torch_dtype = "torch.float32", type = "float", precision = [32]>]>,
      software = #mav.software<{entry = "learnable"}>} : tensor<1x3x4xf32>
  %input = mav.call_function "aten::add" (%x, %pos_embedding, 1) {scope = #mav.scope<"", "__main__.Block">} : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  // CHECK: %ln = mav.call_module "ln" (%input) {config = {elementwise_affine = true, eps = 1.000000e-05 : f64, normalized_shape = [4]}
  %ln = mav.call_module "ln" (%input) {module_class = "torch.nn.modules.normalization.LayerNorm",
      config = {normalized_shape = [4], eps = 1.0e-5, elementwise_affine = true},
      scope = #mav.scope<"ln", "torch.nn.modules.normalization.LayerNorm">,
      hardware = #mav.hardware<is_implicit = false, toolchain = "INTERNAL_RTL", module = "fixed_layer_norm">}
      : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %attn_in_proj_weight = mav.get_attr @"attn.in_proj_weight" {scope = #mav.scope<"attn", "torch.nn.modules.activation.MultiheadAttention">} : tensor<12x4xf32>
  %attn_in_proj_bias = mav.get_attr @"attn.in_proj_bias" {scope = #mav.scope<"attn", "torch.nn.modules.activation.MultiheadAttention">} : tensor<12xf32>
  %linear = mav.call_function "aten::linear" (%ln, %attn_in_proj_weight, %attn_in_proj_bias) {scope = #mav.scope<"attn", "torch.nn.modules.activation.MultiheadAttention">} : (tensor<1x3x4xf32>, tensor<12x4xf32>, tensor<12xf32>) -> tensor<1x3x12xf32>
  // CHECK: %chunk = mav.call_method "chunk" (%linear, 3, -1) {{.*}} -> !mav.list<tensor<1x3x4xf32>>
  %chunk = mav.call_method "chunk" (%linear, 3, -1) {scope = #mav.scope<"attn", "torch.nn.modules.activation.MultiheadAttention">} : (tensor<1x3x12xf32>) -> !mav.list<tensor<1x3x4xf32>>
  // CHECK: %unpack:3 = mav.call_function "prim::ListUnpack" (%chunk)
  %unpack:3 = mav.call_function "prim::ListUnpack" (%chunk) : (!mav.list<tensor<1x3x4xf32>>) -> (tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>)
  // CHECK: %transpose = mav.call_method "transpose" (%unpack#1, -2, -1)
  %transpose = mav.call_method "transpose" (%unpack#1, -2, -1) : (tensor<1x3x4xf32>) -> tensor<1x4x3xf32>
  %matmul = mav.call_function "aten::matmul" (%unpack#0, %transpose) : (tensor<1x3x4xf32>, tensor<1x4x3xf32>) -> tensor<1x3x3xf32>
  %mul = mav.call_function "aten::mul" (%matmul, 5.000000e-01) : (tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
  // CHECK: %softmax = mav.call_function "aten::softmax" (%mul, -1, dtype = None)
  %softmax = mav.call_function "aten::softmax" (%mul, -1, dtype = None) {common = #mav.common<mase_type = "module_related_func", mase_op = "softmax">} : (tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
  %dropout = mav.call_function "aten::dropout" (%softmax, 1.000000e-01, false) {common = #mav.common<mase_type = "module_related_func", mase_op = "dropout">} : (tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
  %bmm = mav.call_function "aten::matmul" (%dropout, %unpack#2) : (tensor<1x3x3xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %shape = mav.call_method "size" (%bmm) : (tensor<1x3x4xf32>) -> !mav.list<!mav.int>
  %pair = mav.call_function "aten::max" (%bmm, -1, false) : (tensor<1x3x4xf32>) -> !mav.tuple<tensor<1x3xf32>, tensor<1x3xsi64>>
  // CHECK: %act = mav.call_module "act" (%bmm) {body = @torch.nn.modules.activation.GELU.forward
  %act = mav.call_module "act" (%bmm) {module_class = "torch.nn.modules.activation.GELU",
      body = @"torch.nn.modules.activation.GELU.forward", config = {approximate = "none"},
      scope = #mav.scope<"act", "torch.nn.modules.activation.GELU">} : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %residual = mav.call_function "aten::add" (%act, %input, alpha = 1) : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  // CHECK: mav.output (%residual, %softmax)
  mav.output (%residual, %softmax) : tensor<1x3x4xf32>, tensor<1x3x3xf32>
}

// A second graph in the same module, sharing the weights.
// CHECK-LABEL: mav.graph @embed(%x: !mav.tensor) -> !mav.tensor
mav.graph @embed(%x: !mav.tensor) -> !mav.tensor {
  %pos_embedding = mav.get_attr @pos_embedding : tensor<1x3x4xf32>
  %add = mav.call_function "aten::add" (%x, %pos_embedding, 1) : (!mav.tensor, tensor<1x3x4xf32>) -> !mav.tensor
  mav.output %add : !mav.tensor
}

// ELIDED: mav.weight @attn.in_proj_weight parameter = dense_resource<__elided__> : tensor<12x4xf32>
// ELIDED-NOT: dialect_resources
// CHECK: dialect_resources
// CHECK: in_proj_weight: "0x04000000

{-#
  dialect_resources: {
    builtin: {
      ln_weight: "0x040000000000803F0000803F0000803F0000803F",
      ln_bias: "0x0400000000000000000000000000000000000000",
      in_proj_weight: "0x04000000170D853FD85FB73ECA8558BB1BD108BF9097953F44FCC93ED481F83F9E9F4A3FB458093D3CC8353F4A84C4BFAE4AD3BEA75F773FE5F8CF3F6332BBBE5EB6A6BF37B869BE43568F3E0602963D38818E3F5585903ED352DE3E2D704DBFA9C8A5BFCC03483F12426DBFCC5E533EAEB9AABE9B8FDBBE22826E3ECC004C3F20473DBEEFE46BBF812C66BD0D9733BF27B2843F208A1ABF94AEA3BFB15CBE3D83852ABF35626C3FE492B13F3E01B03F95DD283F4BFFF33E5D1682BF1FB2383E19DDDD3D",
      in_proj_bias: "0x04000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
      pos_embedding: "0x04000000ED0FDB3ECB80A23EFA17BCBE99FC243F6B2ED2BF5A529A3EC3F379BF8560D0BC2AB61BBE8556DBBCAD64253FFB471C3F"
    }
  }
#-}
