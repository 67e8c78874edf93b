//===- ShapeFunctions.h - Result shapes without arithmetic ----------------===//
//
// Private to lib/Runtime. libtorch 1.13's C++ build lacks meta kernels for
// many operators (relu, batch_norm, _convolution, ...). TorchScript ships a
// shape function, a small graph over int lists, for most of them; running it
// gives the result shapes without touching data.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_RUNTIME_SHAPEFUNCTIONS_H
#define MAV_LIB_RUNTIME_SHAPEFUNCTIONS_H

#include <ATen/core/stack.h>
#include <torch/csrc/jit/runtime/operator.h>

#include <optional>

namespace mav::runtime {

/// Meta tensors of the shapes mav's shape rule (OpRegistry.h) gives for `op`
/// on `stack`, when the registry has one for it and it applies.
std::optional<std::vector<c10::IValue>>
runShapeRule(const torch::jit::Operator &op, const torch::jit::Stack &stack);

/// Meta tensors of the shapes `op` returns for `stack`, when TorchScript has
/// a shape function for it and every result is a tensor. Results take the
/// dtype of the first tensor argument.
std::optional<std::vector<c10::IValue>>
runShapeFunction(const torch::jit::Operator &op,
                 const torch::jit::Stack &stack);

} // namespace mav::runtime

#endif // MAV_LIB_RUNTIME_SHAPEFUNCTIONS_H
