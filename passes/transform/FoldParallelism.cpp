//===- FoldParallelism.cpp - Stream widths for a cycle or multiplier target
//===//
//
// FINN's SetFolding for mav's components: each node with a component takes
// the cheapest legal widths that keep it within a target in cycles per frame
// (given, or the lowest a multiplier budget allows), and its hardware
// metadata records them. The model is mav/Hardware/Folding.h.
//
//===----------------------------------------------------------------------===//

#include "mav/Hardware/Folding.h"
#include "mav/Hardware/PerformanceModel.h"
#include "mav/Hardware/StreamWidthParams.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/TransformPasses.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"

namespace mav {
#define GEN_PASS_DEF_FOLDPARALLELISM
#include "mav/Passes/TransformPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {

/// A node with a component and its foldings, cheapest first.
struct FoldedNode {
  HardwareNode node;
  std::vector<Folding> foldings;
};

struct FoldParallelism : mav::impl::FoldParallelismBase<FoldParallelism> {
  using FoldParallelismBase::FoldParallelismBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkOptions(module)))
      return signalPassFailure();
    std::vector<FoldedNode> nodes;
    SymbolTableCollection symbols;
    for (GraphOp graph : getPublicGraphs(module))
      for (auto node : graph.getBodyBlock().getOps<NodeOpInterface>())
        if (failed(collect(node, nodes, symbols)))
          return signalPassFailure();

    std::vector<std::vector<Folding>> foldings;
    for (const FoldedNode &folded : nodes)
      foldings.push_back(folded.foldings);
    int64_t target = targetCycles;
    bool budgeted = !isGiven(targetCycles);
    if (budgeted && !nodes.empty()) {
      std::optional<int64_t> found =
          findTargetForBudget(foldings, multiplierBudget);
      if (!found) {
        module.emitError() << "mav-fold-parallelism: multipliers="
                           << multiplierBudget.getValue() << " is below the "
                           << minimumMultipliers(foldings)
                           << " multipliers of the cheapest folding";
        return signalPassFailure();
      }
      target = *found;
    }

    Builder builder(&getContext());
    SmallVector<NamedAttribute> perNode;
    SmallVector<Attribute> unreached;
    int64_t total = 0, bottleneckCycles = -1;
    StringRef bottleneck;
    for (FoldedNode &folded : nodes) {
      bool reached;
      const Folding &folding = chooseFolding(folded.foldings, target, reached);
      if (!reached) {
        ++numUnreached;
        unreached.push_back(builder.getStringAttr(folded.node.name));
        folded.node.op->emitWarning()
            << "node '" << folded.node.name << "' cannot reach " << target
            << " cycles per frame: at its widest it takes " << folding.cycles;
      }
      write(folded.node, folding.widths);
      ++numFolded;
      total += folding.multipliers;
      if (folding.cycles > bottleneckCycles) {
        bottleneckCycles = folding.cycles;
        bottleneck = folded.node.name;
      }
      perNode.push_back(builder.getNamedAttr(
          folded.node.name,
          builder.getDictionaryAttr(
              {builder.getNamedAttr("in",
                                    builder.getI64ArrayAttr(folding.widths.in)),
               builder.getNamedAttr(
                   "out", builder.getI64IntegerAttr(folding.widths.out)),
               builder.getNamedAttr("cycles",
                                    builder.getI64IntegerAttr(folding.cycles)),
               builder.getNamedAttr(
                   "multipliers",
                   builder.getI64IntegerAttr(folding.multipliers))})));
    }
    numMultipliers += total;

    // The design as exported, by the performance model: its overlap, the
    // glue and the first frame's latency, which the per-node model lacks.
    std::optional<PerformanceReport> design = predictDesign(module);
    if (design && !budgeted && design->cyclesPerFrame > target)
      module.emitWarning() << "mav-fold-parallelism: the design takes "
                           << design->cyclesPerFrame
                           << " cycles per frame by the performance "
                           << "model, above the target of " << target
                           << ": its nodes do not overlap completely";

    SmallVector<NamedAttribute> outputs = {builder.getNamedAttr(
        "target_cycles", builder.getI64IntegerAttr(target))};
    if (budgeted)
      outputs.push_back(builder.getNamedAttr(
          "multiplier_budget", builder.getI64IntegerAttr(multiplierBudget)));
    outputs.append(
        {builder.getNamedAttr("nodes", builder.getDictionaryAttr(perNode)),
         builder.getNamedAttr("bottleneck", builder.getStringAttr(bottleneck)),
         builder.getNamedAttr(
             "bottleneck_cycles",
             builder.getI64IntegerAttr(std::max<int64_t>(bottleneckCycles, 0))),
         builder.getNamedAttr("multipliers", builder.getI64IntegerAttr(total)),

         builder.getNamedAttr("unreached", builder.getArrayAttr(unreached))});
    if (design)
      outputs.append(
          {builder.getNamedAttr(
               "design_cycles_per_frame",
               builder.getI64IntegerAttr(design->cyclesPerFrame)),
           builder.getNamedAttr("design_latency",
                                builder.getI64IntegerAttr(design->latency))});
    recordPassOutputs(module, getArgument(), outputs);
    markAllAnalysesPreserved();
  }

  /// The performance model of the module's design (its one public graph),
  /// none when the graph does not lower as a whole (a node without a
  /// component, several graphs).
  std::optional<PerformanceReport> predictDesign(ModuleOp module) {
    SmallVector<GraphOp> graphs = getPublicGraphs(module);
    if (graphs.size() != 1)
      return std::nullopt;
    ScopedDiagnosticHandler quiet(&getContext(),
                                  [](Diagnostic &) { return success(); });
    FailureOr<PerformanceReport> report = modelPerformance(graphs.front());
    if (failed(report))
      return std::nullopt;
    return std::move(*report);
  }

  /// Whether an option was given: on the command line, or set to a value.
  template <typename OptionT> static bool isGiven(const OptionT &option) {
    return option.hasValue() || option != 0;
  }

  /// Exactly one of target-cycles and multipliers, at least 1.
  LogicalResult checkOptions(ModuleOp module) {
    bool target = isGiven(targetCycles), budget = isGiven(multiplierBudget);
    if (target == budget)
      return module.emitError() << "mav-fold-parallelism: give exactly one of "
                                   "target-cycles=N and multipliers=M, got "
                                << (target ? "both" : "neither");
    int64_t value =
        target ? targetCycles.getValue() : multiplierBudget.getValue();
    if (value < 1)
      return module.emitError() << "mav-fold-parallelism: "
                                << (target ? "target-cycles" : "multipliers")
                                << " must be at least 1, got " << value;
    return success();
  }

  /// Adds `node` to `nodes` when its hardware metadata gives it a component;
  /// fails naming it when it has no hardware metadata, or metadata its
  /// component no longer agrees with.
  LogicalResult collect(NodeOpInterface node, std::vector<FoldedNode> &nodes,
                        SymbolTableCollection &symbols) {
    HardwareMetaAttr hardware = node.getHardwareMeta();
    if (!hardware)
      return node->emitError() << "node '" << node.getNodeName()
                               << "' has no hardware metadata: run "
                                  "-mav-add-hardware-metadata first";
    if (hardware.getToolchain() != "INTERNAL_RTL")
      return success();
    FoldedNode folded;
    std::string reason;
    if (!hardware.getVerilogParam() ||
        !describeHardwareNode(node, folded.node, symbols, reason) ||
        folded.node.component->module != hardware.getModule())
      return node->emitError()
             << "node '" << node.getNodeName() << "': its hardware metadata ("
             << hardware.getModule()
             << ") is stale: run -mav-add-hardware-metadata again";
    folded.foldings = enumerateFoldings(folded.node);
    nodes.push_back(std::move(folded));
    return success();
  }

  /// Records `widths` in the node's `verilog_param`.
  void write(const HardwareNode &node, const StreamWidths &widths) {
    auto hardware = cast<NodeOpInterface>(node.op).getHardwareMeta();
    NamedAttrList params(hardware.getVerilogParam());
    writeStreamWidths(node, widths, params, &getContext());
    node.op->setAttr(
        "hardware",
        HardwareMetaAttr::get(
            &getContext(), hardware.getIsImplicit(), hardware.getToolchain(),
            hardware.getModule(), hardware.getDeviceId(),
            hardware.getInterface(), params.getDictionary(&getContext()),
            hardware.getDependenceFiles(), hardware.getMaxParallelism()));
  }
};

} // namespace
