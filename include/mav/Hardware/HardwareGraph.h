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
  /// Two-input components that are not elementwise: the second input's.
  llvm::SmallVector<int64_t> secondShape;
  /// Words per beat on each stream input and on the result (the node's
  /// hardware metadata; 1 without).
  StreamWidths widths = {{1}, 1};
  /// How many leading dimensions are batch: the component computes each
  /// item of the rest on its own (an image; for linear, a vector).
  unsigned batchDims = 1;
  /// Conv2d and pools: kernel, stride, padding (square stride / padding);
  /// the output's height and width are outShape's.
  int64_t kernelH = 1, kernelW = 1, stride = 1, padding = 0;
  /// Conv2d: the groups (input and output channels split into as many).
  int64_t groups = 1;
  /// Average pools, hardswish, hardsigmoid: the reciprocal's fraction bits.
  int64_t recipFrac = 0;
  /// Clamps (relu6, hardtanh): the bounds, as reals, and as words of the
  /// node's format once it has one.
  double clampMin = 0, clampMax = 0;
  int64_t clampMinWord = 0, clampMaxWord = 0;
  /// Linear and conv2d: the weights, torch layout; bias empty when absent.
  WeightOp weight, bias;
  /// Glue FIFOs: their depth in beats.
  int64_t fifoDepth = 0;
  /// Reorders: per item, output word k is input word base + sum_d j_d *
  /// strides[d], (j_d) the row-major index of k over `sizes`.
  llvm::SmallVector<int64_t, 6> reorderSizes, reorderStrides;
  int64_t reorderBase = 0;
  /// Scales: the constant factor, and its word once the node has a format.
  double scale = 1;
  int64_t scaleWord = 0;
  /// LayerNorm: epsilon, and its term of the integer variance,
  /// round(eps * D^2 * 2^(2F)), once the node has a format.
  double epsilon = 0;
  int64_t epsilonTerm = 0;

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
/// fixed-point format (-mav-quantize). A node's stream widths are those of
/// its hardware metadata (the product of each port's `*_PARALLELISM_DIM_d`)
/// and must be legal for its component; without metadata they are 1. The
/// graph input streams at the width its first consumer reads. Errors are
/// diagnostics naming the node and its operator.
mlir::FailureOr<HardwareGraph> lowerToHardware(GraphOp graph);

/// The dimension of a tensor of rank `rank` that a component streams in
/// parallel, counted from the innermost as MASE's `*_DIM_d` are: the
/// channels of an image (N, C, H, W), else the innermost.
unsigned getParallelDim(size_t rank);

/// The `verilog_param` prefix of a node's stream input `port`: MASE's name
/// of the node's argument, "DATA_IN_<operand>".
std::string getStreamPortName(const HardwareNode &node, unsigned port);

/// The words per beat `verilog_param` gives the argument `prefix`
/// ("DATA_IN_0", "DATA_OUT_0"): the product of its `*_PARALLELISM_DIM_d`;
/// none when it has none (a tensor of a list argument, which MASE's
/// metadata does not describe, streams at the result's width).
std::optional<int64_t> getPortWidth(mlir::DictionaryAttr params,
                                    llvm::StringRef prefix);

/// The depth of a FIFO that holds a whole tensor of `words` words at
/// `wordsPerBeat`: its beats (batch included), rounded up to a power of
/// two, at least 2.
int64_t getWholeTensorFifoDepth(int64_t words, int64_t wordsPerBeat);

/// The depth of the FIFO on each branch of a fork of `producer`'s result:
/// two whole tensors at the producer's width. The buffered components take
/// a whole tensor before they answer, so a skip path must hold all of it
/// or the fork would deadlock; the second tensor lets the fork take the
/// next frame while a join still waits for the other branch, so that the
/// branches overlap (docs/Hardware.md, "The top level").
int64_t getBranchFifoDepth(const HardwareNode &producer);

/// The glue the design puts on the stream from a producer to one input of a
/// consumer, in the order of the fields (docs/Hardware.md, "The top
/// level").
struct EdgeGlue {
  /// The depth of a decoupling fixed_fifo (0: none), one whole tensor at
  /// the producer's width, first: the producer is buffered (it loads,
  /// computes, then emits its result), and the FIFO lets it emit its result
  /// at its own rate and take the next frame while the consumer is still
  /// busy, instead of taking turns with it. Not where a fork's branch FIFO
  /// already does this.
  int64_t fifoDepth = 0;
  /// A fixed_cast: the formats differ.
  bool cast = false;
  /// A fixed_width_convert: the widths differ.
  bool convert = false;
};

/// The glue on the stream from node `producer` to input `port` of node
/// `consumer`; `branched` when the stream is a branch of a fork.
EdgeGlue planEdgeGlue(const HardwareGraph &graph, unsigned producer,
                      unsigned consumer, unsigned port, bool branched);

/// Checks that a lowered node carries hardware metadata computed for its
/// current format and component (-mav-add-hardware-metadata after
/// -mav-quantize); the error names the node.
mlir::LogicalResult checkHardwareMetadata(const HardwareNode &node);

/// The largest divisor of `extent` that is at most `cap` (at least 1).
int64_t largestDivisorAtMost(int64_t extent, int64_t cap);

/// The format recorded in a `#mav.value`, if it is fixed point.
std::optional<FixedFormat> getFixedFormat(ValueMetaAttr value);

/// The float values of every linear and conv2d node's weight and bias, by
/// node index (empty where a node has none), for the error models; fails
/// with a diagnostic at a weight without f32 values, saying it is needed to
/// `purpose` ("bound the error").
mlir::LogicalResult readRealWeights(const HardwareGraph &graph,
                                    llvm::StringRef purpose,
                                    std::vector<std::vector<float>> &weights,
                                    std::vector<std::vector<float>> &biases);

/// A weight's words in `format`, in torch's element order; `count` zeros when
/// the weight is null (a layer without bias). Fails with a diagnostic at the
/// weight when its values are missing or not f32.
mlir::FailureOr<std::vector<int64_t>>
quantizeWeight(WeightOp weight, FixedFormat format, size_t count);

} // namespace mav

#endif // MAV_HARDWARE_HARDWAREGRAPH_H
