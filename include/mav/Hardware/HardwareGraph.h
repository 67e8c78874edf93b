//===- HardwareGraph.h - A graph as the hardware flow sees it ---*- C++ -*-===//
//
// The one place that decides what a node is in hardware: which component
// computes it, with which sizes, kernel, stride and padding, and which
// weights. The fixed-point model (mav-run), -mav-add-hardware-metadata,
// -mav-quantize and --export-verilog all read a graph through it, so they
// agree on every node. Libtorch-free.
//
// Streams are per tensor, row-major; the first dimension of every tensor is
// the batch (for linear, every dimension but the last).
//
//===----------------------------------------------------------------------===//

#ifndef MAV_HARDWARE_HARDWAREGRAPH_H
#define MAV_HARDWARE_HARDWAREGRAPH_H

#include "mav/Hardware/Component.h"
#include "mav/Hardware/FixedPoint.h"
#include "mav/IR/MavOps.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace mav {

/// One stream node: the graph input or a node with a component.
struct HardwareNode {
  /// The mav node; null for the graph input.
  mlir::Operation *op = nullptr;
  /// The FX name (the placeholder's for the input).
  std::string name;
  /// The component computing it; null for the graph input.
  const Component *component = nullptr;
  /// The format of the node's inputs, weights and result.
  FixedFormat format;
  /// The mav node's operands that are the component's stream inputs
  /// (data_in_0, data_in_1, ...), as its describe rule chose them.
  llvm::SmallVector<unsigned, 2> streamOperands = {0};
  /// Producers of the stream inputs, as node indices.
  llvm::SmallVector<unsigned, 2> operands;
  /// Full shapes of the first stream input and of the result.
  llvm::SmallVector<int64_t> inShape, outShape;
  /// How many leading dimensions are batch: the component computes each
  /// item of the rest on its own (an image; for linear, a vector).
  unsigned batchDims = 1;
  /// Conv2d and pools: kernel, stride, padding (square stride / padding).
  int64_t kernelH = 1, kernelW = 1, stride = 1, padding = 0;
  /// Average pools: the reciprocal's fraction bits.
  int64_t recipFrac = 0;
  /// Linear and conv2d: the weights, torch layout; bias empty when absent.
  WeightOp weight, bias;

  int64_t inNumel() const;
  int64_t outNumel() const;
  /// The number of items (the product of the batch dimensions).
  int64_t items() const;
};

/// A graph lowered to stream nodes in topological order; node 0 is the
/// graph input.
struct HardwareGraph {
  std::vector<HardwareNode> nodes;
  /// The node whose result the graph returns.
  unsigned output = 0;
};

/// Describes what `node` computes in hardware, without its format. Returns
/// false with `reason` set (e.g. "groups 2 is not supported by
/// fixed_conv2d") when the node has no component or does not fit it.
/// `symbols` caches symbol lookups (bodies, weights) across calls.
bool describeHardwareNode(NodeOpInterface node, HardwareNode &result,
                          mlir::SymbolTableCollection &symbols,
                          std::string &reason);

/// Lowers a quantized graph: every node must fit a component and carry a
/// fixed-point format (-mav-quantize). Errors are diagnostics naming the
/// node and its operator.
mlir::FailureOr<HardwareGraph> lowerToHardware(GraphOp graph);

/// The format recorded in a `#mav.value`, if it is fixed point.
std::optional<FixedFormat> getFixedFormat(ValueMetaAttr value);

/// A weight's words in `format`, in torch's element order; `count` zeros when
/// the weight is null (a layer without bias). Fails with a diagnostic at the
/// weight when its values are missing or not f32.
mlir::FailureOr<std::vector<int64_t>>
quantizeWeight(WeightOp weight, FixedFormat format, size_t count);

} // namespace mav

#endif // MAV_HARDWARE_HARDWAREGRAPH_H
