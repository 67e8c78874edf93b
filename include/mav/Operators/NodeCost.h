//===- NodeCost.h - FLOPs and MACs of one node ------------------*- C++ -*-===//
//
// Applies the op registry's cost formula of a node's operator to the node's
// static shapes and constants. The shapes are those of the value types (a
// graph after -mav-raise); a call_module is read at the level of the aten
// call in its body, or, when its body is more than one call, by its module
// class with its `config`. Libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_OPERATORS_NODECOST_H
#define MAV_OPERATORS_NODECOST_H

#include "mav/IR/MavOps.h"
#include "mav/Operators/OpRegistry.h"

#include "mlir/IR/SymbolTable.h"

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

NodeCost computeNodeCost(NodeOpInterface node,
                         mlir::SymbolTableCollection &symbols);

} // namespace mav

#endif // MAV_OPERATORS_NODECOST_H
