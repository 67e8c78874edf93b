//===- MaseType.cpp - The spellings of MASE's node categories -------------===//

#include "mav/IR/MaseType.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mav;
using llvm::StringRef;

StringRef mav::stringifyMaseType(MaseType type) {
  switch (type) {
  case MaseType::ModuleRelatedFunc:
    return "module_related_func";
  case MaseType::Module:
    return "module";
  case MaseType::BuiltinFunc:
    return "builtin_func";
  case MaseType::ImplicitFunc:
    return "implicit_func";
  case MaseType::Placeholder:
    return "placeholder";
  case MaseType::GetAttr:
    return "get_attr";
  case MaseType::Output:
    return "output";
  }
  llvm_unreachable("unknown MaseType");
}

std::optional<MaseType> mav::symbolizeMaseType(StringRef spelling) {
  return llvm::StringSwitch<std::optional<MaseType>>(spelling)
      .Case("module_related_func", MaseType::ModuleRelatedFunc)
      .Case("module", MaseType::Module)
      .Case("builtin_func", MaseType::BuiltinFunc)
      .Case("implicit_func", MaseType::ImplicitFunc)
      .Case("placeholder", MaseType::Placeholder)
      .Case("get_attr", MaseType::GetAttr)
      .Case("output", MaseType::Output)
      .Default(std::nullopt);
}
