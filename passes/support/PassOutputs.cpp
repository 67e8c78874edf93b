//===- PassOutputs.cpp - MASE-style pass outputs --------------------------===//

#include "mav/Passes/PassOutputs.h"
#include "mav/IR/MavOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mav;

void mav::recordPassOutputs(ModuleOp module, StringRef pass,
                            ArrayRef<NamedAttribute> outputs) {
  MLIRContext *context = module.getContext();
  StringRef name = MavDialect::getPassOutputsAttrName();
  SmallVector<Attribute> records;
  if (auto existing = module->getAttrOfType<ArrayAttr>(name))
    records.append(existing.begin(), existing.end());
  records.push_back(PassOutputAttr::get(context, pass,
                                        DictionaryAttr::get(context, outputs)));
  module->setAttr(name, ArrayAttr::get(context, records));
}

DictionaryAttr mav::countsAttr(MLIRContext *context,
                               const llvm::StringMap<int64_t> &counts) {
  Builder builder(context);
  SmallVector<NamedAttribute> entries;
  for (const auto &entry : counts)
    entries.push_back(builder.getNamedAttr(
        entry.getKey(), builder.getI64IntegerAttr(entry.getValue())));
  return builder.getDictionaryAttr(entries);
}
