//===- MavTypes.h - Types of mav values -------------------------*- C++ -*-===//

#ifndef MAV_IR_MAVTYPES_H
#define MAV_IR_MAVTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "mav/IR/MavTypes.h.inc"

namespace mav {

/// A builtin tensor type or `!mav.tensor`.
bool isTensorType(mlir::Type type);

/// Any type a mav node may produce or consume.
bool isValueType(mlir::Type type);

/// Parses `1x3x224x224xf32` (dims, then an element type: f32, f64, f16, bf16,
/// si64, si32, si16, si8, ui8, i1, complex<f32>, complex<f64>) into a ranked
/// tensor type.
mlir::FailureOr<mlir::RankedTensorType>
parseShapeSpec(llvm::StringRef spec, mlir::MLIRContext *context);

/// torch's Python spelling of an element type, as MASE records it in
/// `torch_dtype` ("torch.float32", "torch.int64", "torch.bool",
/// "torch.complex64"); "" for a
/// type torch has no dtype for.
llvm::StringRef getTorchDtypeName(mlir::Type elementType);

} // namespace mav

#endif // MAV_IR_MAVTYPES_H
