//===- DynamicDims.h - Dynamic dimensions from two shape runs ---*- C++ -*-===//
//
// A graph with data-dependent shapes is propagated twice on meta, with two
// fills of the nodes that have no meta kernel. A dimension that differs
// between the two runs depends on values: it becomes dynamic, `?` in types
// and -1 in `#mav.value` shapes and strides.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_RUNTIME_DYNAMICDIMS_H
#define MAV_LIB_RUNTIME_DYNAMICDIMS_H

#include "mav/Runtime/ShapePropagation.h"

namespace mav {

/// `first` with the dimensions that differ in `second` made dynamic, and a
/// recorded value (a size read off a dynamic dimension) dropped.
mlir::Type mergeDynamicDims(mlir::Type first, mlir::Type second);
mlir::Attribute mergeDynamicDims(mlir::Attribute first, mlir::Attribute second);

/// Merges every argument, result and result type of `second` into `first`.
void mergeDynamicDims(NodeShapes &first, const NodeShapes &second);

} // namespace mav

#endif // MAV_LIB_RUNTIME_DYNAMICDIMS_H
