//===- MavOps.h - Ops of the mav dialect ------------------------*- C++ -*-===//

#ifndef MAV_IR_MAVOPS_H
#define MAV_IR_MAVOPS_H

#include "mav/IR/MavAttrs.h"
#include "mav/IR/MavDialect.h"
#include "mav/IR/MavTypes.h"
#include "mav/IR/NodeMetadata.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

namespace mav {
class OutputOp;
} // namespace mav

#include "mav/IR/MavOpsInterfaces.h.inc"

#define GET_OP_CLASSES
#include "mav/IR/MavOps.h.inc"

#endif // MAV_IR_MAVOPS_H
