//===- TensorLayout.h - Strides and dtypes as libtorch computes -*- C++ -*-===//
//
// Internal to lib/Operators: the pieces of libtorch's own bookkeeping that
// shape rules need to give the strides and dtypes a meta kernel gives:
// contiguity (c10's TensorImpl), the layout of an elementwise result
// (TensorIterator) and type promotion (c10::promoteTypes, at::result_type).
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_OPERATORS_TENSORLAYOUT_H
#define MAV_LIB_OPERATORS_TENSORLAYOUT_H

#include "mav/IR/MavAttrs.h"
#include "mav/IR/TensorStrides.h"
#include "mav/Operators/OpRegistry.h"

namespace mav::layout {

/// c10's is_contiguous, is_contiguous(ChannelsLast) and
/// is_non_overlapping_and_dense.
bool isContiguous(llvm::ArrayRef<int64_t> sizes,
                  llvm::ArrayRef<int64_t> strides);
bool isChannelsLastContiguous(llvm::ArrayRef<int64_t> sizes,
                              llvm::ArrayRef<int64_t> strides);
bool isNonOverlappingAndDense(llvm::ArrayRef<int64_t> sizes,
                              llvm::ArrayRef<int64_t> strides);

/// c10's is_channels_last_strides_2d: whether a 4-D tensor's strides order
/// its dimensions as channels-last does (what suggest_memory_format reads).
bool isChannelsLastLike(llvm::ArrayRef<int64_t> sizes,
                        llvm::ArrayRef<int64_t> strides);

/// The strides of a channels-last tensor of 4-D `sizes`.
llvm::SmallVector<int64_t> channelsLastStrides(llvm::ArrayRef<int64_t> sizes);

/// NumPy broadcasting of two shapes; std::nullopt when they do not broadcast.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs);

/// The strides TensorIterator gives the result of an elementwise operation
/// of `inputs` (the result has their broadcast shape, `sizes`).
llvm::SmallVector<int64_t> elementwiseStrides(llvm::ArrayRef<TensorRef> inputs,
                                              llvm::ArrayRef<int64_t> sizes);

/// The dtypes mav's rules handle: bool, the integers and the real floats.
bool isSupportedDType(ScalarType type);
bool isFloatingDType(ScalarType type);
bool isIntegralDType(ScalarType type, bool includeBool);

/// c10::promoteTypes on supported dtypes.
ScalarType promoteTypes(ScalarType lhs, ScalarType rhs);

/// at::result_type of tensors and Python numbers (`numbers` holds, for each
/// number, whether it is a float). std::nullopt for unsupported dtypes.
std::optional<ScalarType> resultType(llvm::ArrayRef<TensorRef> tensors,
                                     llvm::ArrayRef<bool> numbersAreFloat);

} // namespace mav::layout

#endif // MAV_LIB_OPERATORS_TENSORLAYOUT_H
