//===- TorchTypes.h - torch dtypes, tensors and mav types -------*- C++ -*-===//
//
// Conversions between torch and MLIR for code that includes libtorch (the
// importer, the interpreter, mav-run). Not for MLIR-only code.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_RUNTIME_TORCHTYPES_H
#define MAV_RUNTIME_TORCHTYPES_H

#include "mav/IR/MavOps.h"

#include <ATen/ATen.h>

namespace mav {

/// The builtin element type of a torch dtype (f32, si64, i1, ...), or null.
mlir::Type convertScalarType(c10::ScalarType type, mlir::MLIRContext *context);

/// The torch dtype of a builtin element type, if it has one.
std::optional<c10::ScalarType> convertElementType(mlir::Type type);

/// The tensor a weight holds, on `device` (on meta: shape and dtype only,
/// except for scalars, which keep their value on cpu).
/// Fails, with an error at the weight, when its data was elided or its type
/// has no torch dtype.
mlir::FailureOr<at::Tensor> materializeWeight(WeightOp weight,
                                              c10::Device device);

/// A cpu tensor over the weight's data, in place, for reading only (a
/// splat is expanded into a new tensor); fails as materializeWeight does.
/// The weight's blob must outlive it.
mlir::FailureOr<at::Tensor> viewWeight(WeightOp weight);

/// Appends the leaves of a (nested) tuple, list or dict to `leaves`, in
/// order: dicts in insertion order, as torch.utils._pytree flattens them.
void flattenValue(const c10::IValue &value, std::vector<c10::IValue> &leaves);

} // namespace mav

#endif // MAV_RUNTIME_TORCHTYPES_H
