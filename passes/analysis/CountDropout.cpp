//===- CountDropout.cpp - Count dropout by operator -----------------------===//
//
// The MASE tutorial's analysis pass, by operator rather than by name: a node
// is a dropout when what it computes is (mase_op "dropout"), whatever it is
// called. Calls into leaf modules that are not dropouts are looked into, so
// that functional dropout inside a MultiheadAttention counts too, once per
// call.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/OperatorInference.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "mav-count-dropout"

namespace mav {
#define GEN_PASS_DEF_COUNTDROPOUT
#include "mav/Passes/Passes.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {
struct CountDropout : mav::impl::CountDropoutBase<CountDropout> {
  void runOnOperation() override {
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
         builder.getNamedAttr("nodes",
                              builder.getStrArrayAttr(SmallVector<StringRef>(
                                  nodes.begin(), nodes.end())))});
    markAllAnalysesPreserved();
  }

  /// Counts the dropouts of `graph`, whose node names get `prefix`.
  void countIn(GraphOp graph, const std::string &prefix,
               SymbolTableCollection &symbols) {
    for (auto node : graph.getBodyBlock().getOps<NodeOpInterface>()) {
      std::string name = prefix + node.getNodeName().str();
      if (getMaseOp(node) == "dropout") {
        LLVM_DEBUG(llvm::dbgs() << "dropout: " << name << " ("
                                << getNodeTarget(node) << ")\n");
        nodes.push_back(name);
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
      if (auto call = dyn_cast<CallModuleOp>(node.getOperation()))
        if (call.getBodyAttr())
          if (auto body = symbols.lookupNearestSymbolFrom<GraphOp>(
                  call, call.getBodyAttr()))
            countIn(body, name + "/", symbols);
    }
  }

  // Statistics are no-ops in release builds of LLVM: count separately.
  int64_t moduleCount = 0, functionalCount = 0;
  llvm::StringMap<int64_t> modules, functional;
  std::vector<std::string> nodes;
};
} // namespace
