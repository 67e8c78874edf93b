//===- CountOpsPlugin.cpp - docs/WritingPasses.md's analysis pass ---------===//
// Counts the nodes of each mase_op in the model's graphs, as pass outputs.
//===----------------------------------------------------------------------===//

#include "mav/IR/OperatorInference.h"
#include "mav/Passes/Metadata.h"
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
  StringRef getDescription() const final { return "count nodes by mase_op"; }

  void runOnOperation() override {
    llvm::MapVector<StringRef, int64_t> counts;
    for (mav::GraphOp graph : mav::getPublicGraphs(getOperation()))
      for (auto node : graph.getBodyBlock().getOps<mav::NodeOpInterface>())
        ++counts[mav::getMaseOp(node)];
    Builder builder(&getContext());
    NamedAttrList outputs;
    for (auto [op, count] : counts)
      outputs.append(op.empty() ? "unknown" : op,
                     builder.getI64IntegerAttr(count));
    mav::recordPassOutputs(getOperation(), getArgument(), outputs);
    markAllAnalysesPreserved();
  }
};
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK mav::PassPluginInfo mavGetPassPluginInfo() {
  return {MAV_PLUGIN_API_VERSION, "count-ops", "1.0",
          [] { PassRegistration<CountOps>(); }};
}
