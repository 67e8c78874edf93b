//===- MavAttrs.h - Attributes of the mav dialect ---------------*- C++ -*-===//

#ifndef MAV_IR_MAVATTRS_H
#define MAV_IR_MAVATTRS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "mav/IR/MavEnums.h.inc"

namespace mav {
/// `[1, 2, 3]`, the printed form of shapes, strides and precisions.
mlir::FailureOr<mlir::DenseI64ArrayAttr>
parseIndexList(mlir::AsmParser &parser);
void printIndexList(mlir::AsmPrinter &printer, mlir::DenseI64ArrayAttr list);
/// A string literal with escapes, as builtin string attributes print.
void printQuotedString(mlir::AsmPrinter &printer, llvm::StringRef value);
/// Fails, naming `what`, when `dictionary` repeats a key or is out of order.
/// Text never parses so; bytecode can carry such a dictionary, which then
/// prints as text that does not parse.
mlir::LogicalResult
checkDictionaryKeys(mlir::DictionaryAttr dictionary, llvm::StringRef what,
                    llvm::function_ref<mlir::InFlightDiagnostic()> emitError);
} // namespace mav

#define GET_ATTRDEF_CLASSES
#include "mav/IR/MavAttrs.h.inc"

#endif // MAV_IR_MAVATTRS_H
