//===- FixedPointErrorEstimate.cpp - How far fixed point strays -----------===//

#include "mav/Hardware/FixedPointErrorEstimate.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mav;

FailureOr<FixedPointErrorEstimate>
FixedPointErrorEstimate::create(const FixedPointModel &model) {
  const HardwareGraph &graph = model.getGraph();
  FixedPointErrorEstimate result(model);
  if (failed(readRealWeights(graph, "estimate the error with", result.weights,
                             result.biases)))
    return failure();
  return result;
}

/// A rounding to nearest moves a value by at most half an LSB; more is
/// saturation.
static bool movedBeyondRounding(double from, double to, FixedFormat format) {
  return std::abs(to - from) > dequantize(1, format);
}

ErrorEstimate
FixedPointErrorEstimate::estimate(ArrayRef<double> input,
                                  ArrayRef<std::vector<int64_t>> values) const {
  const HardwareGraph &graph = model->getGraph();
  ErrorEstimate result;
  result.meanSquares.resize(graph.nodes.size());
  result.allowed.resize(graph.nodes.size());
  result.saturated.assign(graph.nodes.size(), 0);

  // The input's rounding.
  FixedFormat inputFormat = graph.nodes[0].format;
  double inputRounding = std::ldexp(1.0, -2 * int(inputFormat.frac)) / 12;
  result.meanSquares[0].assign(values[0].size(), inputRounding);
  result.allowed[0] = result.meanSquares[0];
  for (auto [real, word] : llvm::zip(input, values[0]))
    result.saturated[0] +=
        movedBeyondRounding(real, dequantize(word, inputFormat), inputFormat);

  for (unsigned index = 1; index < graph.nodes.size(); ++index) {
    const HardwareNode &node = graph.nodes[index];
    FixedFormat format = node.format;
    // Each operand as the node reads it: a cast that drops fraction bits
    // rounds once more.
    SmallVector<std::vector<double>, 2> x, s, a;
    for (unsigned producer : node.operands) {
      FixedFormat from = graph.nodes[producer].format;
      std::vector<double> &reals = x.emplace_back();
      std::vector<double> &meanSquares =
          s.emplace_back(result.meanSquares[producer]);
      std::vector<double> &allowed = a.emplace_back(result.allowed[producer]);
      double rounding = from.frac > format.frac
                            ? std::ldexp(1.0, -2 * int(format.frac)) / 12
                            : 0.0;
      for (auto [word, meanSquare, allowance] :
           llvm::zip(values[producer], meanSquares, allowed)) {
        int64_t cast = from == format ? word : castWord(word, from, format);
        reals.push_back(dequantize(cast, format));
        meanSquare += rounding;
        allowance += rounding;
        result.saturated[index] += movedBeyondRounding(
            dequantize(word, from), dequantize(cast, format), format);
      }
    }
    NoiseEstimate estimate = node.component->estimate(
        node,
        NodeNoise{x, s, a, values[index], model->getWeightWords(index),
                  model->getBiasWords(index), weights[index], biases[index]});
    // After a sum the rule allows what is predicted.
    if (estimate.allowed.empty())
      estimate.allowed = estimate.meanSquare;
    // An estimate that overflowed says nothing: +inf, never NaN.
    for (std::vector<double> *values :
         {&estimate.meanSquare, &estimate.allowed})
      for (double &meanSquare : *values)
        if (std::isnan(meanSquare))
          meanSquare = std::numeric_limits<double>::infinity();
    result.meanSquares[index] = std::move(estimate.meanSquare);
    result.allowed[index] = std::move(estimate.allowed);
    result.saturated[index] += estimate.saturated;
  }
  return result;
}
