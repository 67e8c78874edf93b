//===- OperatorInference.h - What a node computes ---------------*- C++ -*-===//

#ifndef MAV_OPERATORS_OPERATORINFERENCE_H
#define MAV_OPERATORS_OPERATORINFERENCE_H

#include "mav/IR/MavOps.h"
#include "mav/Operators/OpRegistry.h"

namespace mav {

/// The registry entry of what `node` computes, by its module class,
/// TorchScript operator or Tensor method; null when unknown or for get_attr.
const OpInfo *lookupNodeOperator(mlir::Operation *node);

/// The node's mase_op: from its common metadata when set, else from the
/// registry; empty when unknown.
llvm::StringRef getMaseOp(mlir::Operation *node);

/// The node's mase_type: from its common metadata when set, else from the
/// registry; std::nullopt when unknown.
std::optional<MaseType> getMaseType(mlir::Operation *node);

/// Calls `fn` on every node under `root` (a graph, or the module with all
/// its graphs, module bodies included) whose mase_op is `maseOp` / whose
/// mase_type is `maseType`, in walk order. `fn` may erase the node it is
/// given, as in Operation::walk.
void walkNodes(mlir::Operation *root, llvm::StringRef maseOp,
               llvm::function_ref<void(mlir::Operation *)> fn);
void walkNodes(mlir::Operation *root, MaseType maseType,
               llvm::function_ref<void(mlir::Operation *)> fn);

/// The target a diagnostic names: module class, operator or method.
llvm::StringRef getNodeTarget(mlir::Operation *node);

} // namespace mav

#endif // MAV_OPERATORS_OPERATORINFERENCE_H
