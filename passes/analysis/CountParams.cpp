//===- CountParams.cpp - Trainable parameters per node --------------------===//
//
// Every trainable parameter is counted once, at one node: a call_module owns
// its module's parameters; a parameter read by get_attr belongs to the first
// normal node its learnable-only path joins, or to the point where that path
// fans out. A tensor under two names (tied weights) is one parameter; a
// parameter no node uses is reported as unused and still counted.
//
//===----------------------------------------------------------------------===//

#include "mav/Passes/AnalysisPasses.h"
#include "mav/Passes/EntryExit.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace mav {
#define GEN_PASS_DEF_COUNTPARAMS
#include "mav/Passes/AnalysisPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {

/// The weight a name stands for: tied names resolve to the tensor's first.
StringRef canonicalName(WeightOp weight) {
  if (auto tied = weight.getTiedToAttr())
    return tied.getValue();
  return weight.getSymName();
}

struct CountParams : mav::impl::CountParamsBase<CountParams> {
  using CountParamsBase::CountParamsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    // Trainable parameters, by canonical name, with their size.
    llvm::MapVector<StringRef, int64_t> trainable;
    llvm::StringMap<SmallVector<WeightOp>> byModule;
    for (WeightOp weight : module.getOps<WeightOp>()) {
      if (isTrainableParameter(weight) && !weight.getTiedToAttr())
        trainable[weight.getSymName()] =
            weight.getWeightType().getNumElements();
      byModule[weight.getSymName().rsplit('.').first].push_back(weight);
    }

    llvm::StringMap<Operation *> owner;
    llvm::MapVector<Operation *, int64_t> perNode;
    auto assign = [&](WeightOp weight, Operation *node) {
      StringRef name = canonicalName(weight);
      auto it = trainable.find(name);
      if (!isTrainableParameter(weight) || it == trainable.end() ||
          !owner.try_emplace(name, node).second)
        return;
      perNode[node] += it->second;
    };

    // Modules own their parameters first (their submodules' included);
    // parameters read by get_attr go where their path leads.
    SmallVector<GraphOp> graphs = getPublicGraphs(module);
    // Module paths in order: the paths a call's target prefixes form one run,
    // found by binary search (a scan per call would be quadratic).
    SmallVector<std::pair<StringRef, ArrayRef<WeightOp>>> modules;
    for (auto &entry : byModule)
      modules.emplace_back(entry.getKey(), entry.getValue());
    llvm::sort(modules, llvm::less_first());
    for (GraphOp graph : graphs)
      for (auto call : graph.getBodyBlock().getOps<CallModuleOp>()) {
        StringRef target = call.getTarget();
        auto it = llvm::lower_bound(
            modules, target,
            [](const auto &entry, StringRef key) { return entry.first < key; });
        for (; it != modules.end() && it->first.starts_with(target); ++it) {
          StringRef path = it->first;
          if (path.size() == target.size() || path[target.size()] == '.')
            for (WeightOp weight : it->second)
              assign(weight, call);
        }
      }
    for (GraphOp graph : graphs) {
      EntryExitAnalysis analysis(graph, symbols);
      for (auto getAttr : graph.getBodyBlock().getOps<GetAttrOp>())
        if (auto weight = symbols.lookupNearestSymbolFrom<WeightOp>(
                getAttr, getAttr.getTargetAttr()))
          assign(weight, followLearnablePath(getAttr, analysis));
    }

    Builder builder(&getContext());
    int64_t total = 0;
    SmallVector<StringRef> unused;
    for (auto [name, size] : trainable) {
      total += size;
      if (!owner.count(name))
        unused.push_back(name);
    }
    for (auto [node, count] : perNode)
      setSoftwareMetadata(
          node,
          {builder.getNamedAttr("params", builder.getI64IntegerAttr(count))});

    SmallVector<std::pair<Operation *, int64_t>> ranked(perNode.begin(),
                                                        perNode.end());
    llvm::stable_sort(ranked,
                      [](auto &a, auto &b) { return a.second > b.second; });
    SmallVector<Attribute> top;
    for (auto [node, count] : llvm::ArrayRef(ranked).take_front(topCount))
      top.push_back(builder.getDictionaryAttr(
          {builder.getNamedAttr("node",
                                builder.getStringAttr(
                                    cast<NodeOpInterface>(node).getNodeName())),
           builder.getNamedAttr("params", builder.getI64IntegerAttr(count))}));
    recordPassOutputs(
        module, getArgument(),
        {builder.getNamedAttr("total", builder.getI64IntegerAttr(total)),
         builder.getNamedAttr("top", builder.getArrayAttr(top)),
         builder.getNamedAttr("unused", builder.getStrArrayAttr(unused))});
    markAllAnalysesPreserved();
  }

  /// Where a parameter read at `start` is counted: down its learnable-only
  /// path to the first node that is not learnable, or to where it fans out.
  static Operation *followLearnablePath(Operation *start,
                                        const EntryExitAnalysis &analysis) {
    Operation *current = start;
    while (analysis.getEntry(current) != EntryType::LearnSplit) {
      SmallVector<Operation *> users(current->getUsers().begin(),
                                     current->getUsers().end());
      if (users.size() != 1 || isa<OutputOp>(users.front()))
        return current;
      current = users.front();
      if (!analysis.isLearnable(current))
        return current;
    }
    return current;
  }
};
} // namespace
