//===- MavDialect.h - The mav dialect ---------------------------*- C++ -*-===//

#ifndef MAV_IR_MAVDIALECT_H
#define MAV_IR_MAVDIALECT_H

#include "mlir/IR/Dialect.h"

#include "mav/IR/MavDialect.h.inc"

#endif // MAV_IR_MAVDIALECT_H
