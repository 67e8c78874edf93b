//===- ClassifyEntryExit.cpp - Entry and exit types of every node ---------===//

#include "mav/Passes/EntryExit.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/AnalysisPasses.h"

#include "mlir/IR/Builders.h"

namespace mav {
#define GEN_PASS_DEF_CLASSIFYENTRYEXIT
#include "mav/Passes/AnalysisPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {
struct ClassifyEntryExit : mav::impl::ClassifyEntryExitBase<ClassifyEntryExit> {
  void runOnOperation() override {
    Builder builder(&getContext());
    SymbolTableCollection symbols;
    llvm::StringMap<int64_t> entryCounts, exitCounts;
    for (GraphOp graph : getPublicGraphs(getOperation())) {
      EntryExitAnalysis analysis(graph, symbols);
      for (auto node : graph.getBodyBlock().getOps<NodeOpInterface>()) {
        StringRef entry = stringifyEntryType(analysis.getEntry(node));
        StringRef exit = stringifyExitType(analysis.getExit(node));
        ++entryCounts[entry];
        ++exitCounts[exit];
        setSoftwareMetadata(
            node, {builder.getNamedAttr("entry", builder.getStringAttr(entry)),
                   builder.getNamedAttr("exit", builder.getStringAttr(exit))});
      }
    }
    recordPassOutputs(
        getOperation(), getArgument(),
        {builder.getNamedAttr("entry", countsAttr(&getContext(), entryCounts)),
         builder.getNamedAttr("exit", countsAttr(&getContext(), exitCounts))});
    markAllAnalysesPreserved();
  }
};
} // namespace
