// RUN: mav-opt %s -split-input-file -mav-export-checkpoint -verify-diagnostics
// RUN: rm -rf %t.nodir
// RUN: not mav-opt %s -split-input-file -mav-export-checkpoint=path=%t.nodir/model.ckpt 2>&1 | FileCheck %s --check-prefix=NODIR

// Without a path, the pass says how to give one.
// expected-error @+1 {{mav-export-checkpoint needs a path, e.g. -mav-export-checkpoint=path=model.ckpt}}
module {
  mav.graph @forward(%x: tensor<2xf32>) -> tensor<2xf32> {
    mav.output %x : tensor<2xf32>
  }
}

// A destination that cannot be written is an error naming it, and leaves
// nothing behind.
// NODIR: error: cannot write checkpoint '{{.*}}nodir/model.ckpt': cannot create a temporary file beside it
// RUN: not ls %t.nodir
