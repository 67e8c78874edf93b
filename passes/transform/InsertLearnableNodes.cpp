//===- InsertLearnableNodes.cpp - Learnable nodes at learn-split points ---===//
//
// After each learn-split node (the first fan-out on a learnable-only path) a
// mav.learnable node takes the node's value and every other use of it: the
// graph computes what it computed before, and shows where parameters join.
// The learnable node carries the parameters behind it. A learn-split node
// already followed by one is left alone, so a second run inserts nothing.
//
//===----------------------------------------------------------------------===//

#include "mav/Passes/EntryExit.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/TransformPasses.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mav {
#define GEN_PASS_DEF_INSERTLEARNABLENODES
#include "mav/Passes/TransformPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {
struct InsertLearnableNodes
    : mav::impl::InsertLearnableNodesBase<InsertLearnableNodes> {
  void runOnOperation() override {
    SymbolTableCollection symbols;
    std::vector<std::string> inserted;
    for (GraphOp graph : getPublicGraphs(getOperation())) {
      EntryExitAnalysis analysis(graph, symbols);
      SmallVector<Operation *> splits;
      llvm::StringSet<> names;
      for (auto node : graph.getBodyBlock().getOps<NodeOpInterface>()) {
        names.insert(node.getNodeName());
        if (analysis.getEntry(node) == EntryType::LearnSplit)
          splits.push_back(node);
      }
      for (Operation *split : splits)
        inserted.push_back(insertAfter(split, analysis, symbols, names).str());
    }
    numInserted += inserted.size();
    Builder builder(&getContext());
    recordPassOutputs(
        getOperation(), getArgument(),
        {builder.getNamedAttr("inserted",
                              builder.getI64IntegerAttr(inserted.size())),
         builder.getNamedAttr("nodes",
                              builder.getStrArrayAttr(SmallVector<StringRef>(
                                  inserted.begin(), inserted.end())))});
    if (inserted.empty())
      markAllAnalysesPreserved();
  }

  /// The trainable parameters read on the learnable-only paths into `node`.
  static void collectParameters(Operation *node,
                                const EntryExitAnalysis &analysis,
                                SymbolTableCollection &symbols,
                                llvm::SetVector<WeightOp> &parameters) {
    if (auto getAttr = dyn_cast<GetAttrOp>(node)) {
      auto weight = symbols.lookupNearestSymbolFrom<WeightOp>(
          getAttr, getAttr.getTargetAttr());
      if (weight && isTrainableParameter(weight))
        parameters.insert(weight);
      return;
    }
    for (Value operand : node->getOperands())
      if (Operation *producer = operand.getDefiningOp())
        if (analysis.isLearnable(producer))
          collectParameters(producer, analysis, symbols, parameters);
  }

  StringRef insertAfter(Operation *split, const EntryExitAnalysis &analysis,
                        SymbolTableCollection &symbols,
                        llvm::StringSet<> &names) {
    llvm::SetVector<WeightOp> parameters;
    collectParameters(split, analysis, symbols, parameters);
    int64_t count = 0;
    SmallVector<StringRef> parameterNames;
    for (WeightOp weight : parameters) {
      count += weight.getWeightType().getNumElements();
      parameterNames.push_back(weight.getSymName());
    }

    std::string base =
        (cast<NodeOpInterface>(split).getNodeName() + "_learnable").str();
    std::string name = base;
    for (unsigned suffix = 1; !names.insert(name).second; ++suffix)
      name = base + "_" + std::to_string(suffix);

    OpBuilder builder(split->getContext());
    builder.setInsertionPointAfter(split);
    Value value = split->getResult(0);
    auto learnable = builder.create<LearnableOp>(
        split->getLoc(), value.getType(), value,
        builder.getI64IntegerAttr(count),
        builder.getStrArrayAttr(parameterNames), builder.getStringAttr(name),
        split->getAttr("scope"), metadataFor(split, builder),
        split->getAttr("hardware")
            ? builder.getAttr<HardwareMetaAttr>(
                  BoolAttr(), "", "", IntegerAttr(), DictionaryAttr(),
                  DictionaryAttr(), ArrayAttr(), DenseI64ArrayAttr())
            : Attribute(),
        split->getAttr("software")
            ? SoftwareMetaAttr::get(builder.getContext(),
                                    builder.getDictionaryAttr({}))
            : Attribute());
    value.replaceAllUsesExcept(learnable.getResult(), learnable);
    if (auto common =
            learnable.getCommonAttr().dyn_cast_or_null<CommonMetaAttr>())
      setCommonMeta(learnable, common);
    return learnable.getName();
  }

  /// Common metadata of the learnable node when the graph was raised: it
  /// passes the split node's value through.
  static Attribute metadataFor(Operation *split, OpBuilder &builder) {
    CommonMetaAttr common = cast<NodeOpInterface>(split).getCommonMeta();
    if (!common)
      return {};
    MLIRContext *context = builder.getContext();
    SmallVector<Attribute> args, results;
    if (ArrayAttr splitResults = common.getResults())
      if (!splitResults.empty()) {
        auto value = splitResults[0].cast<ValueMetaAttr>();
        auto renamed = [&](StringRef name) {
          return ValueMetaAttr::get(context, name, value.getShape(),
                                    value.getTorchDtype(), value.getType(),
                                    value.getPrecision(), value.getStride(),
                                    value.getValue());
        };
        args.push_back(renamed("data_in_0"));
        results.push_back(renamed("data_out_0"));
      }
    return CommonMetaAttr::get(context, "implicit_func", "learnable",
                               builder.getArrayAttr(args),
                               builder.getArrayAttr(results));
  }
};
} // namespace
