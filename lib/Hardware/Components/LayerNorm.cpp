//===- LayerNorm.cpp - fixed_layernorm: LayerNorm over the last dimension -===//
//
// One exact integer definition (docs/Hardware.md, "LayerNorm"): an exact
// integer mean and variance, an integer square root and one reciprocal per
// row, then the affine output.
//
//===----------------------------------------------------------------------===//

#include "DescribeSupport.h"
#include "Entries.h"
#include "Estimates.h"

#include <cmath>

using namespace mlir;
using namespace mav;

namespace {

using Wide = __int128;

/// The square root has kRootBits fraction bits; the normalised value keeps
/// kGuardBits more than the format before the affine output.
constexpr int64_t kRootBits = 8, kGuardBits = 4;

/// floor(sqrt(value)), digit by digit.
Wide isqrt(Wide value) {
  Wide root = 0, bit = Wide(1) << 124;
  while (bit > value)
    bit >>= 2;
  while (bit != 0) {
    if (value >= root + bit) {
      value -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  return root;
}

int64_t getLength(const HardwareNode &node) { return node.inShape.back(); }

/// The fraction bits of the reciprocal's scale: K = F + clog2(D) + 16.
int64_t getScaleBits(const HardwareNode &node) {
  return node.format.frac + ceilLog2(getLength(node)) + 16;
}

void layerNormRow(const HardwareNode &node, ArrayRef<int64_t> x,
                  ArrayRef<int64_t> gamma, ArrayRef<int64_t> beta,
                  std::vector<int64_t> &y) {
  int64_t length = x.size(), frac = node.format.frac;
  Wide sum = 0;
  for (int64_t word : x)
    sum += word;
  SmallVector<Wide> centered;
  Wide squares = 0;
  for (int64_t word : x) {
    centered.push_back(Wide(length) * word - sum);
    squares += centered.back() * centered.back();
  }
  Wide variance = squares / length + node.epsilonTerm;
  Wide root = isqrt(variance << (2 * kRootBits));
  int64_t scaleBits = getScaleBits(node);
  Wide recip = root == 0 ? 0 : (Wide(1) << (scaleBits + kRootBits)) / root;
  for (int64_t i = 0; i < length; ++i) {
    Wide normalized = roundHalfEvenOf<Wide>(centered[i] * recip,
                                            scaleBits - frac - kGuardBits);
    Wide affine =
        normalized * gamma[i] + (Wide(beta[i]) << (frac + kGuardBits));
    Wide rounded = roundHalfEvenOf<Wide>(affine, frac + kGuardBits);
    y.push_back(static_cast<int64_t>(std::clamp<Wide>(
        rounded, minWord(node.format.width), maxWord(node.format.width))));
  }
}

bool describe(ComponentCall call, HardwareNode &node, std::string &reason) {
  std::optional<SmallVector<int64_t>> normalized =
      getIntList(call.call.get(1, "normalized_shape"), 1);
  if (node.inShape.empty() || !normalized || normalized->size() != 1 ||
      normalized->front() != node.inShape.back())
    return fail(reason,
                "fixed_layernorm normalizes over the last dimension only");
  node.weight = getWeight(call.call.operand(2, "weight"), call.symbols);
  node.bias = getWeight(call.call.operand(3, "bias"), call.symbols);
  if (!node.weight || !node.bias)
    return fail(reason, "its weight and bias must be module weights "
                        "(elementwise_affine=True)");
  Attribute eps = call.call.get(4, "eps");
  auto real = llvm::dyn_cast_or_null<FloatAttr>(eps);
  if (!real || real.getValueAsDouble() < 0)
    return fail(reason, "its eps must be a non-negative constant");
  node.epsilon = real.getValueAsDouble();
  node.batchDims = node.inShape.size() - 1;
  return true;
}

bool prepare(HardwareNode &node, std::string &reason) {
  int64_t length = getLength(node);
  double term = std::ldexp(node.epsilon * length * length,
                           2 * static_cast<int>(node.format.frac));
  if (node.format.width > 24 || length > 4096 || term > std::ldexp(1.0, 62))
    return fail(reason, "fixed_layernorm takes at most 24 bits and rows of "
                        "4096, not " +
                            formatFixed(node.format) + " and " + Twine(length));
  node.epsilonTerm = static_cast<int64_t>(std::llround(term));
  return true;
}

std::vector<int64_t> evaluate(const HardwareNode &node,
                              const NodeWords &words) {
  std::vector<int64_t> y;
  y.reserve(node.outNumel());
  int64_t length = getLength(node);
  for (int64_t row = 0, e = node.items(); row < e; ++row)
    layerNormRow(node, words.operands[0].slice(row * length, length),
                 words.weight, words.bias, y);
  return y;
}

/// A row's mean and sqrt(variance + eps), of the reals read.
struct RowMoments {
  double mean = 0, deviation = 0;
};

RowMoments getMoments(const HardwareNode &node, ArrayRef<double> x) {
  RowMoments moments;
  for (double value : x)
    moments.mean += value;
  moments.mean /= x.size();
  double variance = 0;
  for (double value : x)
    variance += (value - moments.mean) * (value - moments.mean);
  moments.deviation = std::sqrt(variance / x.size() + node.epsilon);
  return moments;
}

/// Inputs off by at most E in a row move x - mean by at most 2E, and the
/// deviation by at most 2E (it is 1-Lipschitz in the rms norm).
std::vector<double> bound(const HardwareNode &node, const NodeErrors &in) {
  int64_t length = getLength(node);
  std::vector<double> result(in.result.size());
  for (size_t row = 0; row < result.size(); row += length) {
    ArrayRef<double> x = ArrayRef(in.operands[0]).slice(row, length);
    ArrayRef<double> e = ArrayRef(in.errors[0]).slice(row, length);
    RowMoments moments = getMoments(node, x);
    double spread = 2 * *llvm::max_element(e);
    double low = std::max(moments.deviation - spread, std::sqrt(node.epsilon));
    for (int64_t i = 0; i < length; ++i) {
      double centered = x[i] - moments.mean;
      double exact = in.weight[i] * centered / moments.deviation + in.bias[i];
      double moved = low > 0
                         ? std::abs(in.weight[i]) *
                               (spread / low + std::abs(centered) * spread /
                                                   (moments.deviation * low))
                         : INFINITY;
      result[row + i] =
          moved + std::abs(dequantize(in.result[row + i], node.format) - exact);
    }
  }
  return result;
}

/// First order: d y_i = g/s (d x_i - mean(d x) - n_i mean(n d x)), plus
/// the result's own distance from LayerNorm of the reals read with the
/// float weights (the roundings, the weights' included).
NoiseEstimate estimate(const HardwareNode &node, const NodeNoise &in) {
  int64_t length = getLength(node);
  NoiseEstimate estimate;
  estimate.meanSquare.resize(in.result.size());
  for (size_t row = 0; row < in.result.size(); row += length) {
    ArrayRef<double> x = ArrayRef(in.operands[0]).slice(row, length);
    ArrayRef<double> m = ArrayRef(in.meanSquares[0]).slice(row, length);
    RowMoments moments = getMoments(node, x);
    double meanNoise = 0;
    for (double value : m)
      meanNoise += value / length;
    for (int64_t i = 0; i < length; ++i) {
      double n = (x[i] - moments.mean) / moments.deviation;
      double gain = in.weight[i] / moments.deviation;
      double exact = in.weight[i] * n + in.bias[i];
      estimate.meanSquare[row + i] =
          gain * gain * (m[i] + (1 + n * n) * meanNoise / length) +
          ownErrorMeanSquare(node.format, in.result[row + i], exact);
      estimate.saturated += isSaturated(in.result[row + i], exact, node.format);
    }
  }
  return estimate;
}

StreamWidths legalWidths(const HardwareNode &, const StreamWidths &) {
  return StreamWidths{{1}, 1};
}

/// One cycle for the variance, the root a bit a cycle, the reciprocal a bit
/// a cycle, two to fill the output (fixed_layernorm.sv; the sums are taken
/// as the row loads).
int64_t computeCycles(const HardwareNode &node) {
  int64_t width = node.format.width, lengthBits = ceilLog2(getLength(node));
  int64_t varianceBits =
      std::max(2 * width + 2 * lengthBits - 2, ceilLog2(node.epsilonTerm + 1)) +
      1;
  int64_t rootBits = (varianceBits + 16 + 1) / 2;
  return rootBits + getScaleBits(node) + 4;
}

int64_t itemCycles(const HardwareNode &node) {
  return 2 * getLength(node) + computeCycles(node);
}

int64_t multipliers(const HardwareNode &) { return 3; }

ComponentTiming timing(const HardwareNode &node) {
  return bufferedTiming(getLength(node), 1, computeCycles(node),
                        getLength(node));
}

/// The row, gamma and beta; the sums, the root and the reciprocal.
ResourceEstimate resources(const HardwareNode &node) {
  int64_t width = node.format.width, length = getLength(node);
  ResourceEstimate estimate;
  estimate.memoryBits = 3 * length * width;
  estimate.flipFlops = 2 * (2 * width + 3 * ceilLog2(length)) + 64 + width;
  estimate.luts = 12 * width + 4 * 64 + 64;
  return estimate;
}

void instanceParameters(const HardwareNode &node, ParameterValues &values) {
  setParameter(values, "LENGTH", getLength(node));
  // A 64-bit literal: the term may exceed 2^31.
  values["EPS_TERM"] = "64'd" + std::to_string(node.epsilonTerm);
}

constexpr llvm::StringRef parameters[] = {"DATA_WIDTH",   "FRAC_WIDTH",
                                          "LENGTH",       "EPS_TERM",
                                          "WEIGHTS_FILE", "BIAS_FILE"};
constexpr llvm::StringRef files[] = {"fixed_round_sat.sv",
                                     "fixed_layernorm.sv"};
constexpr llvm::StringRef operators[] = {"layer_norm"};

} // namespace

constexpr Component mav::components::fixedLayerNorm = {
    .module = "fixed_layernorm",
    .parameters = parameters,
    .dependenceFiles = files,
    .operators = operators,
    .describe = describe,
    .prepare = prepare,
    .evaluate = evaluate,
    .bound = bound,
    .estimate = estimate,
    .legalWidths = legalWidths,
    .itemCycles = itemCycles,
    .multipliers = multipliers,
    .timing = timing,
    .resources = resources,
    .instanceParameters = instanceParameters,
};
