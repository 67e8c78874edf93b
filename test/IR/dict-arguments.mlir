// RUN: mav-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: mav-opt %s -split-input-file -verify-diagnostics --emit-bytecode -o %t.mlirbc
// RUN: mav-opt %s -split-input-file -verify-diagnostics | mav-opt -split-input-file | FileCheck %s

// Python dicts as node arguments and outputs keep their insertion order;
// keys are strings or ints.

// CHECK-LABEL: mav.graph @segmentation
// CHECK: %pack = mav.call_function "aten::stack" ([%x, %x], dim = 0)
// CHECK: mav.output {"out": %x, "aux": %pack, 3: [%x, None]} : tensor<2xf32>, tensor<2x2xf32>, tensor<2xf32>
mav.graph @segmentation(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2x2xf32>, tensor<2xf32>) {
  %pack = mav.call_function "aten::stack" ([%x, %x], dim = 0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  mav.output {"out": %x, "aux": %pack, 3: [%x, None]} : tensor<2xf32>, tensor<2x2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: mav.graph @empty
// CHECK: mav.output {}
mav.graph @empty() -> () {
  mav.output {}
}

// -----

mav.graph @float_key(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{expected integer value}}
  mav.output {1.5: %x} : !mav.tensor
}

// -----

mav.graph @bad_dict(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{dict has 2 keys but 1 values}}
  "mav.output"(%x) {value = #mav.dict<["a", "b"], [#mav.operand<0>]>} : (!mav.tensor) -> ()
}
