//===- NativeShapes.h - Shape propagation without libtorch ------*- C++ -*-===//
//
// Shape propagation on the meta device needs only shapes, strides and
// dtypes, which the registry's shape rules compute (AtenSchemas.h). When
// every node of a graph has a rule, mav raises it without loading libtorch,
// and records exactly the metadata the meta device would give. libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_OPERATORS_NATIVESHAPES_H
#define MAV_OPERATORS_NATIVESHAPES_H

#include "mav/IR/MavOps.h"
#include "mav/Operators/NodeShapes.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace mav {

/// Why native propagation could not handle a graph.
struct NativeShapeGap {
  /// The first node without a rule (or whose rule declined its arguments).
  mlir::Operation *node = nullptr;
  std::string reason;
};

/// Propagates as propagateShapes does on the meta device, with mav's rules
/// only. On failure, `gap` says which node has no rule; nothing was reported
/// and `onNode` was not called.
mlir::LogicalResult propagateShapesNatively(
    GraphOp graph, llvm::ArrayRef<mlir::RankedTensorType> inputTypes,
    llvm::function_ref<void(mlir::Operation *, const NodeShapes &)> onNode,
    llvm::SmallVectorImpl<mlir::Attribute> &outputs, NativeShapeGap &gap);

} // namespace mav

#endif // MAV_OPERATORS_NATIVESHAPES_H
