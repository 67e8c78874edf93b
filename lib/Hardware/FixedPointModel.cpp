//===- FixedPointModel.cpp - The bit-exact software model -----------------===//

#include "mav/Hardware/FixedPointModel.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mav;

FailureOr<FixedPointModel> FixedPointModel::create(const HardwareGraph &graph) {
  FixedPointModel model(graph);
  model.weights.resize(graph.nodes.size());
  model.biases.resize(graph.nodes.size());
  for (auto [index, node] : llvm::enumerate(graph.nodes)) {
    if (!node.weight)
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
  return node.component->evaluate(
      node, NodeWords{operands, weights[index], biases[index]});
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
