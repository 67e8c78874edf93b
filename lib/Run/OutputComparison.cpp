//===- OutputComparison.cpp - A graph's outputs against PyTorch's ---------===//

#include "mav/Run/OutputComparison.h"
#include "mav/Runtime/TorchTypes.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <ATen/ATen.h>

#include <cmath>

using namespace mav;

std::vector<at::Tensor> mav::flattenTensors(const c10::IValue &value) {
  std::vector<c10::IValue> leaves;
  flattenValue(value, leaves);
  std::vector<at::Tensor> tensors;
  for (const c10::IValue &leaf : leaves)
    if (leaf.isTensor())
      tensors.push_back(leaf.toTensor());
  return tensors;
}

std::string mav::describeTensor(const at::Tensor &tensor) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "tensor<";
  for (int64_t size : tensor.sizes())
    os << size << "x";
  os << c10::toString(tensor.scalar_type()) << ">";
  return text;
}

/// A tensor's values as doubles; a complex tensor's as its real and
/// imaginary parts, in a trailing dimension of 2.
static at::Tensor asDoubles(const at::Tensor &tensor) {
  if (at::isComplexType(tensor.scalar_type()))
    return at::view_as_real(tensor.to(at::kComplexDouble).resolve_conj());
  return tensor.to(at::kDouble);
}

Comparison mav::compareOutputs(const c10::IValue &actual,
                               const c10::IValue &expected,
                               const ComparisonTolerance &tolerance) {
  Comparison result;
  llvm::raw_string_ostream report(result.report);
  std::vector<at::Tensor> mine = flattenTensors(actual);
  std::vector<at::Tensor> theirs = flattenTensors(expected);
  if (mine.size() != theirs.size()) {
    result.verdict = Comparison::Verdict::Mismatch;
    report << "the graph returns " << mine.size() << " tensors, the reference "
           << theirs.size();
    return result;
  }
  std::string undecided;
  llvm::raw_string_ostream why(undecided);
  for (auto [index, pair] : llvm::enumerate(llvm::zip(mine, theirs))) {
    auto &[a, b] = pair;
    if (!a.sizes().equals(b.sizes()) || a.scalar_type() != b.scalar_type()) {
      result.verdict = Comparison::Verdict::Mismatch;
      result.report.clear();
      report << "output " << index << " is " << describeTensor(a)
             << ", the reference's " << describeTensor(b);
      return result;
    }
    // As torch.allclose with equal_nan: NaN matches NaN and an infinity
    // the same infinity. A NaN against a number differs by infinity. A
    // complex output compares its real and imaginary parts, each as a float.
    at::Tensor x = asDoubles(a), y = asDoubles(b);
    at::Tensor same = x.eq(y).logical_or(x.isnan().logical_and(y.isnan()));
    at::Tensor difference = at::where(same, at::zeros_like(x), (x - y).abs())
                                .nan_to_num(INFINITY, INFINITY);
    if (difference.numel() > 0)
      result.largestDifference =
          std::max(result.largestDifference, difference.max().item<double>());
    // Integers and booleans are exact: no tolerance applies.
    if (!at::isFloatingType(b.scalar_type()) &&
        !at::isComplexType(b.scalar_type())) {
      if (!same.all().item<bool>())
        result.verdict = Comparison::Verdict::Mismatch;
      continue;
    }
    at::Tensor finite = y.isfinite();
    double scale = y.numel() == 0 || !finite.any().item<bool>()
                       ? 0
                       : at::where(finite, y.abs(), at::zeros_like(y))
                             .max()
                             .item<double>();
    double atol = tolerance.absoluteIsScaled ? tolerance.absolute * scale
                                             : tolerance.absolute;
    if (!at::isclose(x, y, tolerance.relative, atol, /*equal_nan=*/true)
             .all()
             .item<bool>())
      result.verdict = Comparison::Verdict::Mismatch;
    else if (scale <= atol && y.numel() > 0 &&
             result.verdict == Comparison::Verdict::Match) {
      // A reference this small matches an output of zeros as well.
      result.verdict = Comparison::Verdict::Undecided;
      why << "output " << index << "'s largest reference magnitude "
          << llvm::format("%.3g", scale) << " is at or below the tolerance "
          << llvm::format("%.3g", atol);
    }
  }
  report << "max abs difference: "
         << llvm::format("%.3g", result.largestDifference) << " (atol "
         << llvm::format("%g", tolerance.absolute);
  if (tolerance.absoluteIsScaled)
    report << " x scale";
  report << ", rtol " << llvm::format("%g", tolerance.relative) << "): ";
  switch (result.verdict) {
  case Comparison::Verdict::Match:
    report << "match";
    break;
  case Comparison::Verdict::Mismatch:
    report << "MISMATCH";
    break;
  case Comparison::Verdict::Undecided:
    report << "UNDECIDED: " << undecided;
    break;
  }
  return result;
}
