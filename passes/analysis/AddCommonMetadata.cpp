//===- AddCommonMetadata.cpp - Operator inference and shape propagation ---===//

#include "mav/IR/GraphCleanup.h"
#include "mav/IR/NodeMetadata.h"
#include "mav/Operators/OpRegistry.h"
#include "mav/Operators/OperatorInference.h"
#include "mav/Passes/AnalysisPasses.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/Passes.h"
#include "mav/Runtime/ShapePropagation.h"

namespace mav {
#define GEN_PASS_DEF_ADDCOMMONMETADATA
#include "mav/Passes/AnalysisPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {

/// The operator a node computes, as MASE names it. Never from the node name.
struct InferredOperator {
  StringRef maseOp;
  StringRef maseType;
  StringRef target;
};

InferredOperator inferOperator(Operation *op) {
  if (isa<GetAttrOp>(op))
    return InferredOperator{"constant", stringifyMaseType(MaseType::GetAttr),
                            ""};
  const OpInfo *info = lookupNodeOperator(op);
  if (!info)
    return InferredOperator{"", "", getNodeTarget(op)};
  return InferredOperator{info->maseOp, stringifyMaseType(info->maseType),
                          getNodeTarget(op)};
}

/// inferOperator, remembered for each call target: a graph calls a few
/// targets many times.
class OperatorCache {
public:
  InferredOperator get(Operation *op) {
    Attribute target;
    if (auto call = dyn_cast<CallFunctionOp>(op))
      target = call.getTargetAttr();
    else if (auto call = dyn_cast<CallMethodOp>(op))
      target = call.getTargetAttr();
    else
      return inferOperator(op);
    auto [slot, inserted] = byTarget.try_emplace(
        {op->getName().getAsOpaquePointer(), target}, InferredOperator());
    if (inserted)
      slot->second = inferOperator(op);
    return slot->second;
  }

private:
  llvm::DenseMap<std::pair<void *, Attribute>, InferredOperator> byTarget;
};

struct AddCommonMetadata : mav::impl::AddCommonMetadataBase<AddCommonMetadata> {
  using AddCommonMetadataBase::AddCommonMetadataBase;

  void runOnOperation() override {
    if (device != "meta" && device != "cpu") {
      getOperation().emitError() << "mav-add-common-metadata: device must be "
                                    "'meta' or 'cpu', got '"
                                 << device << "'";
      return signalPassFailure();
    }
    if (shapeEngine != "auto" && shapeEngine != "native" &&
        shapeEngine != "torch") {
      getOperation().emitError()
          << "mav-add-common-metadata: shape-engine must be 'auto', "
             "'native' or 'torch', got '"
          << shapeEngine << "'";
      return signalPassFailure();
    }
    for (GraphOp graph : getPublicGraphs(getOperation()))
      if (failed(annotate(graph)))
        return signalPassFailure();
  }

  /// Reports the nodes of unknown operators: errors unless allowed.
  LogicalResult inferOperators(GraphOp graph, OperatorCache &operators) {
    bool ok = true;
    for (auto node : graph.getBodyBlock().getOps<NodeOpInterface>()) {
      InferredOperator inferred = operators.get(node);
      if (inferred.maseOp.empty()) {
        ++numUnknown;
        auto diag = allowUnknown ? node->emitWarning() : node->emitError();
        diag << "node '" << node.getNodeName() << "': unknown operator '"
             << inferred.target
             << "': add it to the op registry (lib/Operators/OpTable.cpp)";
        ok &= allowUnknown.getValue();
      }
    }
    return success(ok);
  }

  FailureOr<SmallVector<RankedTensorType>> dummyInputs(GraphOp graph) {
    SmallVector<RankedTensorType> types;
    if (!dummyInput.empty()) {
      if (dummyInput.size() != graph.getBodyBlock().getNumArguments())
        return graph.emitError()
               << "dummy-input gives " << dummyInput.size()
               << " inputs, graph '" << graph.getSymName() << "' takes "
               << graph.getBodyBlock().getNumArguments();
      for (const std::string &spec : dummyInput) {
        FailureOr<RankedTensorType> type = parseShapeSpec(spec, &getContext());
        if (failed(type))
          return graph.emitError() << "dummy-input '" << spec
                                   << "' is not a type such as "
                                      "1x3x224x224xf32";
        types.push_back(*type);
      }
      return types;
    }
    for (auto [argument, name] :
         llvm::zip(graph.getBodyBlock().getArguments(), graph.getArgNames())) {
      auto type = argument.getType().dyn_cast<RankedTensorType>();
      if (!type || !type.hasStaticShape())
        return graph.emitError()
               << "placeholder '" << name.cast<StringAttr>().getValue()
               << "' has no static shape: import with --input-shape or give "
                  "dummy-input";
      types.push_back(type);
    }
    return types;
  }

  LogicalResult annotate(GraphOp graph) {
    OperatorCache operators;
    if (failed(inferOperators(graph, operators)))
      return failure();
    FailureOr<SmallVector<RankedTensorType>> inputs = dummyInputs(graph);
    if (failed(inputs))
      return failure();

    ShapePropagationOptions options;
    options.onMeta = device == "meta";
    options.addValue = addValue;
    options.engine = shapeEngine == "native"  ? ShapeEngine::Native
                     : shapeEngine == "torch" ? ShapeEngine::Torch
                                              : ShapeEngine::Auto;
    bool native = false;
    options.usedNativeRules = &native;
    LeanCache leaned;
    SmallVector<Attribute> outputs;
    MLIRContext *context = &getContext();
    // Metadata is stored without what the types say, so each node's
    // operands and results take their types before its metadata is set:
    // the placeholders first. A failure below fails the pass.
    Block &block = graph.getBodyBlock();
    for (auto [argument, type] : llvm::zip(block.getArguments(), *inputs))
      argument.setType(type);
    auto onNode = [&](Operation *op, const NodeShapes &shapes) {
      for (auto [result, type] :
           llvm::zip(op->getResults(), shapes.resultTypes))
        if (type)
          result.setType(type);
      InferredOperator inferred = operators.get(op);
      if (inferred.maseOp.empty())
        inferred.maseOp = "unknown";
      setCommonMeta(op, inferred.maseType, inferred.maseOp, shapes.args,
                    shapes.results, &leaned);
      ++numNodes;
    };
    if (failed(propagateShapes(graph, *inputs, options, onNode, outputs)))
      return failure();
    numNative += native;

    // The graph's signature takes the refined types.
    SmallVector<Attribute> inputMeta;
    for (auto [type, name] : llvm::zip(*inputs, graph.getArgNames())) {
      inputMeta.push_back(
          ValueMetaAttr::get(context, name.cast<StringAttr>().getValue(),
                             DenseI64ArrayAttr::get(context, type.getShape()),
                             "", "", {}, {}, {}));
    }
    updateGraphSignature(graph);
    setGraphMetadata(graph, inputMeta, outputs);
    return success();
  }
};
} // namespace
