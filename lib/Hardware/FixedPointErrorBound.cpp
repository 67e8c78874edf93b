//===- FixedPointErrorBound.cpp - How far fixed point may stray -----------===//

#include "mav/Hardware/FixedPointErrorBound.h"

#include "AffineTaps.h"
#include "mav/IR/WeightData.h"

#include <cmath>

using namespace mlir;
using namespace mav;

FailureOr<FixedPointErrorBound>
FixedPointErrorBound::create(const FixedPointModel &model) {
  const HardwareGraph &graph = model.getGraph();
  FixedPointErrorBound result(model);
  result.weights.resize(graph.nodes.size());
  result.biases.resize(graph.nodes.size());
  auto read = [](WeightOp weight, std::vector<float> &values) -> LogicalResult {
    if (!weight)
      return success();
    std::optional<std::vector<float>> read = readF32Elements(weight.getValue());
    if (!read)
      return weight.emitError()
             << "weight '" << weight.getSymName()
             << "' has no f32 values to bound the error with";
    values = std::move(*read);
    return success();
  };
  for (auto [index, node] : llvm::enumerate(graph.nodes))
    if ((node.kind == HardwareOpKind::Linear ||
         node.kind == HardwareOpKind::Conv2d) &&
        (failed(read(node.weight, result.weights[index])) ||
         failed(read(node.bias, result.biases[index]))))
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
  for (unsigned index = 1; index < graph.nodes.size(); ++index)
    errors[index] = boundNode(index, values, errors);
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
  ArrayRef<int64_t> y = values[index];
  std::vector<double> result(y.size());
  switch (node.kind) {
  case HardwareOpKind::Input:
  case HardwareOpKind::Flatten:
  case HardwareOpKind::Relu:
    // Exact on the words, and 1-Lipschitz on the reals.
    return std::move(e[0]);
  case HardwareOpKind::Linear:
  case HardwareOpKind::Conv2d: {
    // |sum Wq x^ + bq - (sum W x + b)| <= sum |Wq| e + |Wq - W| (|x^| + e)
    //                                     + |bq - b|,
    // plus what the requantisation of that exact sum lost.
    ArrayRef<int64_t> weightWords = model->getWeightWords(index),
                      biasWords = model->getBiasWords(index);
    const std::vector<float> &w = weights[index], &b = biases[index];
    std::vector<double> exact(y.size());
    forEachAffineTap(
        node,
        [&](int64_t o, int64_t channel) {
          exact[o] = real(biasWords[channel]);
          result[o] = std::abs(real(biasWords[channel]) -
                               (b.empty() ? 0.0 : double(b[channel])));
        },
        [&](int64_t o, int64_t k, int64_t i) {
          double quantized = real(weightWords[k]);
          exact[o] += quantized * x[0][i];
          result[o] += std::abs(quantized) * e[0][i] +
                       std::abs(quantized - double(w[k])) *
                           (std::abs(x[0][i]) + e[0][i]);
        });
    for (size_t o = 0; o < y.size(); ++o)
      result[o] += std::abs(real(y[o]) - exact[o]);
    return result;
  }
  case HardwareOpKind::Add:
    for (size_t i = 0; i < y.size(); ++i)
      result[i] =
          e[0][i] + e[1][i] + std::abs(real(y[i]) - (x[0][i] + x[1][i]));
    return result;
  case HardwareOpKind::Mul:
    for (size_t i = 0; i < y.size(); ++i)
      result[i] = std::abs(x[0][i]) * e[1][i] + std::abs(x[1][i]) * e[0][i] +
                  e[0][i] * e[1][i] + std::abs(real(y[i]) - x[0][i] * x[1][i]);
    return result;
  case HardwareOpKind::MaxPool2d:
  case HardwareOpKind::AvgPool2d: {
    bool max = node.kind == HardwareOpKind::MaxPool2d;
    forEachPoolWindow(node, [&](int64_t o, ArrayRef<int64_t> window) {
      double largest = 0, sum = 0, mean = 0;
      for (int64_t i : window) {
        largest = std::max(largest, e[0][i]);
        sum += e[0][i];
        mean += x[0][i];
      }
      double count = static_cast<double>(window.size());
      // |max a - max b| <= max |a - b|; a mean's error is the mean error,
      // plus the reciprocal's rounding as it happened.
      result[o] =
          max ? largest : sum / count + std::abs(real(y[o]) - mean / count);
    });
    return result;
  }
  }
  llvm_unreachable("unknown hardware op kind");
}
