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

} // namespace mav

#endif // MAV_IR_MAVTYPES_H
