//===- Tokens.cpp - fixed_prepend and fixed_add_const ---------------------===//
//
// The Vision Transformer's learned constants: the class token put before
// the patch tokens (torch.cat of an expanded weight and a stream) and the
// positional embedding added to the tokens (a weight added to a stream).
// Each constant is a ROM of the node's format.
//
//===----------------------------------------------------------------------===//

#include "DescribeSupport.h"
#include "Entries.h"
#include "Estimates.h"

using namespace mlir;
using namespace mav;

namespace {

/// Per item: the constant's words, then the input item's.
template <typename T>
std::vector<T> prependItems(const HardwareNode &node, ArrayRef<T> constant,
                            ArrayRef<T> input) {
  std::vector<T> result;
  result.reserve(node.outNumel());
  int64_t items = node.items(), itemWords = input.size() / items;
  for (int64_t item = 0; item < items; ++item) {
    result.insert(result.end(), constant.begin(), constant.end());
    result.insert(result.end(), input.begin() + item * itemWords,
                  input.begin() + (item + 1) * itemWords);
  }
  return result;
}

/// The rounding of each constant word: its only error.
std::vector<double> constantErrors(const HardwareNode &node,
                                   ArrayRef<int64_t> words,
                                   ArrayRef<float> reals) {
  std::vector<double> errors;
  for (auto [word, real] : llvm::zip(words, reals))
    errors.push_back(std::abs(dequantize(word, node.format) - real));
  return errors;
}

int64_t constantWords(const HardwareNode &node) {
  return node.outNumel() / node.items() - node.inNumel() / node.items();
}

/// torch.cat((c, x), dim=1), c a weight (expanded over the batch).
bool describePrepend(ComponentCall call, HardwareNode &node,
                     std::string &reason) {
  auto tensors = llvm::dyn_cast_or_null<ArrayAttr>(call.call.get(0, "tensors"));
  if (!tensors || tensors.size() != 2)
    return fail(reason, "fixed_prepend puts one constant before one tensor");
  auto first = llvm::dyn_cast<OperandRefAttr>(tensors[0]);
  auto second = llvm::dyn_cast<OperandRefAttr>(tensors[1]);
  if (!first || !second)
    return fail(reason, "fixed_prepend needs tensors, not constants");
  WeightOp constant =
      getConstantWeight(node.op->getOperand(first.getIndex()), call.symbols);
  std::optional<SmallVector<int64_t>> shape =
      getStaticShape(node.op->getOperand(second.getIndex()));
  if (!constant || !shape)
    return fail(reason, "fixed_prepend puts a module weight before a tensor");
  auto dims = getIntList(call.call.get(1, "dim"), 1);
  int64_t dim = dims ? (*dims)[0] : 0;
  if (shape->size() < 2 || (dim != 1 && dim != 1 - (int64_t)shape->size()))
    return fail(reason, "fixed_prepend joins along dimension 1");
  node.inShape = *shape;
  node.streamOperands = {second.getIndex()};
  node.weight = constant;
  node.batchDims = 1;
  if (constant.getWeightType().getNumElements() != constantWords(node))
    return fail(reason, "its constant has " +
                            Twine(constant.getWeightType().getNumElements()) +
                            " words, an item's share of the result " +
                            Twine(constantWords(node)));
  return true;
}

std::vector<int64_t> evaluatePrepend(const HardwareNode &node,
                                     const NodeWords &words) {
  return prependItems<int64_t>(node, words.weight, words.operands[0]);
}

std::vector<double> boundPrepend(const HardwareNode &node,
                                 const NodeErrors &in) {
  std::vector<double> constant =
      constantErrors(node, in.weightWords, in.weight);
  return prependItems<double>(node, constant, in.errors[0]);
}

NoiseEstimate estimatePrepend(const HardwareNode &node, const NodeNoise &in) {
  std::vector<double> constant =
      constantErrors(node, in.weightWords, in.weight);
  for (double &error : constant)
    error *= error;
  return NoiseEstimate{prependItems<double>(node, constant, in.meanSquares[0]),
                       prependItems<double>(node, constant, in.allowed[0]), 0};
}

int64_t prependCycles(const HardwareNode &node) {
  return 2 * inItemWords(node) + constantWords(node);
}

ComponentTiming prependTiming(const HardwareNode &node) {
  return bufferedTiming(inItemWords(node), 1, 0, outItemWords(node));
}

ResourceEstimate prependResources(const HardwareNode &node) {
  int64_t width = node.format.width;
  ResourceEstimate estimate;
  estimate.memoryBits = (inItemWords(node) + constantWords(node)) * width;
  estimate.flipFlops = 2 * ceilLog2(outItemWords(node) + 1) + width + 4;
  estimate.luts = 4 * ceilLog2(outItemWords(node) + 1) + width + 16;
  return estimate;
}

void prependParameters(const HardwareNode &node, ParameterValues &values) {
  setParameter(values, "CONST_WORDS", constantWords(node));
  setParameter(values, "IN_WORDS", inItemWords(node));
}

/// x + c, c a weight of x's shape (or of one item's).
bool describeAddConst(ComponentCall call, HardwareNode &node,
                      std::string &reason) {
  Attribute alpha = call.call.get(2, "alpha");
  auto alphaInt = llvm::dyn_cast_or_null<IntegerAttr>(alpha);
  if (alpha && (!alphaInt || alphaInt.getInt() != 1))
    return fail(reason,
                "alpha other than 1 is not supported by fixed_add_const");
  Value self = call.call.operand(0, "self"),
        other = call.call.operand(1, "other");
  WeightOp constant = getConstantWeight(other, call.symbols);
  Value stream = self;
  if (!constant) {
    constant = getConstantWeight(self, call.symbols);
    stream = other;
  }
  if (!constant || !stream)
    return fail(reason, "fixed_add_const adds a module weight to a tensor");
  std::optional<unsigned> index = findStreamOperand(node, stream, 0);
  std::optional<SmallVector<int64_t>> shape = getStaticShape(stream);
  if (!index || !shape || *shape != node.outShape)
    return fail(reason, "fixed_add_const needs the tensor's shape to be the "
                        "result's (the constant broadcast to it)");
  node.inShape = *shape;
  node.streamOperands = {*index};
  node.weight = constant;
  node.batchDims = 1;
  if (constant.getWeightType().getNumElements() != inItemWords(node))
    return fail(reason, "its constant has " +
                            Twine(constant.getWeightType().getNumElements()) +
                            " words, an item " + Twine(inItemWords(node)));
  return true;
}

std::vector<int64_t> evaluateAddConst(const HardwareNode &node,
                                      const NodeWords &words) {
  std::vector<int64_t> y;
  ArrayRef<int64_t> x = words.operands[0];
  y.reserve(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    y.push_back(saturate(x[i] + words.weight[i % words.weight.size()],
                         node.format.width));
  return y;
}

std::vector<double> boundAddConst(const HardwareNode &node,
                                  const NodeErrors &in) {
  std::vector<double> result(in.result.size());
  size_t words = in.weight.size();
  for (size_t i = 0; i < result.size(); ++i)
    result[i] =
        in.errors[0][i] + std::abs(dequantize(in.result[i], node.format) -
                                   (in.operands[0][i] + in.weight[i % words]));
  return result;
}

NoiseEstimate estimateAddConst(const HardwareNode &node, const NodeNoise &in) {
  NoiseEstimate estimate;
  size_t words = in.weight.size();
  for (size_t i = 0; i < in.result.size(); ++i) {
    double rounding = dequantize(in.weightWords[i % words], node.format) -
                      in.weight[i % words];
    estimate.meanSquare.push_back(in.meanSquares[0][i] + rounding * rounding);
    estimate.saturated += isSaturated(
        in.result[i], in.operands[0][i] + in.weight[i % words], node.format);
  }
  return estimate;
}

StreamWidths addConstWidths(const HardwareNode &node, const StreamWidths &cap) {
  int64_t width =
      largestDivisorAtMost(inItemWords(node), std::min(cap.in[0], cap.out));
  return StreamWidths{{width}, width};
}

void addConstParameters(const HardwareNode &node, ParameterValues &values) {
  setParameter(values, "CONST_WORDS", inItemWords(node));
}

StreamWidths singleWordWidths(const HardwareNode &, const StreamWidths &) {
  return StreamWidths{{1}, 1};
}

constexpr llvm::StringRef prependParameterNames[] = {
    "DATA_WIDTH", "FRAC_WIDTH", "CONST_WORDS", "IN_WORDS", "WEIGHTS_FILE"};
constexpr llvm::StringRef prependFiles[] = {"fixed_prepend.sv"};
constexpr llvm::StringRef prependOperators[] = {"cat"};
constexpr llvm::StringRef addConstParameterNames[] = {
    "DATA_WIDTH", "FRAC_WIDTH", "PARALLELISM", "CONST_WORDS", "WEIGHTS_FILE"};
constexpr llvm::StringRef addConstFiles[] = {
    "fixed_round_sat.sv", "fixed_skid_buffer.sv", "fixed_add_const.sv"};
constexpr llvm::StringRef addConstOperators[] = {"add"};

} // namespace

constexpr Component mav::components::fixedPrepend = {
    .module = "fixed_prepend",
    .parameters = prependParameterNames,
    .dependenceFiles = prependFiles,
    .operators = prependOperators,
    .describe = describePrepend,
    .prepare = nullptr,
    .evaluate = evaluatePrepend,
    .bound = boundPrepend,
    .estimate = estimatePrepend,
    .legalWidths = singleWordWidths,
    .itemCycles = prependCycles,
    .multipliers = noMultipliers,
    .timing = prependTiming,
    .resources = prependResources,
    .instanceParameters = prependParameters,
};

constexpr Component mav::components::fixedAddConst = {
    .module = "fixed_add_const",
    .parameters = addConstParameterNames,
    .dependenceFiles = addConstFiles,
    .operators = addConstOperators,
    .describe = describeAddConst,
    .prepare = nullptr,
    .evaluate = evaluateAddConst,
    .bound = boundAddConst,
    .estimate = estimateAddConst,
    .legalWidths = addConstWidths,
    .itemCycles = streamingCycles,
    .multipliers = noMultipliers,
    .timing = sliceTiming,
    .resources = streamingResources<2>,
    .instanceParameters = addConstParameters,
};
