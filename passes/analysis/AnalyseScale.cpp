//===- AnalyseScale.cpp - Tensor scales, forward and backward -------------===//
//
// The numbers come from mav::analyseScale (the libtorch side); this pass
// writes them into software metadata and pass outputs, and prints the
// listing.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/WeightData.h"
#include "mav/Passes/AnalysisPasses.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/Passes.h"
#include "mav/Runtime/GraphAnalyses.h"
#include "mav/Support/AtomicOutput.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

namespace mav {
#define GEN_PASS_DEF_ANALYSESCALE
#include "mav/Passes/AnalysisPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {

/// The module a node belongs to, for grouping: a call_module's parent
/// path, else its scope's path; "" at the top.
std::string scopeOf(NodeOpInterface node) {
  if (auto call = dyn_cast<CallModuleOp>(node.getOperation()))
    return StringRef(call.getTarget()).rsplit('.').first == call.getTarget()
               ? ""
               : StringRef(call.getTarget()).rsplit('.').first.str();
  if (ScopeAttr scope = node.getNodeScope())
    return scope.getPath().str();
  return "";
}

std::string formatScale(std::optional<double> value) {
  if (!value)
    return "n/a";
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.3g", *value);
  return text;
}

struct AnalyseScale : mav::impl::AnalyseScaleBase<AnalyseScale> {
  using AnalyseScaleBase::AnalyseScaleBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    RandomDraw draw;
    draw.seed = seed;
    draw.scale = scale;
    if (distribution == "uniform")
      draw.distribution = InputDistribution::Uniform;
    else if (distribution != "normal") {
      module.emitError() << "mav-analyse-scale: distribution must be normal "
                            "or uniform, got '"
                         << distribution << "'";
      return signalPassFailure();
    }
    if (threshold <= 1.0) {
      module.emitError() << "mav-analyse-scale: threshold must be above 1";
      return signalPassFailure();
    }
    auto graph = module.lookupSymbol<GraphOp>("forward");
    if (!graph) {
      module.emitError() << "mav-analyse-scale: no mav.graph @forward";
      return signalPassFailure();
    }
    ScaleAnalysisResult result;
    if (failed(analyseScale(graph, draw, backward, result)))
      return signalPassFailure();

    MLIRContext *context = &getContext();
    Builder builder(context);
    // One column per statistic: each node's software entry `key = value`
    // and the pass output `key = {node = value, ...}`. The dictionaries are
    // built once at the end: inserting node by node into a sorted list
    // would be quadratic in the number of nodes.
    struct Column {
      StringRef key;
      SmallVector<NamedAttribute> byNode;
    };
    Column columns[] = {{"fwd_std", {}},
                        {"fwd_mean", {}},
                        {"fwd_abs_max", {}},
                        {"fwd_zero_fraction", {}},
                        {"bwd_std", {}}};
    SmallVector<Attribute> flagged;
    for (const ScaleAnalysisResult::Node &entry : result.nodes) {
      auto node = cast<NodeOpInterface>(entry.op);
      std::optional<double> values[] = {
          entry.forward.std, entry.forward.mean, entry.forward.absMax,
          entry.forward.zeroFraction, entry.backwardStd};
      SmallVector<NamedAttribute> software;
      for (auto [column, value] : llvm::zip(columns, values)) {
        if (!value)
          continue;
        FloatAttr attr = builder.getF64FloatAttr(*value);
        software.push_back(builder.getNamedAttr(column.key, attr));
        column.byNode.push_back({node.getNodeNameAttr(), attr});
      }
      if (isBadlyScaled(entry))
        flagged.push_back(node.getNodeNameAttr());
      setSoftwareMetadata(entry.op, software);
    }
    SmallVector<NamedAttribute> gradStd;
    for (ScaleAnalysisResult::Weight weight : result.weights)
      if (weight.gradStd)
        gradStd.push_back({weight.op.getSymNameAttr(),
                           builder.getF64FloatAttr(*weight.gradStd)});
    DictionaryAttr gradStdByName = DictionaryAttr::get(context, gradStd);
    recordParameterGradients(result, gradStdByName);

