//===- ShapePropagation.h - Metadata from running a graph -------*- C++ -*-===//
//
// Runs a graph through the interpreter and describes every node's arguments
// and results as MASE metadata (`#mav.value`). libtorch-free: passes include
// this header; the runtime library does the work.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_RUNTIME_SHAPEPROPAGATION_H
#define MAV_RUNTIME_SHAPEPROPAGATION_H

#include "mav/IR/MavOps.h"
#include "mav/Operators/NodeShapes.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace mav {

/// Which engine computes shapes on the meta device.
enum class ShapeEngine {
  /// mav's shape rules when every node has one, else libtorch (a remark).
  Auto,
  /// mav's shape rules only: a node without one is an error.
  Native,
  /// libtorch's meta device.
  Torch,
};

struct ShapePropagationOptions {
  /// "meta": shapes, dtypes and strides only, no arithmetic. "cpu": values.
  bool onMeta = true;
  /// Record tensor values in `value` (cpu only; constants always are).
  bool addValue = false;
  /// Seed of the cpu inputs.
  uint64_t seed = 0;
  /// On meta, where the shapes come from.
  ShapeEngine engine = ShapeEngine::Auto;
  /// Set when mav's rules computed the shapes (libtorch was not used).
  bool *usedNativeRules = nullptr;
};

/// Runs `graph` on inputs of `inputTypes` and calls `onNode` for each of its
/// nodes in order; `outputs` receives the metadata of what the graph
/// returns. Failures are diagnostics at the failing node.
mlir::LogicalResult propagateShapes(
    GraphOp graph, llvm::ArrayRef<mlir::RankedTensorType> inputTypes,
    const ShapePropagationOptions &options,
    llvm::function_ref<void(mlir::Operation *, const NodeShapes &)> onNode,
    llvm::SmallVectorImpl<mlir::Attribute> &outputs);

} // namespace mav

#endif // MAV_RUNTIME_SHAPEPROPAGATION_H
