//===- ShapeRules.h - The shape rules the op table names --------*- C++ -*-===//
//
// Internal to lib/Operators: declarations for OpTable.cpp, and the helpers the
// rules share. Each rule computes the results of one aten operator from its
// arguments (OpRegistry.h, ShapeRule) as libtorch's meta kernel does, strides
// and dtype included, and refuses (std::nullopt) what libtorch refuses or
// what it does not model exactly; a differential unit test checks it against
// libtorch (test/unit/runtime/ShapeRulesTest.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_OPERATORS_SHAPERULES_H
#define MAV_LIB_OPERATORS_SHAPERULES_H

#include "mav/Operators/OpRegistry.h"

namespace mav::shape_rules {

using Results = std::optional<llvm::SmallVector<ResultShape>>;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// One integer argument, or std::nullopt.
std::optional<int64_t> getInt(const CallArguments &call, unsigned position,
                              llvm::StringRef keyword);
/// A flag argument (read as 0 or 1), or `fallback` when absent.
std::optional<bool> getFlag(const CallArguments &call, unsigned position,
                            llvm::StringRef keyword, bool fallback);
/// `dim` wrapped into [0, rank) (rank 0 counts as 1), or std::nullopt.
std::optional<int64_t> wrapDim(int64_t dim, int64_t rank);
/// One result of `sizes` with `strides` (empty: contiguous) and `dtype`.
Results single(llvm::ArrayRef<int64_t> sizes,
               llvm::ArrayRef<int64_t> strides = {},
               std::optional<ScalarType> dtype = std::nullopt);

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

// Elementwise (ShapeRulesElementwise.cpp).
Results unaryFloat(const CallArguments &call);
Results unaryInPlace(const CallArguments &call);
/// Written into at::empty_like(self): hardtanh, relu6.
Results unaryLikeInput(const CallArguments &call);
Results binaryArithmetic(const CallArguments &call);
Results subtract(const CallArguments &call);
Results binaryInPlace(const CallArguments &call);
Results trueDivide(const CallArguments &call);
/// div with `rounding_mode`: a true division without one, else floor or
/// trunc in the operands' common dtype; floor_divide.
Results divideWithMode(const CallArguments &call);
Results floorDivide(const CallArguments &call);
/// abs: the input's dtype, any but bool.
Results absolute(const CallArguments &call);
/// isnan (self != self): the input's layout, bool. libtorch 1.13 has no meta
/// kernel for it, and TorchScript's shape function knows no dtypes.
Results isNan(const CallArguments &call);
/// eq, ne, lt, le, gt, ge: broadcast, bool.
Results comparison(const CallArguments &call);
Results dropout(const CallArguments &call);
Results dropoutInPlace(const CallArguments &call);

// Views and layout (ShapeRulesViews.cpp).
Results flatten(const CallArguments &call);
Results view(const CallArguments &call);
Results reshape(const CallArguments &call);
Results permute(const CallArguments &call);
Results transpose(const CallArguments &call);
Results unsqueeze(const CallArguments &call);
Results contiguous(const CallArguments &call);
Results concatenate(const CallArguments &call);
Results select(const CallArguments &call);
Results slice(const CallArguments &call);
Results expand(const CallArguments &call);

// Neural-network layers (ShapeRulesLayers.cpp).
Results convolution(const CallArguments &call);
Results batchNorm(const CallArguments &call);
Results layerNorm(const CallArguments &call);
Results maxPool2d(const CallArguments &call);
Results avgPool2d(const CallArguments &call);
Results adaptiveAvgPool2d(const CallArguments &call);
Results linear(const CallArguments &call);
Results matmul(const CallArguments &call);
Results batchMatmul(const CallArguments &call);
Results softmax(const CallArguments &call);
Results meanDim(const CallArguments &call);
Results embedding(const CallArguments &call);
/// segment_reduce: data with `axis` counting the segments of `lengths`
/// (its extent along axis) or of `offsets` (one fewer).
Results segmentReduce(const CallArguments &call);

/// aten::_native_multi_head_attention, MultiheadAttention's fast path:
/// (out [B, L, E], weights [B, L, S] averaged over heads, [B, H, L, S] per
/// head, or undefined when need_weights is false).
Results nativeMultiHeadAttention(const CallArguments &call);

// Recurrent layers on packed sequences (ShapeRulesRecurrent.cpp):
// aten::lstm.data, gru.data, rnn_tanh.data and rnn_relu.data.
Results packedLstm(const CallArguments &call);
Results packedGru(const CallArguments &call);
Results packedElmanRnn(const CallArguments &call);

} // namespace mav::shape_rules

#endif // MAV_LIB_OPERATORS_SHAPERULES_H
