//===- MaseType.h - MASE's node categories ----------------------*- C++ -*-===//
//
// The values of the `common.mase_type` metadata field. They are part of the
// dialect, since its verifier checks the field; the op registry
// (mav/Operators/OpRegistry.h) says which operator has which.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_MASETYPE_H
#define MAV_IR_MASETYPE_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mav {

/// MASE's node categories (the `mase_type` metadata field).
enum class MaseType {
  ModuleRelatedFunc,
  Module,
  BuiltinFunc,
  ImplicitFunc,
  Placeholder,
  GetAttr,
  Output,
};

/// The spelling MASE uses, e.g. "module_related_func".
llvm::StringRef stringifyMaseType(MaseType type);
std::optional<MaseType> symbolizeMaseType(llvm::StringRef spelling);

} // namespace mav

#endif // MAV_IR_MASETYPE_H
