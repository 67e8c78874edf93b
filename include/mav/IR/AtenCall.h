//===- AtenCall.h - The aten-level call a node computes ---------*- C++ -*-===//
//
// A node is read at the level of its aten call: a call_function's own, a
// call_method's (self first, as in aten), or the single call of a
// call_module's body. Its arguments are the call's, positional then keyword,
// so code that needs a kernel size or a weight asks by the aten schema's
// position and name whatever the node's kind.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_ATENCALL_H
#define MAV_IR_ATENCALL_H

#include "mav/IR/MavOps.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mav {

struct AtenCall {
  /// The call_function or call_method holding the arguments.
  mlir::Operation *call = nullptr;
  /// Its target as written: "aten::max_pool2d", "add_", ...
  llvm::StringRef target;
  mlir::ArrayAttr args;
  mlir::DictionaryAttr kwargs;

  /// Positional argument `position`, else keyword `keyword`; null if absent.
  mlir::Attribute get(unsigned position, llvm::StringRef keyword) const;
  /// The SSA value an argument refers to, if it is one.
  mlir::Value operand(unsigned position, llvm::StringRef keyword) const;
  /// True when the argument is absent or None.
  bool isNone(unsigned position, llvm::StringRef keyword) const;
};

/// The call `node` computes. Fails for a call_module without a body, or whose
/// body holds anything but weight reads and one call_function returning its
/// one result, and for get_attr and learnable nodes.
mlir::FailureOr<AtenCall> getAtenCall(NodeOpInterface node,
                                      mlir::SymbolTableCollection &symbols);

/// An int or a list or tuple of ints, as a list; a single int (or a list of
/// one) stands for `count` equal entries. Bools are not ints here.
std::optional<llvm::SmallVector<int64_t>> getIntList(mlir::Attribute value,
                                                     size_t count);

} // namespace mav

#endif // MAV_IR_ATENCALL_H
