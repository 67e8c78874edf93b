//===- OutputComparison.h - A graph's outputs against PyTorch's -*- C++ -*-===//
//
// `mav-run --reference`'s verdict, shared with the Python package's
// `Graph.check`: every tensor of the graph's output against the reference's,
// as torch.allclose with equal_nan, within atol + rtol * |reference|. atol
// is by default relative to each output's scale (its largest finite
// magnitude); an output whose scale is at or below atol cannot be told from
// zeros, which is a failure too (undecided), never a match. Integers and
// booleans are compared exactly. Includes libtorch.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_RUN_OUTPUTCOMPARISON_H
#define MAV_RUN_OUTPUTCOMPARISON_H

#include <ATen/core/ivalue.h>

#include <string>
#include <vector>

namespace mav {

struct ComparisonTolerance {
  double absolute = 1e-5;
  /// Whether `absolute` is absolute, or a fraction of each output's scale.
  bool absoluteIsScaled = true;
  double relative = 1e-5;
};

struct Comparison {
  enum class Verdict { Match, Mismatch, Undecided };
  Verdict verdict = Verdict::Match;
  /// The largest absolute difference over every element.
  double largestDifference = 0;
  /// One line: `max abs difference: D (atol A, rtol R): match`, or why the
  /// outputs cannot be compared.
  std::string report;
  bool matched() const { return verdict == Verdict::Match; }
};

/// The tensors of a (nested) value, in order.
std::vector<at::Tensor> flattenTensors(const c10::IValue &value);

/// `tensor<2x3xFloat>`.
std::string describeTensor(const at::Tensor &tensor);

Comparison compareOutputs(const c10::IValue &actual,
                          const c10::IValue &expected,
                          const ComparisonTolerance &tolerance);

} // namespace mav

#endif // MAV_RUN_OUTPUTCOMPARISON_H
