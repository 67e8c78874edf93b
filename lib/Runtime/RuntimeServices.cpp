//===- RuntimeServices.cpp - The runtime's libtorch-free entry points ----===//
//
// Shape propagation tries mav's native rules first; the rest, and shape
// propagation where the rules fall short, call the runtime's libtorch
// services (RuntimeServices.h), loading the backend if need be.
//
//===----------------------------------------------------------------------===//

#include "RuntimeServices.h"
#include "mav/Operators/NativeShapes.h"

using namespace mlir;
using namespace mav;

LogicalResult
mav::propagateShapes(GraphOp graph, ArrayRef<RankedTensorType> inputTypes,
                     const ShapePropagationOptions &options,
                     function_ref<void(Operation *, const NodeShapes &)> onNode,
                     SmallVectorImpl<Attribute> &outputs) {
  if (options.onMeta && options.engine != ShapeEngine::Torch) {
    NativeShapeGap gap;
    if (succeeded(
            propagateShapesNatively(graph, inputTypes, onNode, outputs, gap))) {
      if (options.usedNativeRules)
        *options.usedNativeRules = true;
      return success();
    }
    outputs.clear();
    auto node = dyn_cast<NodeOpInterface>(gap.node);
    std::string name =
        node ? "node '" + node.getNodeName().str() + "'" : "graph";
    if (options.engine == ShapeEngine::Native)
      return gap.node->emitError()
             << name << ": " << gap.reason
             << " (shape-engine=native needs a rule for every node)";
    gap.node->emitRemark() << name << ": " << gap.reason
                           << "; shapes from libtorch's meta device";
  }
  return runtime_services::propagateShapes.call(graph, graph, inputTypes,
                                                options, onNode, outputs);
}

LogicalResult mav::analyseScale(GraphOp graph, const RandomDraw &draw,
                                bool backward, ScaleAnalysisResult &result) {
  return runtime_services::analyseScale.call(graph, graph, draw, backward,
                                             result);
}

LogicalResult mav::recordExecOrder(GraphOp graph, const RandomDraw &draw,
                                   bool backward, ExecOrderResult &result) {
  return runtime_services::recordExecOrder.call(graph, graph, draw, backward,
                                                result);
}

LogicalResult mav::observeValueRanges(GraphOp graph,
                                      const RangeObservation &observation,
                                      ValueRangeResult &result) {
  return runtime_services::observeValueRanges.call(graph, graph, observation,
                                                   result);
}
