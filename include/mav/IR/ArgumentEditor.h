//===- ArgumentEditor.h - Change a node's arguments -------------*- C++ -*-===//
//
// A call node's arguments are a tree (NodeArguments.h) whose run time values
// are operand references numbered in tree order. ArgumentEditor changes the
// tree without renumbering by hand: it reads the node's arguments, lets them
// be set, appended, erased, and writes them back with the operands in their
// new order.
//
//   ArgumentEditor edit(conv);                // aten::_convolution
//   Value weight = edit.getValue(1);
//   edit.set(2, bias);                        // was None
//   edit.setKeyword("groups", builder.getI64IntegerAttr(2));
//   edit.apply();
//
// Changing what a node computes makes its common metadata stale: apply()
// drops it (invalidateCommonMetadata), and -mav-raise recomputes it. The
// verifier rejects common metadata that disagrees with the IR.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_ARGUMENTEDITOR_H
#define MAV_IR_ARGUMENTEDITOR_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/MapVector.h"

namespace mav {

class ArgumentEditor {
public:
  /// `call` is a call_function, call_method or call_module node.
  explicit ArgumentEditor(mlir::Operation *call);

  unsigned getNumPositional() const { return positional.size(); }

  /// The run time value passed as positional argument `position` (or keyword
  /// `name`); null when it is absent, a constant or a structure.
  mlir::Value getValue(unsigned position) const;
  mlir::Value getKeywordValue(llvm::StringRef name) const;
  /// The constant passed as positional argument `position` (or keyword
  /// `name`); null when it is absent or a run time value.
  mlir::Attribute getConstant(unsigned position) const;
  mlir::Attribute getKeywordConstant(llvm::StringRef name) const;

  /// Passes `value` as positional argument `position`, which must exist.
  void set(unsigned position, mlir::Value value);
  /// Passes a constant, or a structure built with use() (a list of values).
  void set(unsigned position, mlir::Attribute argument);
  void append(mlir::Value value) { positional.push_back(use(value)); }
  void append(mlir::Attribute argument) { positional.push_back(argument); }
  /// Erases positional argument `position`; the later ones move up.
  void erase(unsigned position);
  void setKeyword(llvm::StringRef name, mlir::Value value);
  void setKeyword(llvm::StringRef name, mlir::Attribute argument);
  void eraseKeyword(llvm::StringRef name);

  /// Passes `constant` wherever `value` is passed, nested in structures
  /// too.
  void replaceValue(mlir::Value value, mlir::Attribute constant);
  /// A reference to `value`, for structures passed to set().
  mlir::Attribute use(mlir::Value value);

  /// Writes the arguments back: `args`, `kwargs` and the operands, numbered
  /// in tree order; drops the node's common metadata.
  void apply();

private:
  mlir::Operation *call;
  /// Values the references of the edited tree number, by index: the node's
  /// operands, then those passed since.
  llvm::SmallVector<mlir::Value> values;
  llvm::SmallVector<mlir::Attribute> positional;
  llvm::MapVector<mlir::StringAttr, mlir::Attribute> keywords;
};

/// Drops `node`'s common metadata, which a change to what it computes made
/// stale; -mav-raise computes it again.
void invalidateCommonMetadata(mlir::Operation *node);

} // namespace mav

#endif // MAV_IR_ARGUMENTEDITOR_H
