//===- FixedPointErrorBound.cpp - How far fixed point may stray -----------===//

#include "mav/Hardware/FixedPointErrorBound.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mav;

FailureOr<FixedPointErrorBound>
FixedPointErrorBound::create(const FixedPointModel &model) {
  const HardwareGraph &graph = model.getGraph();
  FixedPointErrorBound result(model);
  if (failed(readRealWeights(graph, "bound the error with", result.weights,
                             result.biases)))
    return failure();
  return result;
}

std::vector<double>
FixedPointErrorBound::bound(ArrayRef<double> input,
                            ArrayRef<std::vector<int64_t>> values) const {
  const HardwareGraph &graph = model->getGraph();
  std::vector<std::vector<double>> errors(graph.nodes.size());
  FixedFormat inputFormat = graph.nodes[0].format;
  for (auto [real, word] : llvm::zip(input, values[0]))
    errors[0].push_back(std::abs(real - dequantize(word, inputFormat)));
  for (unsigned index = 1; index < graph.nodes.size(); ++index) {
    errors[index] = boundNode(index, values, errors);
    // A bound that overflowed (inf, or inf - inf further on) says nothing:
    // it stays +inf, never NaN, so that no comparison passes with it.
    for (double &bound : errors[index])
      if (std::isnan(bound))
        bound = std::numeric_limits<double>::infinity();
  }
  return std::move(errors[graph.output]);
}

std::vector<double>
FixedPointErrorBound::boundNode(unsigned index,
                                ArrayRef<std::vector<int64_t>> values,
                                ArrayRef<std::vector<double>> errors) const {
  const HardwareGraph &graph = model->getGraph();
  const HardwareNode &node = graph.nodes[index];
  FixedFormat format = node.format;
  auto real = [&](int64_t word) { return dequantize(word, format); };

  // Each operand as the node reads it: cast to the node's format, the cast's
  // rounding added to the producer's bound.
  SmallVector<std::vector<double>, 2> x, e;
  for (unsigned producer : node.operands) {
    FixedFormat from = graph.nodes[producer].format;
    std::vector<double> &reals = x.emplace_back();
    std::vector<double> &bounds = e.emplace_back(errors[producer]);
    for (auto [word, bound] : llvm::zip(values[producer], bounds)) {
      int64_t cast = from == format ? word : castWord(word, from, format);
      reals.push_back(real(cast));
      bound += std::abs(real(cast) - dequantize(word, from));
    }
  }
  return node.component->bound(node, NodeErrors{x, e, values[index],
                                                model->getWeightWords(index),
                                                model->getBiasWords(index),
                                                weights[index], biases[index]});
}
