//===- Registry.cpp - The list of component entries and its lookups -------===//

#include "Entries.h"

#include "llvm/ADT/STLExtras.h"

using namespace mav;

llvm::ArrayRef<const Component *> mav::getComponents() {
  // Dependency order: a component after every component it instantiates.
  static const Component *const entries[] = {
      // Helpers and glue.
      &components::fixedRoundSat,
      &components::fixedSkidBuffer,
      &components::fixedFifo,
      &components::fixedFork,
      &components::fixedJoin2,
      &components::fixedWindowScan,
      &components::fixedCast,
      &components::fixedWidthConvert,
      // Operators.
      &components::fixedRelu,
      &components::fixedClamp,
      &components::fixedHardsigmoid,
      &components::fixedHardswish,
      &components::fixedFlatten,
      &components::fixedAdd,
      &components::fixedMul,
      &components::fixedChannelMul,
      &components::fixedConcat2,
      &components::fixedLinear,
      &components::fixedConv2d,
      &components::fixedMaxPool2d,
      &components::fixedAvgPool2d,
      &components::fixedScale,
      &components::fixedGelu,
      &components::fixedReorder,
      &components::fixedMatmul,
      &components::fixedSoftmax,
      &components::fixedLayerNorm,
      &components::fixedPrepend,
      &components::fixedAddConst,
  };
  return entries;
}

const Component *mav::lookupComponent(llvm::StringRef module) {
  for (const Component *component : getComponents())
    if (component->module == module)
      return component;
  return nullptr;
}

llvm::SmallVector<const Component *, 2>
mav::getComponentsFor(llvm::StringRef maseOp) {
  llvm::SmallVector<const Component *, 2> found;
  for (const Component *component : getComponents())
    if (llvm::is_contained(component->operators, maseOp))
      found.push_back(component);
  return found;
}
