// The dummy-input and device options, and their errors.
// RUN: mav-opt %s --pass-pipeline='builtin.module(mav-add-common-metadata{dummy-input=3x5xf32})' | FileCheck %s
// RUN: not mav-opt %s --pass-pipeline='builtin.module(mav-add-common-metadata{dummy-input=3x5xf32,1xf32})' 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not mav-opt %s --pass-pipeline='builtin.module(mav-add-common-metadata{dummy-input=3xfoo})' 2>&1 | FileCheck %s --check-prefix=SPEC
// RUN: not mav-opt %s --pass-pipeline='builtin.module(mav-add-common-metadata{device=gpu})' 2>&1 | FileCheck %s --check-prefix=DEVICE

// CHECK-LABEL: mav.graph @forward(%x: tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK: %relu = mav.call_function "aten::relu" (%x) {{.*}} : (tensor<3x5xf32>) -> tensor<3x5xf32>
// COUNT: error: dummy-input gives 2 inputs, graph 'forward' takes 1
// SPEC: error: dummy-input '3xfoo' is not a type such as 1x3x224x224xf32
// DEVICE: error: mav-add-common-metadata: device must be 'meta' or 'cpu', got 'gpu'
mav.graph @forward(%x: !mav.tensor) -> !mav.tensor {
  %relu = mav.call_function "aten::relu" (%x) : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}
