//===- NodeCost.h - FLOPs and MACs of one node ------------------*- C++ -*-===//
//
// Applies the op registry's cost formula of a node's operator to the node's
// static shapes and constants. The shapes are those of the value types (a
// graph after -mav-raise); a call_module is read at the level of the aten
// call in its body, or, when its body is more than one call, by its module
// class with its `config`, else as the sum of its body's calls, typed for the
// call by the caller (mav/Summary/BodyTypes.h). Libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_OPERATORS_NODECOST_H
#define MAV_OPERATORS_NODECOST_H

#include "mav/IR/MavOps.h"
#include "mav/Operators/OpRegistry.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mav {

enum class CostStatus {
  /// The formula counted the node.
  Counted,
  /// The operator does no arithmetic (views, get_attr, dropout at inference).
  NoArithmetic,
  /// The operator computes, but mav cannot count it: no registry entry, no
  /// formula for it, or a shape or constant the formula needs is unknown.
  Unknown,
};

struct NodeCost {
  CostStatus status = CostStatus::Unknown;
  OpCost cost;
};

/// The static types of a module body's values (placeholders and results)
/// in one call of the module.
using BodyTypes = llvm::DenseMap<mlir::Value, mlir::Type>;

/// Types `body` for the call `module`, or returns null when it cannot. The
/// result must live as long as the caller of computeNodeCost needs it.
using BodyTyper =
    llvm::function_ref<const BodyTypes *(CallModuleOp module, GraphOp body)>;

/// The cost of `node`. A call_module that neither its aten call nor its
/// class's formula counts is, when `typeBody` types its body, the sum of
/// its body's nodes.
NodeCost computeNodeCost(NodeOpInterface node,
                         mlir::SymbolTableCollection &symbols,
                         BodyTyper typeBody = nullptr);

} // namespace mav

#endif // MAV_OPERATORS_NODECOST_H
