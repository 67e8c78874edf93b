//===- RemoveDropout.cpp - Remove dropout nodes ---------------------------===//
//
// The MASE tutorial's transform pass: every use of a dropout node becomes a
// use of its input and the node is erased, for module and functional forms,
// in the graph and inside the bodies of other leaf modules. Module bodies no
// call refers to any more are erased too. In eval mode dropout is the
// identity, so the graph computes what it computed before.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/GraphCleanup.h"
#include "mav/Operators/OperatorInference.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/TransformPasses.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mav {
#define GEN_PASS_DEF_REMOVEDROPOUT
#include "mav/Passes/TransformPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {
struct RemoveDropout : mav::impl::RemoveDropoutBase<RemoveDropout> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    // The public graphs, then the bodies their non-dropout leaf calls reach,
    // found in the same walk that finds the dropouts.
    llvm::SetVector<GraphOp> graphs;
    for (GraphOp graph : getPublicGraphs(module))
      graphs.insert(graph);

    SmallVector<Attribute> removed;
    // Only a removed module call can leave a body unused.
    bool removedModuleCall = false;
    for (size_t index = 0; index < graphs.size(); ++index) {
      GraphOp graph = graphs[index];
      SmallVector<NodeOpInterface> dropouts;
      for (Operation &op : graph.getBodyBlock()) {
        if (getMaseOp(&op) == "dropout") {
          dropouts.push_back(cast<NodeOpInterface>(op));
          continue;
        }
        if (auto call = dyn_cast<CallModuleOp>(op))
          if (call.getBodyAttr())
            if (auto body = symbols.lookupNearestSymbolFrom<GraphOp>(
                    call, call.getBodyAttr()))
              graphs.insert(body);
      }
      if (dropouts.empty())
        continue;
      // A node inside a module body is named after the body: body/node.
      std::string prefix =
          graph.getSymVisibility().value_or("public") == "private"
              ? (graph.getSymName() + "/").str()
              : "";
      for (NodeOpInterface dropout : dropouts) {
        if (failed(bypass(dropout)))
          return signalPassFailure();
        removed.push_back(
            prefix.empty() ? dropout.getNodeNameAttr()
                           : StringAttr::get(&getContext(),
                                             prefix + dropout.getNodeName()));
        removedModuleCall |= isa<CallModuleOp>(dropout.getOperation());
        dropout->erase();
      }
      updateGraphSignature(graph);
    }
    numRemoved += removed.size();
    if (removedModuleCall)
      mav::eraseUnusedBodies(module);

    Builder builder(&getContext());
    recordPassOutputs(
        module, getArgument(),
        {builder.getNamedAttr("removed",
                              builder.getI64IntegerAttr(removed.size())),
         builder.getNamedAttr("nodes", builder.getArrayAttr(removed))});
    if (removed.empty())
      markAllAnalysesPreserved();
  }

  /// Replaces every use of the dropout's result with its input.
  LogicalResult bypass(NodeOpInterface dropout) {
    auto args = dropout->getAttrOfType<ArrayAttr>("args");
    auto input =
        args && !args.empty() ? args[0].dyn_cast<OperandRefAttr>() : nullptr;
    if (!input || dropout->getNumResults() != 1)
      return dropout->emitError()
             << "node '" << dropout.getNodeName()
             << "': a dropout must take its input as first argument and "
                "produce one value";
    dropout->getResult(0).replaceAllUsesWith(
        dropout->getOperand(input.getIndex()));
    return success();
  }
};
} // namespace
