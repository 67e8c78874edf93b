//===- AtenSchemas.h - The aten schemas native shape rules bind to -*- C++
//-*-===//
//
// The op registry's part that is per overload: the TorchScript schemas of
// the operators mav has native shape rules for, written as libtorch prints
// them (a unit test compares every one with libtorch's registry), each with
// its shape rule. Shape propagation without libtorch binds a node's arguments
// to them, as the interpreter binds them to libtorch's, so that the metadata
// names each configuration argument by its schema name. libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_OPERATORS_ATENSCHEMAS_H
#define MAV_OPERATORS_ATENSCHEMAS_H

#include "mav/Operators/OpRegistry.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace mav {

/// One parameter of a schema.
struct AtenParameter {
  llvm::StringRef name;
  /// The type as written, alias annotation dropped: "Tensor?", "int[2]".
  llvm::StringRef type;
  bool hasDefault = false;
  bool keywordOnly = false;

  bool isOptional() const { return type.ends_with("?"); }
  bool isList() const { return type.contains('['); }
  bool isTensor() const { return type.starts_with("Tensor") && !isList(); }
  bool isTensorList() const { return type.starts_with("Tensor") && isList(); }
};

/// One overload.
struct AtenSchema {
  /// As libtorch prints it.
  llvm::StringRef text;
  /// "aten::add"; the overload name, "Tensor", or empty.
  llvm::StringRef name;
  llvm::StringRef overload;
  llvm::SmallVector<AtenParameter> parameters;
  unsigned numResults = 1;
  /// Its results from its arguments (OpRegistry.h).
  ShapeRule shape = nullptr;
};

/// Every schema mav knows, in libtorch's order within each operator.
llvm::ArrayRef<AtenSchema> getAtenSchemas();

/// The overloads a target names: exactly one for "aten::add.Tensor", every
/// known overload of "aten::add" otherwise, in libtorch's order.
llvm::SmallVector<const AtenSchema *, 2>
lookupAtenSchemas(llvm::StringRef target);

} // namespace mav

#endif // MAV_OPERATORS_ATENSCHEMAS_H
