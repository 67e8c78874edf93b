//===- ScalarTypes.h - torch dtypes without libtorch ------------*- C++ -*-===//
//
// mav::ScalarType (MavAttrs.td) is numbered as c10::ScalarType. These are the
// dtype facts that metadata records and shape rules need, libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_SCALARTYPES_H
#define MAV_IR_SCALARTYPES_H

#include "mav/IR/MavAttrs.h"

#include <string>

namespace mav {

/// The builtin element type of a dtype (f32, si64, ui8, i1, complex<f32>),
/// or null for the quantized ones.
mlir::Type getElementType(ScalarType type, mlir::MLIRContext *context);

/// The dtype of a builtin element type, if it has one.
std::optional<ScalarType> getScalarType(mlir::Type type);

/// Bytes per element.
int64_t getElementSize(ScalarType type);

/// Python's spelling, as MASE records it: "torch.float32".
std::string getTorchDTypeName(ScalarType type);

/// MASE's `type` ("float", "integer", "bool", "complex") and `precision`
/// (bits) of a dtype.
std::pair<llvm::StringRef, int64_t> getMasePrecision(ScalarType type);

} // namespace mav

#endif // MAV_IR_SCALARTYPES_H
