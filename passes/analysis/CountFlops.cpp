//===- CountFlops.cpp - FLOPs and MACs per node, per scope ----------------===//
//
// The counting is the model summary's (mav/Summary/ModelSummary.h), so the
// pass, `mav-translate --summary` and the viewers report the same figures.
//
//===----------------------------------------------------------------------===//

#include "mav/Passes/AnalysisPasses.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Summary/ModelSummary.h"

#include "mlir/IR/Builders.h"

namespace mav {
#define GEN_PASS_DEF_COUNTFLOPS
#include "mav/Passes/AnalysisPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {

struct CountFlops : mav::impl::CountFlopsBase<CountFlops> {
  using CountFlopsBase::CountFlopsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder builder(&getContext());
    SymbolTableCollection symbols;
    OpCost total;
    SmallVector<Attribute> byScope, uncounted;
    for (GraphOp graph : getPublicGraphs(module)) {
      ModelSummary summary = summarizeGraph(module, graph, symbols);
      total.flops += summary.cost.flops;
      total.macs += summary.cost.macs;
      for (Operation &op : graph.getBodyBlock().without_terminator()) {
        auto cost = summary.nodeCosts.find(&op);
        if (cost != summary.nodeCosts.end())
          setSoftwareMetadata(&op,
                              {costEntry(builder, "flops", cost->second.flops),
                               costEntry(builder, "macs", cost->second.macs)});
      }
      for (const ScopeSummary &scope : summary.scopes)
        if (scopeDepth == 0 || scope.depth <= scopeDepth)
          byScope.push_back(builder.getDictionaryAttr(
              {builder.getNamedAttr("scope", builder.getStringAttr(scope.path)),
               costEntry(builder, "flops", scope.cost.flops),
               costEntry(builder, "macs", scope.cost.macs)}));
      for (const std::string &name : summary.uncounted)
        uncounted.push_back(builder.getStringAttr(name));
    }
    recordPassOutputs(
        module, getArgument(),
        {costEntry(builder, "total_flops", total.flops),
         costEntry(builder, "total_macs", total.macs),
         builder.getNamedAttr("by_scope", builder.getArrayAttr(byScope)),
         builder.getNamedAttr("uncounted", builder.getArrayAttr(uncounted))});
    markAllAnalysesPreserved();
  }

  static NamedAttribute costEntry(Builder &builder, StringRef name,
                                  int64_t value) {
    return builder.getNamedAttr(name, builder.getI64IntegerAttr(value));
  }
};

} // namespace
