//===- ShapeRules.h - The shape rules the op table names --------*- C++ -*-===//
//
// Internal to lib/IR: declarations for OpTable.cpp. Each rule computes the
// result shapes of one aten operator from its arguments (OpRegistry.h,
// ShapeRule); a differential unit test checks it against libtorch.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_IR_SHAPERULES_H
#define MAV_LIB_IR_SHAPERULES_H

#include "mav/IR/OpRegistry.h"

namespace mav::shape_rules {

/// aten::_native_multi_head_attention, MultiheadAttention's fast path:
/// (out [B, L, E], weights [B, L, S] averaged over heads, [B, H, L, S] per
/// head, or undefined when need_weights is false).
std::optional<llvm::SmallVector<ResultShape>>
nativeMultiHeadAttention(const CallArguments &call);

} // namespace mav::shape_rules

#endif // MAV_LIB_IR_SHAPERULES_H
