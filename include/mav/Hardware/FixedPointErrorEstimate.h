//===- FixedPointErrorEstimate.h - How far fixed point strays --*- C++ -*-===//
//
// A first-order statistical estimate of the fixed-point model's error
// against float PyTorch, next to the worst-case bound
// (FixedPointErrorBound.h): every rounding to nearest adds an error of mean
// square (2^-F)^2 / 12, every rounded weight its own, and each node passes
// its operands' errors on by its slope, taking the errors of different
// elements as independent (docs/Hardware.md, "The error estimate"). Where
// the bound adds worst cases and grows with depth, the estimate adds mean
// squares and stays of the order of the error seen. A saturated element is
// not noise: the estimate reports it and does not hold.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_HARDWARE_FIXEDPOINTERRORESTIMATE_H
#define MAV_HARDWARE_FIXEDPOINTERRORESTIMATE_H

#include "mav/Hardware/FixedPointModel.h"

#include <vector>

namespace mav {

/// The rule mav-run enforces (docs/Hardware.md, "The error estimate"):
/// every output element's error within K times its predicted rms error.
constexpr double kErrorEstimateSigmas = 6;

/// The estimate on one input.
struct ErrorEstimate {
  /// Per node, indexed as the graph's nodes: each result element's
  /// predicted mean square error, in reals squared.
  std::vector<std::vector<double>> meanSquares;
  /// Per node: the mean square the rule allows each element's error
  /// (NoiseEstimate::allowed); at the output, what mav-run compares with.
  std::vector<std::vector<double>> allowed;
  /// Per node: how many result elements saturated (for the graph input, how
  /// many input values; a cast on an operand counts for its consumer).
  std::vector<int64_t> saturated;
};

class FixedPointErrorEstimate {
public:
  /// Reads the float weights of `model`'s graph; fails with a diagnostic at
  /// a weight whose values are missing. `model` must outlive the estimate.
  static mlir::FailureOr<FixedPointErrorEstimate>
  create(const FixedPointModel &model);

  /// For the graph input's real values `input` and the model's words on
  /// them (FixedPointModel::runAll), every node's estimate.
  ErrorEstimate estimate(llvm::ArrayRef<double> input,
                         llvm::ArrayRef<std::vector<int64_t>> values) const;

private:
  explicit FixedPointErrorEstimate(const FixedPointModel &model)
      : model(&model) {}

  const FixedPointModel *model;
  /// Linear and conv2d: the float weights and biases (empty: no bias).
  std::vector<std::vector<float>> weights, biases;
};

} // namespace mav

#endif // MAV_HARDWARE_FIXEDPOINTERRORESTIMATE_H