    SmallVector<NamedAttribute> outputs;
    for (Column &column : columns)
      if (backward || column.key != "bwd_std")
        outputs.push_back(builder.getNamedAttr(
            column.key, DictionaryAttr::get(context, column.byNode)));
    outputs.push_back(
        builder.getNamedAttr("flagged", builder.getArrayAttr(flagged)));
    if (backward)
      outputs.push_back(builder.getNamedAttr("grad_std", gradStdByName));
    recordPassOutputs(module, getArgument(), outputs);
    if (!listing.empty() && failed(writeListing(result)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  /// `grad_std` (parameter -> std) in the software metadata of each node
  /// that reads parameters.
  void recordParameterGradients(const ScaleAnalysisResult &result,
                                DictionaryAttr gradStd) {
    Builder builder(&getContext());
    SymbolTableCollection symbols;
    DenseMap<Operation *, unsigned> rank = getWeightRanks(getOperation());
    for (const ScaleAnalysisResult::Node &entry : result.nodes) {
      NamedAttrList grads;
      for (WeightOp weight : getNodeParameters(entry.op, symbols, rank))
        if (Attribute value = gradStd.get(weight.getSymName()))
          grads.set(weight.getSymName(), value);
      if (!grads.empty())
        setSoftwareMetadata(
            entry.op, {builder.getNamedAttr(
                          "grad_std", grads.getDictionary(&getContext()))});
    }
  }

  bool isBadlyScaled(const ScaleAnalysisResult::Node &entry) const {
    auto bad = [&](double std) {
      return std > threshold || std < 1.0 / threshold;
    };
    return bad(entry.forward.std) ||
           (entry.backwardStd && bad(*entry.backwardStd));
  }

  /// One line per node, `%name = op(...)  (-> fwd, <- bwd)`, under a
  /// `# scope` line whenever the scope changes; `<<` marks a flagged node.
  LogicalResult writeListing(const ScaleAnalysisResult &result) {
    if (llvm::Error error =
            mav::writeFileAtomically(listing, [&](llvm::raw_ostream &os) {
              printListing(result, os);
              return llvm::Error::success();
            })) {
      getOperation().emitError()
          << "mav-analyse-scale: cannot write " << listing << ": "
          << llvm::toString(std::move(error));
      return failure();
    }
    return success();
  }

  void printListing(const ScaleAnalysisResult &result,
                    llvm::raw_ostream &os) const {
    std::optional<std::string> current;
    for (const ScaleAnalysisResult::Node &entry : result.nodes) {
      auto node = cast<NodeOpInterface>(entry.op);
      std::string scope = scopeOf(node);
      if (!current || *current != scope) {
        os << "# " << (scope.empty() ? "(top)" : scope) << "\n";
        current = scope;
      }
      std::string line;
      llvm::raw_string_ostream text(line);
      text << "  %" << node.getNodeName() << " = ";
      CommonMetaAttr common = node.getCommonMeta();
      text << (common && !common.getMaseOp().empty()
                   ? common.getMaseOp()
                   : entry.op->getName().getStringRef());
      text << "(";
      llvm::interleaveComma(entry.op->getOperands(), text, [&](Value value) {
        if (auto producer = value.getDefiningOp<NodeOpInterface>())
          text << "%" << producer.getNodeName();
        else
          text << "%arg";
      });
      text << ")";
      os << llvm::left_justify(line, 48) << " (-> "
         << formatScale(entry.forward.std) << ", <- "
         << formatScale(entry.backwardStd) << ")"
         << (isBadlyScaled(entry) ? "  <<" : "") << "\n";
    }
  }
};

} // namespace

static mav::NeedsTorchRuntime<AnalyseScale> needsTorch;
