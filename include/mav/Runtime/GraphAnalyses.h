//===- GraphAnalyses.h - Analyses that run a graph forward and back -*- C++
//-*-===//
//
// The tensor-scale analysis (the unit-scaling seed's analyse_module) and the
// parameter execution order (the FSDP seed's exec-order tracer) both need
// real values: they run the graph on cpu through the interpreter, with
// autograd. They live on the libtorch side (libMavTorchPlugin.so); this
// header is libtorch-free. See docs/Analyses.md.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_RUNTIME_GRAPHANALYSES_H
#define MAV_RUNTIME_GRAPHANALYSES_H

#include "mav/IR/MavOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace mav {

enum class InputDistribution { Normal, Uniform };

/// How inputs and output gradients are drawn: torch.manual_seed(seed), then
/// for each float argument in order torch.randn(shape) (Normal) or
/// torch.rand(shape) (Uniform), times `scale`; integer arguments
/// torch.randint(0, intHigh, shape); after the forward pass, one gradient
/// per float output the same way.
struct RandomDraw {
  uint64_t seed = 0;
  InputDistribution distribution = InputDistribution::Normal;
  double scale = 1.0;
  int64_t intHigh = 10;
};

/// Statistics of one float tensor (std is torch.std: unbiased).
struct TensorStats {
  double std = 0, mean = 0, absMax = 0, zeroFraction = 0;
};

struct ScaleAnalysisResult {
  struct Node {
    mlir::Operation *op;
    /// The node's first float tensor result.
    TensorStats forward;
    /// std of the gradient w.r.t. that result; none when it got none.
    std::optional<double> backwardStd;
  };
  struct Weight {
    WeightOp op;
    std::optional<double> gradStd;
  };
  std::vector<Node> nodes;
  std::vector<Weight> weights;
};

/// Runs `graph` forward on inputs drawn as `draw` says and, with `backward`,
/// backward from drawn output gradients, recording the statistics of every
/// top-level node's result and of every parameter's gradient.
mlir::LogicalResult analyseScale(GraphOp graph, const RandomDraw &draw,
                                 bool backward, ScaleAnalysisResult &result);

/// The samples a calibration runs the graph on: `samples` drawn as `draw`
/// says with seeds draw.seed, draw.seed + 1, ... (as mav-run --samples), or,
/// when `inputsData` is set, every sample in that torch.save file (read with
/// torch::pickle_load; `inputsName` names it in diagnostics): a tensor (one
/// sample of a one-input graph), a list of samples, each a tensor or a list
/// of tensors (one per graph input), or a dict whose "inputs" is one sample
/// (the layout of test/models' NAME.io.pt; libtorch reads no one-element
/// list or one-entry dict).
struct RangeObservation {
  RandomDraw draw;
  int64_t samples = 1;
  std::optional<llvm::StringRef> inputsData;
  std::string inputsName;
};

/// The largest magnitudes seen over all samples.
struct ValueRangeResult {
  /// Of every float tensor result of each top-level node.
  llvm::DenseMap<mlir::Operation *, double> nodeAbsMax;
  /// Of each graph input (0 for a non-float one).
  std::vector<double> inputAbsMax;
  /// How many samples ran.
  int64_t samples = 0;
};

/// Runs `graph` forward, without gradients, on every sample `observation`
/// gives, and records the largest |x| of each node's results and of each
/// input. An unreadable file, or a sample that does not fit the graph's
/// inputs, is a diagnostic naming the file.
mlir::LogicalResult observeValueRanges(GraphOp graph,
                                       const RangeObservation &observation,
                                       ValueRangeResult &result);

struct ExecOrderResult {
  /// call_module nodes in the order they began.
  std::vector<mlir::Operation *> moduleOrder;
  /// Parameters (tied ones once, by their target) in the order of first use
  /// in forward, and in the order their gradients became ready in backward.
  std::vector<WeightOp> forwardOrder, backwardOrder;
};

/// Runs `graph` forward (and backward) once and records the orders.
mlir::LogicalResult recordExecOrder(GraphOp graph, const RandomDraw &draw,
                                    bool backward, ExecOrderResult &result);

} // namespace mav

#endif // MAV_RUNTIME_GRAPHANALYSES_H
