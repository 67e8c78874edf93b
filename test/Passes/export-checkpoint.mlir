// RUN: rm -f %t.ckpt
// RUN: mav-opt %s -mav-export-checkpoint=path=%t.ckpt | FileCheck %s
// RUN: mav-opt %t.ckpt | FileCheck %s --check-prefix=LOAD
// RUN: mav-opt %s --pass-pipeline='builtin.module(mav-export-checkpoint{path=%t.pipeline.ckpt})' -o /dev/null
// RUN: mav-opt %t.pipeline.ckpt | FileCheck %s --check-prefix=LOAD

// -mav-export-checkpoint on a small module: the pass outputs, recorded before
// writing, and a checkpoint that loads back with every weight bit for bit,
// its graph, its metadata and its own pass output. Real models and the
// format itself: test/Checkpoint.

// CHECK: #mav.pass_output<"mav-export-checkpoint", {path = "{{.*}}.ckpt", weights = 3 : i64}>
// CHECK-LABEL: mav.graph @forward

// LOAD: #mav.pass_output<"mav-export-checkpoint", {path = "{{.*}}.ckpt", weights = 3 : i64}>
// LOAD: mav.weight @fc.weight parameter = dense<{{\[}}[1.500000e+00, -2.000000e+00], [3.125000e-02, 1.000000e+00]]> : tensor<2x2xf32>
// LOAD-NEXT: mav.weight @fc.bias parameter = dense<[2.500000e-01, -7.500000e-01]> : tensor<2xf32>
// LOAD-NEXT: mav.weight @steps buffer = dense<7> : tensor<si64>
// LOAD-LABEL: mav.graph @forward(%x: tensor<1x2xf32>) -> tensor<1x2xf32>
// LOAD-NEXT: %fc_weight = mav.get_attr @fc.weight
// LOAD-NEXT: %fc_bias = mav.get_attr @fc.bias
// LOAD-NEXT: %fc = mav.call_function "aten::linear" (%x, %fc_weight, %fc_bias) {software = #mav.software<{note = "kept"}>}
// LOAD-NEXT: mav.output %fc

mav.weight @fc.weight parameter = dense<[[1.5, -2.0], [0.03125, 1.0]]> : tensor<2x2xf32>
mav.weight @fc.bias parameter = dense<[0.25, -0.75]> : tensor<2xf32>
mav.weight @steps buffer = dense<7> : tensor<si64>

mav.graph @forward(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %fc_weight = mav.get_attr @fc.weight : tensor<2x2xf32>
  %fc_bias = mav.get_attr @fc.bias : tensor<2xf32>
  %fc = mav.call_function "aten::linear" (%x, %fc_weight, %fc_bias) {software = #mav.software<{note = "kept"}>} : (tensor<1x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  mav.output %fc : tensor<1x2xf32>
}
