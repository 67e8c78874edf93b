// RUN: mav-opt %s -split-input-file -mav-add-common-metadata -verify-diagnostics
// RUN: not mav-opt %s -split-input-file -mav-add-common-metadata=allow-unknown=true 2>&1 | FileCheck %s --check-prefix=ALLOW

// An operator the registry does not know.
mav.graph @unknown_operator(%x: tensor<2xf32>) -> !mav.tensor {
  // expected-error @+1 {{node 'frob': unknown operator 'aten::frobnicate': add it to the op registry (lib/Operators/OpTable.cpp)}}
  %frob = mav.call_function "aten::frobnicate" (%x) : (tensor<2xf32>) -> !mav.tensor
  mav.output %frob : !mav.tensor
}
// ALLOW: warning: node 'frob': unknown operator 'aten::frobnicate'
// ALLOW: error: node 'frob' (aten::frobnicate): no TorchScript operator named aten::frobnicate

// -----

// A module class the registry does not know.
mav.graph @unknown_module(%x: tensor<2xf32>) -> !mav.tensor {
  // expected-error @+1 {{node 'block': unknown operator 'my.models.Block': add it to the op registry (lib/Operators/OpTable.cpp)}}
  %block = mav.call_module "block" (%x) {module_class = "my.models.Block"} : (tensor<2xf32>) -> !mav.tensor
  mav.output %block : !mav.tensor
}
// ALLOW: warning: node 'block': unknown operator 'my.models.Block'
// ALLOW: error: node 'block' calls module 'block' but has no body graph to run

// -----

// Shapes that do not fit: the failing node and the last that succeeded.
mav.weight @w parameter = dense<1.0> : tensor<4x7xf32>
mav.graph @shape_error(%x: tensor<2x8xf32>) -> !mav.tensor {
  %w = mav.get_attr @w : tensor<4x7xf32>
  // mav's rule refuses the shapes, and libtorch says why.
  // expected-remark @+3 {{node 'linear': the native shape rule of aten::linear does not model these arguments; shapes from libtorch's meta device}}
  // expected-error @+2 {{node 'linear' (aten::linear) failed: mat1 and mat2 shapes cannot be multiplied (2x8 and 7x4)}}
  // expected-note @+1 {{the last node that succeeded is 'w'}}
  %linear = mav.call_function "aten::linear" (%x, %w, None) : (tensor<2x8xf32>, tensor<4x7xf32>) -> !mav.tensor
  mav.output %linear : !mav.tensor
}

// -----

// No dummy input: the placeholder has no shape.
// expected-error @+1 {{placeholder 'x' has no static shape: import with --input-shape or give dummy-input}}
mav.graph @missing_dummy_input(%x: !mav.tensor) -> !mav.tensor {
  %relu = mav.call_function "aten::relu" (%x) : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

// A target without a namespace: libtorch throws on the name; mav reports it.
mav.graph @no_namespace(%x: tensor<2xf32>) -> !mav.tensor {
  // expected-error @+1 {{node 'frob': unknown operator 'frobnicate': add it to the op registry (lib/Operators/OpTable.cpp)}}
  %frob = mav.call_function "frobnicate" (%x) : (tensor<2xf32>) -> !mav.tensor
  mav.output %frob : !mav.tensor
}
// ALLOW: warning: node 'frob': unknown operator 'frobnicate'
// ALLOW: error: node 'frob' (frobnicate): no TorchScript operator named frobnicate
