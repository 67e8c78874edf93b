//===- FixedPointModel.cpp - The bit-exact software model -----------------===//

#include "mav/Hardware/FixedPointModel.h"

#include "AffineTaps.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;
using namespace mav;

namespace {

/// Linear and conv2d: exact sums, one requantisation per output.
std::vector<int64_t> affine(ArrayRef<int64_t> x, ArrayRef<int64_t> weight,
                            ArrayRef<int64_t> bias, const HardwareNode &node) {
  std::vector<int64_t> acc(node.outNumel());
  forEachAffineTap(
      node,
      [&](int64_t o, int64_t channel) {
        acc[o] = bias[channel] * (int64_t(1) << node.format.frac);
      },
      [&](int64_t o, int64_t w, int64_t i) { acc[o] += weight[w] * x[i]; });
  for (int64_t &value : acc)
    value = requantize(value, node.format.frac, node.format.width);
  return acc;
}

/// Max or average over each window, in (n, c, oy, ox) order.
std::vector<int64_t> pool(ArrayRef<int64_t> x, const HardwareNode &node) {
  bool max = node.kind == HardwareOpKind::MaxPool2d;
  int64_t window = node.kernelH * node.kernelW;
  int64_t recip = max ? 0 : reciprocal(window, node.recipFrac);
  std::vector<int64_t> y;
  y.reserve(node.outNumel());
  forEachPoolWindow(node, [&](int64_t, ArrayRef<int64_t> indices) {
    int64_t best = std::numeric_limits<int64_t>::min(), sum = 0;
    for (int64_t index : indices) {
      best = std::max(best, x[index]);
      sum += x[index];
    }
    if (max) {
      y.push_back(best);
      return;
    }
    // s * R can reach 2^63 at the widest formats: round in 128 bits.
    __int128 product = static_cast<__int128>(sum) * recip;
    __int128 quotient = product >> node.recipFrac;
    __int128 remainder = product - (quotient << node.recipFrac);
    __int128 half = static_cast<__int128>(1) << (node.recipFrac - 1);
    if (remainder > half || (remainder == half && (quotient & 1)))
      ++quotient;
    y.push_back(saturate(static_cast<int64_t>(std::clamp<__int128>(
                             quotient, INT64_MIN, INT64_MAX)),
                         node.format.width));
  });
  return y;
}

} // namespace

FailureOr<FixedPointModel> FixedPointModel::create(const HardwareGraph &graph) {
  FixedPointModel model(graph);
  model.weights.resize(graph.nodes.size());
  model.biases.resize(graph.nodes.size());
  for (auto [index, node] : llvm::enumerate(graph.nodes)) {
    if (node.kind != HardwareOpKind::Linear &&
        node.kind != HardwareOpKind::Conv2d)
      continue;
    WeightOp weightOp = node.weight;
    auto type = weightOp.getValue().getType().cast<ShapedType>();
    FailureOr<std::vector<int64_t>> weight = quantizeWeight(
        node.weight, node.format, static_cast<size_t>(type.getNumElements()));
    FailureOr<std::vector<int64_t>> bias =
        quantizeWeight(node.bias, node.format, type.getDimSize(0));
    if (failed(weight) || failed(bias))
      return failure();
    model.weights[index] = std::move(*weight);
    model.biases[index] = std::move(*bias);
  }
  return model;
}

std::vector<int64_t>
FixedPointModel::evaluate(unsigned index,
                          ArrayRef<ArrayRef<int64_t>> operands) const {
  const HardwareNode &node = graph->nodes[index];
  ArrayRef<int64_t> x = operands[0];
  switch (node.kind) {
  case HardwareOpKind::Input:
  case HardwareOpKind::Flatten:
    return std::vector<int64_t>(x.begin(), x.end());
  case HardwareOpKind::Linear:
  case HardwareOpKind::Conv2d:
    return affine(x, weights[index], biases[index], node);
  case HardwareOpKind::Relu: {
    std::vector<int64_t> y(x.begin(), x.end());
    for (int64_t &word : y)
      word = std::max<int64_t>(word, 0);
    return y;
  }
  case HardwareOpKind::Add:
  case HardwareOpKind::Mul: {
    std::vector<int64_t> y(x.size());
    for (size_t i = 0; i < x.size(); ++i)
      y[i] = node.kind == HardwareOpKind::Add
                 ? saturate(x[i] + operands[1][i], node.format.width)
                 : requantize(x[i] * operands[1][i], node.format.frac,
                              node.format.width);
    return y;
  }
  case HardwareOpKind::MaxPool2d:
  case HardwareOpKind::AvgPool2d:
    return pool(x, node);
  }
  llvm_unreachable("unknown hardware op kind");
}

std::vector<int64_t> FixedPointModel::run(ArrayRef<int64_t> input) const {
  return std::move(runAll(input)[graph->output]);
}

std::vector<std::vector<int64_t>>
FixedPointModel::runAll(ArrayRef<int64_t> input) const {
  std::vector<std::vector<int64_t>> values(graph->nodes.size());
  values[0].assign(input.begin(), input.end());
  for (unsigned index = 1; index < graph->nodes.size(); ++index) {
    const HardwareNode &node = graph->nodes[index];
    // Operands are read in place; only a cast needs a copy.
    SmallVector<std::vector<int64_t>, 2> casts(node.operands.size());
    SmallVector<ArrayRef<int64_t>, 2> operands;
    for (auto [producer, cast] : llvm::zip(node.operands, casts)) {
      FixedFormat from = graph->nodes[producer].format;
      if (from == node.format) {
        operands.push_back(values[producer]);
        continue;
      }
      for (int64_t word : values[producer])
        cast.push_back(castWord(word, from, node.format));
      operands.push_back(cast);
    }
    values[index] = evaluate(index, operands);
  }
  return values;
}

std::string mav::formatHexWords(ArrayRef<int64_t> words, int64_t width) {
  std::string text;
  llvm::raw_string_ostream os(text);
  uint64_t mask = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  unsigned digits = (width + 3) / 4;
  for (int64_t word : words)
    os << llvm::format_hex_no_prefix(static_cast<uint64_t>(word) & mask, digits)
       << "\n";
  return text;
}

std::string mav::formatFixed(FixedFormat format) {
  return "<" + std::to_string(format.width) + ", " +
         std::to_string(format.frac) + ">";
}
