// RUN: mav-opt %s -mav-analyse-scale=listing=%t.listing | FileCheck %s
// RUN: FileCheck %s --check-prefix=LISTING < %t.listing
// RUN: mav-opt %s -mav-analyse-scale=backward=false | FileCheck %s --check-prefix=FORWARD
// RUN: mav-opt %s -mav-analyse-scale=seed=1 | FileCheck %s --check-prefix=SEED1

// -mav-analyse-scale on a small graph whose values follow from its shape,
// whatever the random draw: x - x is zero, so sub and mul have std, mean and
// abs max 0 and zero fraction 1, and p (all ones) gets a zero gradient; the
// gradient flows unchanged through add, mul (times p = 1) and sub, so the
// three bwd_std are one value. A std of 0 is below 1/threshold: flagged.
// Values on a real model, against PyTorch: analyses.test, analyses-models.test.

// CHECK: #mav.pass_output<"mav-analyse-scale", {bwd_std = {add = [[G:[-0-9.e+]+]] : f64, mul = [[G]] : f64, sub = [[G]] : f64}, flagged = ["sub", "mul"], fwd_abs_max = {add = {{[-0-9.e+]+}} : f64, mul = 0.000000e+00 : f64, sub = 0.000000e+00 : f64}, fwd_mean = {add = {{[-0-9.e+]+}} : f64, mul = 0.000000e+00 : f64, sub = 0.000000e+00 : f64}, fwd_std = {add = [[XSTD:[-0-9.e+]+]] : f64, mul = 0.000000e+00 : f64, sub = 0.000000e+00 : f64}, fwd_zero_fraction = {add = 0.000000e+00 : f64, mul = 1.000000e+00 : f64, sub = 1.000000e+00 : f64}, grad_std = {p = 0.000000e+00 : f64}}>
// CHECK-LABEL: mav.graph @forward
// CHECK-NEXT: %sub = {{.*}}software = #mav.software<{bwd_std = [[G]] : f64, fwd_abs_max = 0.000000e+00 : f64, fwd_mean = 0.000000e+00 : f64, fwd_std = 0.000000e+00 : f64, fwd_zero_fraction = 1.000000e+00 : f64}>
// Parameters are reported by their gradient, at the node that reads them.
// CHECK-NEXT: %p = mav.get_attr @p : tensor<4xf32>
// CHECK-NEXT: %mul = {{.*}}grad_std = {p = 0.000000e+00 : f64}}>
// CHECK-NEXT: %add = {{.*}}software = #mav.software<{bwd_std = [[G]] : f64, {{.*}}fwd_std = [[XSTD]] : f64

// The listing: one line per node, the stds to three digits, << on flagged
// nodes.
// LISTING: # (top)
// LISTING-NEXT: {{^}} %sub = {{.*}}(%arg, %arg){{ +}}(-> 0, <- {{[0-9.e+-]+}})  <<
// LISTING-NEXT: {{^}} %mul = {{.*}}(%sub, %p){{ +}}(-> 0, <- {{[0-9.e+-]+}})  <<
// LISTING-NEXT: {{^}} %add = {{.*}}(%mul, %arg){{ +}}(-> {{[0-9.e+-]+}}, <- {{[0-9.e+-]+}}){{$}}
// LISTING-NOT: {{.}}

// Without backward: no bwd_std, no grad_std.
// FORWARD: #mav.pass_output<"mav-analyse-scale", {flagged = ["sub", "mul"], fwd_abs_max =
// FORWARD-NOT: bwd_std
// FORWARD-NOT: grad_std

// Another seed draws another x: only what depends on it changes.
// SEED1: fwd_std = {add = {{[-0-9.e+]+}} : f64, mul = 0.000000e+00 : f64, sub = 0.000000e+00 : f64}
// SEED1-SAME: grad_std = {p = 0.000000e+00 : f64}

mav.weight @p parameter = dense<1.0> : tensor<4xf32>

mav.graph @forward(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %sub = mav.call_function "aten::sub.Tensor" (%x, %x, alpha = 1) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %p = mav.get_attr @p : tensor<4xf32>
  %mul = mav.call_function "aten::mul.Tensor" (%sub, %p) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %add = mav.call_function "aten::add.Tensor" (%mul, %x, alpha = 1) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  mav.output %add : tensor<3x4xf32>
}
