//===- TutorialCountDropout.cpp - docs/Tutorial.md's own pass -------------===//
//
// The pass a reader of docs/Tutorial.md writes: MASE's count-dropout analysis
// pass, in C++ against mav's API. Registered in mav-opt as
// -mav-tutorial-count-dropout; the tutorial shows this file and its test
// checks that the two stay the same.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/MavOps.h"
#include "mav/Operators/OperatorInference.h"
#include "mav/Passes/PassOutputs.h"

#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct TutorialCountDropout
    : PassWrapper<TutorialCountDropout, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TutorialCountDropout)

  StringRef getArgument() const override {
    return "mav-tutorial-count-dropout";
  }
  StringRef getDescription() const override {
    return "the tutorial's count-dropout pass";
  }

  void runOnOperation() override {
    int64_t count = 0;
    for (mav::GraphOp graph : getOperation().getOps<mav::GraphOp>()) {
      // Private graphs are the bodies of leaf modules, not the model's graph.
      if (graph.isPrivate())
        continue;
      // mav::getMaseOp reads the node's common metadata, or asks the op
      // registry when the graph was not raised.
      for (auto node : graph.getBodyBlock().getOps<mav::NodeOpInterface>())
        if (mav::getMaseOp(node) == "dropout")
          ++count;
    }
    Builder builder(&getContext());
    mav::recordPassOutputs(
        getOperation(), getArgument(),
        {builder.getNamedAttr("dropout_count",
                              builder.getI64IntegerAttr(count))});
    markAllAnalysesPreserved();
  }
};
} // namespace

namespace mav {
void registerTutorialPasses() { PassRegistration<TutorialCountDropout>(); }
} // namespace mav
