//===- RegistryListing.cpp - The op registry as JSON ----------------------===//
//
// `mav-opt --list-operators`: what a test or a user reads to know which
// operators mav knows, how, and which it refuses.
//
//===----------------------------------------------------------------------===//

#include "mav/Operators/AtenSchemas.h"
#include "mav/Operators/OpRegistry.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mav;
using llvm::StringRef;

static llvm::json::Array toArray(llvm::ArrayRef<StringRef> names) {
  llvm::json::Array array;
  for (StringRef name : names)
    array.push_back(name);
  return array;
}

static llvm::json::Object describe(const OpInfo &op) {
  llvm::json::Array roles;
  for (ArgRole role : op.argRoles)
    roles.push_back(stringifyArgRole(role));
  llvm::json::Object nativeShapes;
  for (StringRef target : op.atenOps) {
    llvm::json::Array overloads;
    for (const AtenSchema *schema : lookupAtenSchemas(target))
      if (schema->shape)
        overloads.push_back(schema->overload.empty() ? "" : schema->overload);
    nativeShapes[target] = std::move(overloads);
  }
  return llvm::json::Object{
      {"mase_op", op.maseOp},
      {"mase_type", stringifyMaseType(op.maseType)},
      {"module_classes", toArray(op.moduleClasses)},
      {"functionals", toArray(op.functionals)},
      {"aten_ops", toArray(op.atenOps)},
      {"tensor_methods", toArray(op.tensorMethods)},
      {"arg_roles", std::move(roles)},
      {"cost", op.cost != nullptr},
      {"native_shape_overloads", std::move(nativeShapes)}};
}

void mav::printOpRegistryJson(llvm::raw_ostream &os) {
  llvm::json::Array entries, unsupported;
  for (const OpInfo &op : getAllOps())
    entries.push_back(describe(op));
  for (const UnsupportedOp &op : getUnsupportedOps())
    unsupported.push_back(
        llvm::json::Object{{"aten_op", op.atenOp}, {"reason", op.reason}});
  llvm::json::Value root = llvm::json::Object{
      {"operators", std::move(entries)},
      {"unsupported", std::move(unsupported)},
      {"structural_node_kinds", toArray(getStructuralNodeKinds())}};
  os << llvm::formatv("{0:1}", root) << "\n";
}
