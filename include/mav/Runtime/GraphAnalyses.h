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
