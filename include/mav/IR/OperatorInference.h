//===- OperatorInference.h - What a node computes ---------------*- C++ -*-===//

#ifndef MAV_IR_OPERATORINFERENCE_H
#define MAV_IR_OPERATORINFERENCE_H

#include "mav/IR/MavOps.h"
#include "mav/IR/OpRegistry.h"

namespace mav {

/// The registry entry of what `node` computes, by its module class,
/// TorchScript operator or Tensor method; null when unknown or for get_attr.
const OpInfo *lookupNodeOperator(mlir::Operation *node);

/// The node's mase_op: from its common metadata when set, else from the
/// registry; empty when unknown.
llvm::StringRef getMaseOp(mlir::Operation *node);

/// The target a diagnostic names: module class, operator or method.
llvm::StringRef getNodeTarget(mlir::Operation *node);

} // namespace mav

#endif // MAV_IR_OPERATORINFERENCE_H
