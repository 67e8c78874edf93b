//===- OpRegistry.cpp - Spellings and lookups of the op registry ----------===//
//
// The spellings of ArgRole, and the lookups into the op table
// (OpTable.cpp): hash maps from each kind of target to its entry, built on
// first use.
//
//===----------------------------------------------------------------------===//

#include "mav/Operators/OpRegistry.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <cassert>

using namespace mav;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Spellings
//===----------------------------------------------------------------------===//

StringRef mav::stringifyArgRole(ArgRole role) {
  switch (role) {
  case ArgRole::DataIn:
    return "data_in";
  case ArgRole::Weight:
    return "weight";
  case ArgRole::Bias:
    return "bias";
  case ArgRole::Config:
    return "config";
  }
  llvm_unreachable("unknown ArgRole");
}

//===----------------------------------------------------------------------===//
// Lookups
//===----------------------------------------------------------------------===//

namespace {
struct OpIndex {
  llvm::StringMap<const OpInfo *> maseOps;
  llvm::StringMap<const OpInfo *> moduleClasses;
  llvm::StringMap<const OpInfo *> atenOps;
  llvm::StringMap<const OpInfo *> tensorMethods;

  OpIndex() {
    for (const OpInfo &op : getAllOps()) {
      add(maseOps, op.maseOp, op);
      for (StringRef target : op.moduleClasses)
        add(moduleClasses, target, op);
      for (StringRef target : op.atenOps)
        add(atenOps, target, op);
      for (StringRef target : op.tensorMethods)
        add(tensorMethods, target, op);
    }
  }

  static void add(llvm::StringMap<const OpInfo *> &map, StringRef key,
                  const OpInfo &op) {
    [[maybe_unused]] bool inserted = map.try_emplace(key, &op).second;
    assert(inserted && "a target is listed by two registry entries");
  }
};
} // namespace

static const OpIndex &getIndex() {
  static const OpIndex index;
  return index;
}

const OpInfo *mav::lookupMaseOp(StringRef maseOp) {
  return getIndex().maseOps.lookup(maseOp);
}

const OpInfo *mav::lookupModuleClass(StringRef qualifiedClass) {
  return getIndex().moduleClasses.lookup(qualifiedClass);
}

const OpInfo *mav::lookupAtenOp(StringRef atenName) {
  // The overload follows the first dot: "aten::add.Tensor".
  return getIndex().atenOps.lookup(atenName.split('.').first);
}

const OpInfo *mav::lookupTensorMethod(StringRef method) {
  return getIndex().tensorMethods.lookup(method);
}

const UnsupportedOp *mav::lookupUnsupportedOp(StringRef atenName) {
  static const llvm::StringMap<const UnsupportedOp *> *index = [] {
    auto *map = new llvm::StringMap<const UnsupportedOp *>();
    for (const UnsupportedOp &op : getUnsupportedOps())
      map->try_emplace(op.atenOp, &op);
    return map;
  }();
  return index->lookup(atenName.split('.').first);
}

std::string ArgumentNamer::nextDataIn() {
  return "data_in_" + std::to_string(dataIn++);
}

std::string ArgumentNamer::name(size_t index, StringRef schemaName) {
  ArgRole role = index < roles.size() ? roles[index] : ArgRole::DataIn;
  auto numbered = [](StringRef base, unsigned &count) {
    std::string name =
        count ? (base + "_" + llvm::Twine(count)).str() : base.str();
    ++count;
    return name;
  };
  switch (role) {
  case ArgRole::DataIn:
    return nextDataIn();
  case ArgRole::Weight:
    return numbered("weight", weights);
  case ArgRole::Bias:
    return numbered("bias", biases);
  case ArgRole::Config:
    return schemaName.empty() ? "config_" + std::to_string(index)
                              : schemaName.str();
  }
  llvm_unreachable("unknown role");
}
