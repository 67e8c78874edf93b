//===- CountDropout.cpp - Count dropout by operator -----------------------===//
//
// The MASE tutorial's analysis pass, by operator rather than by name: a node
// is a dropout when what it computes is (mase_op "dropout"), whatever it is
// called. Calls into leaf modules that are not dropouts are looked into, so
// that functional dropout inside a MultiheadAttention counts too, once per
// call.
//
//===----------------------------------------------------------------------===//

#include "mav/Operators/OperatorInference.h"
#include "mav/Passes/AnalysisPasses.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "mav-count-dropout"

namespace mav {
#define GEN_PASS_DEF_COUNTDROPOUT
#include "mav/Passes/AnalysisPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {
struct CountDropout : mav::impl::CountDropoutBase<CountDropout> {
  void runOnOperation() override {
    // A pass instance may run again (a PassManager run twice): start afresh.
    moduleCount = functionalCount = 0;
    modules.clear();
    functional.clear();
    nodes.clear();
    SymbolTableCollection symbols;
    for (GraphOp graph : getPublicGraphs(getOperation()))
      countIn(graph, "", symbols);

    Builder builder(&getContext());
    recordPassOutputs(
        getOperation(), getArgument(),
        {builder.getNamedAttr(
             "dropout_count",
             builder.getI64IntegerAttr(moduleCount + functionalCount)),
         builder.getNamedAttr("module_count",
                              builder.getI64IntegerAttr(moduleCount)),
         builder.getNamedAttr("functional_count",
                              builder.getI64IntegerAttr(functionalCount)),
         builder.getNamedAttr("modules", countsAttr(&getContext(), modules)),
         builder.getNamedAttr("functional",
                              countsAttr(&getContext(), functional)),
         builder.getNamedAttr("nodes", builder.getArrayAttr(nodes))});
    markAllAnalysesPreserved();
  }

  /// Counts the dropouts of `graph`, whose node names get `prefix`.
  void countIn(GraphOp graph, StringRef prefix,
               SymbolTableCollection &symbols) {
    for (Operation &op : graph.getBodyBlock()) {
      if (getMaseOp(&op) == "dropout") {
        auto node = cast<NodeOpInterface>(op);
        LLVM_DEBUG(llvm::dbgs() << "dropout: " << prefix << node.getNodeName()
                                << " (" << getNodeTarget(node) << ")\n");
        nodes.push_back(
            prefix.empty()
                ? node.getNodeNameAttr()
                : StringAttr::get(&getContext(), prefix + node.getNodeName()));
        if (isa<CallModuleOp>(node)) {
          ++numModules;
          ++moduleCount;
          ++modules[getNodeTarget(node)];
        } else {
          ++numFunctional;
          ++functionalCount;
          ++functional[getNodeTarget(node).split('.').first];
        }
        continue;
      }
      if (auto call = dyn_cast<CallModuleOp>(op))
        if (call.getBodyAttr())
          if (auto body = symbols.lookupNearestSymbolFrom<GraphOp>(
                  call, call.getBodyAttr()))
            countIn(body, (prefix + call.getName() + "/").str(), symbols);
    }
  }

  // Statistics are no-ops in release builds of LLVM: count separately.
  int64_t moduleCount = 0, functionalCount = 0;
  llvm::StringMap<int64_t> modules, functional;
  SmallVector<Attribute> nodes;
};
} // namespace
