// RUN: mav-opt %s -split-input-file -verify-diagnostics

// Common metadata that disagrees with the IR is rejected: a transform that
// changes a node's types must recompute or drop its metadata (-mav-raise
// recomputes it). What -mav-raise writes always agrees (every model test
// verifies it).

mav.graph @forward(%x: tensor<1x8xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{node 'fc' (mav.call_function): common metadata is stale: result 'data_out_0' has shape [1, 8], its value 'tensor<1x4xf32>' (run -mav-raise again)}}
  %fc = mav.call_function "aten::relu" (%x) {common = #mav.common<mase_type = "module_related_func", mase_op = "relu", args = [#mav.value<name = "data_in_0", shape = [1, 8], torch_dtype = "torch.float32">], results = [#mav.value<name = "data_out_0", shape = [1, 8], torch_dtype = "torch.float32">]>} : (tensor<1x8xf32>) -> tensor<1x4xf32>
  mav.output %fc : tensor<1x4xf32>
}

// -----

mav.graph @forward(%x: tensor<1x8xf32>) -> tensor<1x8xf64> {
  // expected-error @+1 {{node 'to' (mav.call_method): common metadata is stale: result 'data_out_0' has torch_dtype torch.float32, its value 'tensor<1x8xf64>'}}
  %to = mav.call_method "double" (%x) {common = #mav.common<results = [#mav.value<name = "data_out_0", shape = [1, 8], torch_dtype = "torch.float32">]>} : (tensor<1x8xf32>) -> tensor<1x8xf64>
  mav.output %to : tensor<1x8xf64>
}

// -----

// An argument: the operand's type changed under the metadata.
mav.graph @forward(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{node 'relu' (mav.call_function): common metadata is stale: argument 'data_in_0' has shape [1, 8], its value 'tensor<2x8xf32>'}}
  %relu = mav.call_function "aten::relu" (%x) {common = #mav.common<args = [#mav.value<name = "data_in_0", shape = [1, 8], torch_dtype = "torch.float32">]>} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  mav.output %relu : tensor<2x8xf32>
}

// -----

// Arguments are matched by position: embedding's weight comes first.
mav.weight @embed.weight parameter = dense<0.0> : tensor<50x16xf32>
mav.graph @forward(%tokens: tensor<2x7xsi64>) -> tensor<2x7x16xf32> {
  %w = mav.get_attr @embed.weight : tensor<50x16xf32>
  %embedding = mav.call_function "aten::embedding" (%w, %tokens, -1, false, false) {common = #mav.common<args = [#mav.value<name = "weight", shape = [50, 16], torch_dtype = "torch.float32">, #mav.value<name = "data_in_0", shape = [2, 7], torch_dtype = "torch.int64">, #mav.value<name = "padding_idx", type = "int">, #mav.value<name = "scale_grad_by_freq", type = "bool">, #mav.value<name = "sparse", type = "bool">], results = [#mav.value<name = "data_out_0", shape = [2, 7, 16], torch_dtype = "torch.float32">]>} : (tensor<50x16xf32>, tensor<2x7xsi64>) -> tensor<2x7x16xf32>
  mav.output %embedding : tensor<2x7x16xf32>
}

// -----

mav.graph @forward(%x: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{node 'chunk' (mav.call_method): common metadata is stale: it describes 1 results, the node has 2 (run -mav-raise again)}}
  %chunk:2 = mav.call_method "chunk" (%x, 2) {common = #mav.common<results = [#mav.value<name = "data_out_0", shape = [2]>]>} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  mav.output %chunk#0 : tensor<2xf32>
}

// -----

// A dynamic extent in the type accepts any recorded extent.
mav.graph @forward(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %relu = mav.call_function "aten::relu" (%x) {common = #mav.common<results = [#mav.value<name = "data_out_0", shape = [3, 8], torch_dtype = "torch.float32">]>} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  mav.output %relu : tensor<?x8xf32>
}
