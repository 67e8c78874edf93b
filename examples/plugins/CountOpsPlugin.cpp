//===- CountOpsPlugin.cpp - An analysis pass as a mav-opt plugin ----------===//
//
// Counts the nodes of each mase_op in the public graphs, as pass outputs:
//   mav-opt net.mlir -mav-raise --load-pass-plugin=libMavCountOpsPlugin.so \
//       -example-count-ops
//
//===----------------------------------------------------------------------===//

#include "mav/IR/MavOps.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Tools/Plugin.h"

#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;

namespace {
struct CountOps : PassWrapper<CountOps, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CountOps)
  StringRef getArgument() const final { return "example-count-ops"; }
  StringRef getDescription() const final {
    return "count the nodes of each mase_op (a plugin example)";
  }

  void runOnOperation() override {
    llvm::MapVector<StringRef, int64_t> counts;
    getOperation().walk([&](mav::NodeOpInterface node) {
      auto graph = node->getParentOfType<mav::GraphOp>();
      mav::CommonMetaAttr common = node.getCommonMeta();
      if (graph && !graph.isPrivate() && common && !common.getMaseOp().empty())
        ++counts[common.getMaseOp()];
    });
    Builder builder(&getContext());
    SmallVector<NamedAttribute> outputs;
    for (auto [op, count] : counts)
      outputs.push_back(
          builder.getNamedAttr(op, builder.getI64IntegerAttr(count)));
    mav::recordPassOutputs(getOperation(), getArgument(), outputs);
    markAllAnalysesPreserved();
  }
};
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK mav::PassPluginInfo mavGetPassPluginInfo() {
  return {MAV_PLUGIN_API_VERSION, "count-ops", "1.0",
          [] { PassRegistration<CountOps>(); }};
}
