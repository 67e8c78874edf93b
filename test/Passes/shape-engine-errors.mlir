// shape-engine=native refuses what mav's rules do not cover, naming the
// node; the option takes auto, native or torch.
// RUN: mav-opt %s -split-input-file -mav-add-common-metadata=shape-engine=native -verify-diagnostics
// RUN: not mav-opt %s -mav-add-common-metadata=shape-engine=fast 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: mav-add-common-metadata: shape-engine must be 'auto', 'native' or 'torch', got 'fast'

// An operator with no rule: shape-engine=native names the node.
mav.graph @no_rule(%x: tensor<2x3xf32>) -> !mav.tensor {
  // expected-error @+1 {{node 'cumsum': no native shape rule for aten::cumsum with these arguments (shape-engine=native needs a rule for every node)}}
  %cumsum = mav.call_function "aten::cumsum" (%x, 1) : (tensor<2x3xf32>) -> !mav.tensor
  mav.output %cumsum : !mav.tensor
}

// -----

// Arguments the operator refuses: the rule declines them, and native says so.
mav.weight @w parameter = dense<1.0> : tensor<4x7xf32>
mav.graph @refused(%x: tensor<2x8xf32>) -> !mav.tensor {
  %w = mav.get_attr @w : tensor<4x7xf32>
  // expected-error @+1 {{node 'linear': the native shape rule of aten::linear does not model these arguments (shape-engine=native needs a rule for every node)}}
  %linear = mav.call_function "aten::linear" (%x, %w, None) : (tensor<2x8xf32>, tensor<4x7xf32>) -> !mav.tensor
  mav.output %linear : !mav.tensor
}
