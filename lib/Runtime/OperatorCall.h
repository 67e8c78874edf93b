//===- OperatorCall.h - Boxed calls of TorchScript operators --------------===//
//
// Private to lib/Runtime: resolves a node's target to a TorchScript operator
// (by overload when the target names one, else by the first schema the
// arguments fit, as Python does), binds the argument tree to its schema, and
// calls it on a stack.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_RUNTIME_OPERATORCALL_H
#define MAV_LIB_RUNTIME_OPERATORCALL_H

#include "mlir/IR/BuiltinAttributes.h"

#include <ATen/core/stack.h>
#include <torch/csrc/jit/runtime/operator.h>

namespace mav::runtime {

/// Converts one argument value. `expected`, the schema type when known,
/// types lists; run time values come from `operands`. On the meta device,
/// device arguments become meta.
c10::IValue convertArgument(mlir::Attribute value, const c10::TypePtr &expected,
                            llvm::ArrayRef<c10::IValue> operands,
                            c10::Device device);

/// A node's call, bound: the operator and its argument stack.
struct BoundCall {
  std::shared_ptr<torch::jit::Operator> op;
  torch::jit::Stack stack;
  /// The node's own arguments (positional, then keywords), and their schema
  /// names, for observers.
  std::vector<c10::IValue> arguments;
  std::vector<std::string> argumentNames;
};

/// Resolves and binds a call of `target` (`aten::add.Tensor`, or a Tensor
/// method name for call_method). `resolved` caches the operator across calls
/// of the same node. Returns an explanation on failure.
llvm::Expected<BoundCall>
bindCall(llvm::StringRef target, bool isMethod, mlir::ArrayAttr args,
         mlir::DictionaryAttr kwargs, llvm::ArrayRef<c10::IValue> operands,
         c10::Device device, std::shared_ptr<torch::jit::Operator> &resolved);

} // namespace mav::runtime

#endif // MAV_LIB_RUNTIME_OPERATORCALL_H
