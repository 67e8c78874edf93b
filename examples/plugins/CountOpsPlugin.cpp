//===- CountOpsPlugin.cpp - docs/WritingPasses.md's analysis pass ---------===//
// Counts the nodes of each mase_op in the model's graphs, as pass outputs.
//===----------------------------------------------------------------------===//

#include "mav/Passes/PassAPI.h"
#include "mav/Passes/PluginAPI.h"

using namespace mlir;
using namespace mav;

namespace {
struct CountOps : PassWrapper<CountOps, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CountOps)
  StringRef getArgument() const final { return "example-count-ops"; }
  StringRef getDescription() const final { return "count nodes by mase_op"; }

  void runOnOperation() override {
    llvm::StringMap<int64_t> counts;
    for (GraphOp graph : getPublicGraphs(getOperation()))
      for (auto node : graph.getBodyBlock().getOps<NodeOpInterface>()) {
        StringRef op = getMaseOp(node);
        ++counts[op.empty() ? "unknown" : op];
      }
    recordPassOutputs(getOperation(), getArgument(),
                      countsAttr(&getContext(), counts).getValue());
    markAllAnalysesPreserved();
  }
};
} // namespace

MAV_PASS_PLUGIN("count-ops", "1.0", CountOps)
