// RUN: mav-opt %s -split-input-file -mav-analyse-scale -verify-diagnostics -o /dev/null

// Option errors are on the module, before anything runs.
// RUN: not mav-opt %s -split-input-file -mav-analyse-scale=distribution=cauchy 2>&1 | FileCheck %s --check-prefix=DIST
// DIST: error: mav-analyse-scale: distribution must be normal or uniform, got 'cauchy'
// RUN: not mav-opt %s -split-input-file -mav-analyse-scale=threshold=1 2>&1 | FileCheck %s --check-prefix=THRESHOLD
// THRESHOLD: error: mav-analyse-scale: threshold must be above 1
// A listing that cannot be written names the file.
// RUN: rm -rf %t.nodir
// RUN: not mav-opt %S/analyse-scale.mlir -mav-analyse-scale=listing=%t.nodir/listing.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=LISTING
// LISTING: error: mav-analyse-scale: cannot write {{.*}}nodir/listing.txt: {{.+}}

// The graph it runs is the public graph @forward.
// expected-error @+1 {{mav-analyse-scale: no mav.graph @forward}}
module {
  mav.graph @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    mav.output %x : tensor<2xf32>
  }
}

// -----

// Random inputs need a static shape and a dtype.
// expected-error @+1 {{placeholder 'x' has type '!mav.tensor': random inputs need a static shape and a torch dtype (import with --input-shape)}}
mav.graph @forward(%x: !mav.tensor) -> !mav.tensor {
  %relu = mav.call_function "aten::relu" (%x) : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

// Backward (the default) needs an output that takes gradients.
// expected-error @+1 {{no output of @forward depends on a parameter or input that takes gradients: nothing to run backward}}
mav.graph @forward(%x: tensor<2xf32>) -> tensor<4xsi64> {
  %arange = mav.call_function "aten::arange" (4, None, None, None, None) : () -> tensor<4xsi64>
  mav.output %arange : tensor<4xsi64>
}

// -----

// A node that fails to run: the node, why, and the last that succeeded.
mav.weight @w parameter = dense<1.0> : tensor<4x7xf32>
mav.graph @forward(%x: tensor<2x8xf32>) -> tensor<2x4xf32> {
  %w = mav.get_attr @w : tensor<4x7xf32>
  // expected-error @+2 {{node 'linear' (aten::linear) failed: mat1 and mat2 shapes cannot be multiplied (2x8 and 7x4)}}
  // expected-note @+1 {{the last node that succeeded is 'w'}}
  %linear = mav.call_function "aten::linear" (%x, %w, None) : (tensor<2x8xf32>, tensor<4x7xf32>) -> tensor<2x4xf32>
  mav.output %linear : tensor<2x4xf32>
}
