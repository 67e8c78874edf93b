//===- TensorStrides.h - A tensor type's default strides --------*- C++ -*-===//
//
// Metadata records a tensor's strides only where they differ from the
// row-major (contiguous) ones its type implies; the dialect and the shape
// rules (mav/Operators) both need those.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_TENSORSTRIDES_H
#define MAV_IR_TENSORSTRIDES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mav::layout {

/// Row-major strides of `sizes`, as c10 computes them (a size of 0 counts
/// as 1).
llvm::SmallVector<int64_t> contiguousStrides(llvm::ArrayRef<int64_t> sizes);

} // namespace mav::layout

#endif // MAV_IR_TENSORSTRIDES_H
