//===- NodeArguments.h - FX-style node arguments ----------------*- C++ -*-===//
//
// A node's arguments are a tree: positional values and keyword values, each a
// constant (int, float, bool, None, string, dtype, ...), a list, a tuple, a
// dict, or a run time value. The tree is stored as attributes (`args`,
// `kwargs`) whose run time values are `#mav.operand<i>` references to the op's
// operands, numbered in tree order (positional first, then keywords by name).
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_NODEARGUMENTS_H
#define MAV_IR_NODEARGUMENTS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"

namespace mav {

/// Parses `(v, v, ..., name = v, ...)`. Operands come back in tree order.
mlir::ParseResult parseNodeArguments(
    mlir::OpAsmParser &parser, mlir::ArrayAttr &args,
    mlir::DictionaryAttr &kwargs,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand> &operands);

/// Parses one argument value, appending the run time values it uses.
mlir::ParseResult parseArgumentValue(
    mlir::OpAsmParser &parser, mlir::Attribute &value,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand> &operands);

void printNodeArguments(mlir::OpAsmPrinter &printer, mlir::ArrayAttr args,
                        mlir::DictionaryAttr kwargs,
                        mlir::OperandRange operands);

void printArgumentValue(mlir::OpAsmPrinter &printer, mlir::Attribute value,
                        mlir::OperandRange operands);

/// Checks that every leaf is an argument form mav knows and that operand
/// references number the operands exactly once, in tree order. Reports a
/// failure through `emitError`, as MLIR's verify functions do.
mlir::LogicalResult
verifyArgumentTree(llvm::ArrayRef<mlir::Attribute> roots, unsigned numOperands,
                   llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// Calls `fn(index)` for each operand reference in tree order.
void walkOperandRefs(mlir::Attribute value,
                     llvm::function_ref<void(unsigned)> fn);

/// `value` with each operand reference that `replace` gives an attribute
/// for (a constant) replaced by it; references it gives null for stay.
mlir::Attribute
replaceOperandRefs(mlir::Attribute value,
                   llvm::function_ref<mlir::Attribute(unsigned)> replace);

/// `value` with every operand reference `#mav.operand<i>` replaced by
/// `#mav.operand<map(i)>`, in tree order.
mlir::Attribute mapOperandRefs(mlir::Attribute value,
                               llvm::function_ref<unsigned(unsigned)> map);

/// Builds argument trees while collecting the operands they reference:
///
///   ArgumentTreeBuilder args(context);
///   Attribute size = args.list({args.use(batch), b.getI64IntegerAttr(-1)});
///   // positional (x, [batch, -1]); operands args.getOperands() = {x, batch}
///   SmallVector<Attribute> positional = {args.use(x), size};
///
/// To change the arguments of an existing node, use ArgumentEditor.
class ArgumentTreeBuilder {
public:
  explicit ArgumentTreeBuilder(mlir::MLIRContext *context) : context(context) {}

  /// A reference to `value`, appended to the operands.
  mlir::Attribute use(mlir::Value value);
  mlir::Attribute none();
  mlir::Attribute tuple(llvm::ArrayRef<mlir::Attribute> elements);
  mlir::Attribute list(llvm::ArrayRef<mlir::Attribute> elements);
  mlir::Attribute dict(llvm::ArrayRef<mlir::Attribute> keys,
                       llvm::ArrayRef<mlir::Attribute> values);

  llvm::ArrayRef<mlir::Value> getOperands() const { return operands; }

private:
  mlir::MLIRContext *context;
  llvm::SmallVector<mlir::Value> operands;
};

} // namespace mav

#endif // MAV_IR_NODEARGUMENTS_H
