//===- FixedPointErrorBound.h - How far fixed point may stray --*- C++ -*-===//
//
// The fixed-point model differs from the float graph only by rounding: the
// input's, the weights' and biases', each requantisation and saturation, the
// casts between formats and the average pool's reciprocal. This bounds, per
// output element, the error those steps can cause on one input, propagating
// each node's bound through the next by its absolute weights
// (docs/Hardware.md, "The error bound"). mav-run compares the fixed-point
// model with the float reference against it.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_HARDWARE_FIXEDPOINTERRORBOUND_H
#define MAV_HARDWARE_FIXEDPOINTERRORBOUND_H

#include "mav/Hardware/FixedPointModel.h"

#include <vector>

namespace mav {

class FixedPointErrorBound {
public:
  /// Reads the float weights of `model`'s graph; fails with a diagnostic at
  /// a weight whose values are missing. `model` must outlive the bound.
  static mlir::FailureOr<FixedPointErrorBound>
  create(const FixedPointModel &model);

  /// For the graph input's real values `input` and the model's words on
  /// them (FixedPointModel::runAll), a bound on |fixed - float| for each
  /// element of the graph's output, in reals.
  std::vector<double> bound(llvm::ArrayRef<double> input,
                            llvm::ArrayRef<std::vector<int64_t>> values) const;

private:
  explicit FixedPointErrorBound(const FixedPointModel &model) : model(&model) {}
  std::vector<double>
  boundNode(unsigned index, llvm::ArrayRef<std::vector<int64_t>> values,
            llvm::ArrayRef<std::vector<double>> errors) const;

  const FixedPointModel *model;
  /// Linear and conv2d: the float weights and biases (empty: no bias).
  std::vector<std::vector<float>> weights, biases;
};

} // namespace mav

#endif // MAV_HARDWARE_FIXEDPOINTERRORBOUND_H
