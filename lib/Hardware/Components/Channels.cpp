//===- Channels.cpp - fixed_concat2 and fixed_channel_mul -----------------===//
//
// Operators between two images that differ in their channels: torch.cat
// along the channels (squeezenet's fire modules) and the product of an image
// with one scale per channel (the squeeze-and-excitation block).
//
//===----------------------------------------------------------------------===//

#include "DescribeSupport.h"
#include "Entries.h"
#include "Estimates.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mav;

namespace {

/// torch.cat((a, b), dim=1) of two 4-d images.
bool describeConcat(ComponentCall call, HardwareNode &node,
                    std::string &reason) {
  auto tensors = llvm::dyn_cast_or_null<ArrayAttr>(call.call.get(0, "tensors"));
  if (!tensors || tensors.size() != 2)
    return fail(reason, "fixed_concat2 joins exactly two tensors");
  SmallVector<unsigned, 2> indices;
  SmallVector<SmallVector<int64_t>, 2> shapes;
  for (Attribute tensor : tensors) {
    auto ref = llvm::dyn_cast<OperandRefAttr>(tensor);
    if (!ref || ref.getIndex() >= node.op->getNumOperands())
      return fail(reason, "both tensors must be computed by the graph");
    std::optional<SmallVector<int64_t>> shape =
        getStaticShape(node.op->getOperand(ref.getIndex()));
    if (!shape || shape->size() != 4)
      return fail(reason, "fixed_concat2 joins 4-d (N, C, H, W) tensors");
    indices.push_back(ref.getIndex());
    shapes.push_back(*shape);
  }
  auto dims = getIntList(call.call.get(1, "dim"), 1);
  int64_t dim = dims ? (*dims)[0] : 0;
  if (dim != 1 && dim != -3)
    return fail(reason, "fixed_concat2 joins along the channels (dim 1)");
  node.streamOperands = {indices[0], indices[1]};
  node.inShape = shapes[0];
  node.secondShape = shapes[1];
  return need4d(node, reason);
}

/// Each item of the result: the operands' items, `a`'s then `b`'s.
template <typename T>
std::vector<T> concatItems(const HardwareNode &node, ArrayRef<T> a,
                           ArrayRef<T> b) {
  std::vector<T> result;
  result.reserve(a.size() + b.size());
  int64_t items = node.items();
  int64_t aItem = a.size() / items, bItem = b.size() / items;
  for (int64_t item = 0; item < items; ++item) {
    result.insert(result.end(), a.begin() + item * aItem,
                  a.begin() + (item + 1) * aItem);
    result.insert(result.end(), b.begin() + item * bItem,
                  b.begin() + (item + 1) * bItem);
  }
  return result;
}

std::vector<int64_t> evaluateConcat(const HardwareNode &node,
                                    const NodeWords &words) {
  return concatItems<int64_t>(node, words.operands[0], words.operands[1]);
}

/// Each part keeps its operand's error, in the concat's order.
std::vector<double> boundConcat(const HardwareNode &node,
                                const NodeErrors &in) {
  return concatItems<double>(node, in.errors[0], in.errors[1]);
}

NoiseEstimate estimateConcat(const HardwareNode &node, const NodeNoise &in) {
  return NoiseEstimate{
      concatItems<double>(node, in.meanSquares[0], in.meanSquares[1]),
      concatItems<double>(node, in.allowed[0], in.allowed[1]), 0};
}

/// Both inputs and the result stream at one width, dividing both inputs'
/// channels.
StreamWidths concatWidths(const HardwareNode &node, const StreamWidths &cap) {
  int64_t limit = std::min({cap.in[0], cap.in[1], cap.out});
  int64_t width = largestDivisorAtMost(
      std::gcd(node.inShape[1], node.secondShape[1]), limit);
  return StreamWidths{{width, width}, width};
}

/// One beat a cycle, input 0's then input 1's, plus one cycle of latency.
int64_t concatCycles(const HardwareNode &node) {
  return outItemWords(node) / node.widths.out + 1;
}

/// Input 0's beats of an image, then input 1's, through a skid buffer.
ComponentTiming concatTiming(const HardwareNode &node) {
  int64_t items = node.items();
  int64_t first = node.inNumel() / items / node.widths.in[0];
  int64_t second = (node.outNumel() / items) / node.widths.out - first;
  ComponentTiming timing;
  timing.kind = ComponentTiming::Kind::Sequence;
  timing.phases = {{0, first, true}, {1, second, true}};
  return timing;
}

/// The skid buffer, a selector per bit, the phase's beat counter.
ResourceEstimate concatResources(const HardwareNode &node) {
  ResourceEstimate estimate = skidResources(node);
  estimate.luts += beatBits(node) + 16;
  estimate.flipFlops += 17;
  return estimate;
}

void concatParameters(const HardwareNode &node, ParameterValues &values) {
  int64_t items = node.items();
  int64_t first = node.inNumel() / items;
  setParameter(values, "IN0_WORDS", first);
  setParameter(values, "IN1_WORDS", node.outNumel() / items - first);
}

/// x * s with s of shape (N, C, 1, 1), in either order.
bool describeChannelMul(ComponentCall call, HardwareNode &node,
                        std::string &reason) {
  Value self = call.call.operand(0, "self"),
        other = call.call.operand(1, "other");
  if (!self || !other)
    return fail(reason, "both operands must be tensors");
  std::optional<SmallVector<int64_t>> selfShape = getStaticShape(self),
                                      otherShape = getStaticShape(other);
  auto isScale = [&](ArrayRef<int64_t> scale, ArrayRef<int64_t> image) {
    return scale.size() == 4 && image.size() == 4 && scale[0] == image[0] &&
           scale[1] == image[1] && scale[2] == 1 && scale[3] == 1;
  };
  if (!selfShape || !otherShape)
    return fail(reason, "its operands need static shapes");
  bool scaleFirst = isScale(*selfShape, *otherShape);
  if (!scaleFirst && !isScale(*otherShape, *selfShape))
    return fail(reason, "fixed_channel_mul multiplies an (N, C, H, W) image by "
                        "an (N, C, 1, 1) scale");
  std::optional<unsigned> image =
      findStreamOperand(node, scaleFirst ? other : self, 0);
  std::optional<unsigned> scale =
      findStreamOperand(node, scaleFirst ? self : other, 0);
  if (!image || !scale)
    return fail(reason, "its operands are not inputs of the node");
  node.streamOperands = {*image, *scale};
  node.inShape = scaleFirst ? *otherShape : *selfShape;
  node.secondShape = scaleFirst ? *selfShape : *otherShape;
  return true;
}

/// The channel of word i of the image stream, as an index into the scales.
int64_t scaleIndex(const HardwareNode &node, int64_t i) {
  int64_t channels = node.inShape[1],
          spatial = node.inShape[2] * node.inShape[3];
  return (i / (channels * spatial)) * channels + (i / spatial) % channels;
}

std::vector<int64_t> evaluateChannelMul(const HardwareNode &node,
                                        const NodeWords &words) {
  ArrayRef<int64_t> x = words.operands[0], s = words.operands[1];
  std::vector<int64_t> y(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    y[i] = requantize(x[i] * s[scaleIndex(node, i)], node.format.frac,
                      node.format.width);
  return y;
}

std::vector<double> boundChannelMul(const HardwareNode &node,
                                    const NodeErrors &in) {
  const std::vector<double> &x = in.operands[0], &s = in.operands[1];
  const std::vector<double> &ex = in.errors[0], &es = in.errors[1];
  std::vector<double> result(in.result.size());
  for (size_t i = 0; i < result.size(); ++i) {
    int64_t c = scaleIndex(node, i);
    result[i] = std::abs(x[i]) * es[c] + std::abs(s[c]) * ex[i] +
                ex[i] * es[c] +
                std::abs(dequantize(in.result[i], node.format) - x[i] * s[c]);
  }
  return result;
}

/// As mul, each word with its channel's scale.
NoiseEstimate estimateChannelMul(const HardwareNode &node,
                                 const NodeNoise &in) {
  const std::vector<double> &x = in.operands[0], &s = in.operands[1];
  const std::vector<double> &sx = in.meanSquares[0], &ss = in.meanSquares[1];
  NoiseEstimate estimate;
  double rounding = roundingMeanSquare(node.format);
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t c = scaleIndex(node, i);
    estimate.meanSquare.push_back(s[c] * s[c] * sx[i] + x[i] * x[i] * ss[c] +
                                  sx[i] * ss[c] + rounding);
    estimate.saturated += isSaturated(in.result[i], x[i] * s[c], node.format);
  }
  return estimate;
}

StreamWidths channelMulWidths(const HardwareNode &node,
                              const StreamWidths &cap) {
  int64_t channels = node.inShape[1];
  int64_t width = largestDivisorAtMost(channels, std::min(cap.in[0], cap.out));
  return StreamWidths{{width, largestDivisorAtMost(channels, cap.in[1])},
                      width};
}

/// The scale beats, then one image beat a cycle (fixed_channel_mul.sv).
int64_t channelMulCycles(const HardwareNode &node) {
  return node.inShape[1] / node.widths.in[1] +
         inItemWords(node) / node.widths.in[0] + 1;
}

/// The scale beats of an image (not passed on), then its x beats, through a
/// skid buffer.
ComponentTiming channelMulTiming(const HardwareNode &node) {
  ComponentTiming timing;
  timing.kind = ComponentTiming::Kind::Sequence;
  timing.phases = {{1, node.inShape[1] / node.widths.in[1], false},
                   {0, inItemWords(node) / node.widths.in[0], true}};
  return timing;
}

/// The skid buffer, the C scale words (registers), a requantisation per
/// word, lane counters.
ResourceEstimate channelMulResources(const HardwareNode &node) {
  ResourceEstimate estimate = skidResources(node);
  int64_t channels = node.inShape[1];
  estimate.flipFlops += channels * node.format.width + 64;
  estimate.luts += 2 * beatBits(node) + 64;
  return estimate;
}

void channelMulParameters(const HardwareNode &node, ParameterValues &values) {
  setParameter(values, "SCALE_PARALLELISM", node.widths.in[1]);
  setParameter(values, "CHANNELS", node.inShape[1]);
  setParameter(values, "SPATIAL", node.inShape[2] * node.inShape[3]);
}

constexpr llvm::StringRef concatParameterNames[] = {
    "DATA_WIDTH", "FRAC_WIDTH", "PARALLELISM", "IN0_WORDS", "IN1_WORDS"};
constexpr llvm::StringRef concatFiles[] = {"fixed_skid_buffer.sv",
                                           "fixed_concat2.sv"};
constexpr llvm::StringRef concatOperators[] = {"cat"};
constexpr llvm::StringRef channelMulParameterNames[] = {
    "DATA_WIDTH",        "FRAC_WIDTH", "PARALLELISM",
    "SCALE_PARALLELISM", "CHANNELS",   "SPATIAL"};
constexpr llvm::StringRef channelMulFiles[] = {
    "fixed_round_sat.sv", "fixed_skid_buffer.sv", "fixed_channel_mul.sv"};
constexpr llvm::StringRef channelMulOperators[] = {"mul"};

} // namespace

constexpr Component mav::components::fixedConcat2 = {
    .module = "fixed_concat2",
    .parameters = concatParameterNames,
    .dependenceFiles = concatFiles,
    .operators = concatOperators,
    .describe = describeConcat,
    .evaluate = evaluateConcat,
    .bound = boundConcat,
    .estimate = estimateConcat,
    .legalWidths = concatWidths,
    .itemCycles = concatCycles,
    .multipliers = noMultipliers,
    .timing = concatTiming,
    .resources = concatResources,
    .instanceParameters = concatParameters,
};

constexpr Component mav::components::fixedChannelMul = {
    .module = "fixed_channel_mul",
    .parameters = channelMulParameterNames,
    .dependenceFiles = channelMulFiles,
    .operators = channelMulOperators,
    .describe = describeChannelMul,
    .evaluate = evaluateChannelMul,
    .bound = boundChannelMul,
    .estimate = estimateChannelMul,
    .legalWidths = channelMulWidths,
    .itemCycles = channelMulCycles,
    .multipliers = multiplierPerWord,
    .timing = channelMulTiming,
    .resources = channelMulResources,
    .instanceParameters = channelMulParameters,
};
