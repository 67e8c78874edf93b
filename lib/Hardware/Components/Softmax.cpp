//===- Softmax.cpp - fixed_softmax: softmax along the last dimension ------===//
//
// One exact integer definition (docs/Hardware.md, "Softmax"): the row's
// maximum subtracted, exp as 2^(d log2 e) with a cubic for the fraction, one
// reciprocal of the sum per row.
//
//===----------------------------------------------------------------------===//

#include "DescribeSupport.h"
#include "Entries.h"
#include "Estimates.h"

#include <cmath>

using namespace mlir;
using namespace mav;

namespace {

/// log2(e) with 16 fraction bits, and the cubic for 2^f - 1 on [0, 1).
constexpr int64_t kLog2E = 94548;
constexpr int64_t kExpC1 = 45555, kExpC2 = 14919, kExpC3 = 5050;
/// The reciprocal of the sum has kRecipBits fraction bits.
constexpr int64_t kRecipBits = 48;

/// exp(d) for a word d <= 0 of `frac` fraction bits, with 16 fraction bits.
int64_t expWord(int64_t d, int64_t frac) {
  int64_t t = d * kLog2E;
  int64_t shift = frac + 16;
  int64_t n = t >> shift; // floor: t <= 0, arithmetic shift
  int64_t f = (t - n * (int64_t(1) << shift)) >> frac;
  int64_t p =
      65536 +
      ((f * (kExpC1 + ((f * (kExpC2 + ((f * kExpC3) >> 16))) >> 16))) >> 16);
  return -n >= 32 ? 0 : p >> -n;
}

void softmaxRow(ArrayRef<int64_t> x, FixedFormat format,
                std::vector<int64_t> &y) {
  int64_t largest = *llvm::max_element(x);
  SmallVector<int64_t> e;
  int64_t sum = 0;
  for (int64_t word : x) {
    e.push_back(expWord(word - largest, format.frac));
    sum += e.back();
  }
  int64_t recip = (int64_t(1) << kRecipBits) / sum;
  for (int64_t value : e)
    y.push_back(
        requantize(value * recip, kRecipBits - format.frac, format.width));
}

int64_t getLength(const HardwareNode &node) { return node.inShape.back(); }

bool describe(ComponentCall call, HardwareNode &node, std::string &reason) {
  auto dim = llvm::dyn_cast_or_null<IntegerAttr>(call.call.get(1, "dim"));
  int64_t rank = node.inShape.size();
  if (!dim || (dim.getInt() != -1 && dim.getInt() != rank - 1))
    return fail(reason, "fixed_softmax computes along the last dimension only");
  if (!call.call.isNone(2, "dtype"))
    return fail(reason, "its dtype must be None");
  node.batchDims = rank - 1;
  return true;
}

bool prepare(HardwareNode &node, std::string &reason) {
  if (node.format.frac > 40 || node.format.width > 32)
    return fail(reason, "fixed_softmax needs at most 40 fraction bits and 32 "
                        "bits, not " +
                            formatFixed(node.format));
  return true;
}

std::vector<int64_t> evaluate(const HardwareNode &node,
                              const NodeWords &words) {
  std::vector<int64_t> y;
  y.reserve(node.outNumel());
  int64_t length = getLength(node);
  for (int64_t row = 0, e = node.items(); row < e; ++row)
    softmaxRow(words.operands[0].slice(row * length, length), node.format, y);
  return y;
}

/// The exact softmax of the reals read, row by row.
std::vector<double> exactSoftmax(const HardwareNode &node, ArrayRef<double> x) {
  std::vector<double> s(x.size());
  int64_t length = getLength(node);
  for (size_t row = 0; row < x.size(); row += length) {
    ArrayRef<double> values = x.slice(row, length);
    double largest = *llvm::max_element(values), sum = 0;
    for (int64_t i = 0; i < length; ++i)
      sum += s[row + i] = std::exp(values[i] - largest);
    for (int64_t i = 0; i < length; ++i)
      s[row + i] /= sum;
  }
  return s;
}

/// Inputs off by at most e_i: softmax_i moves by a factor within
/// exp(+-(e_i + max_j e_j)).
std::vector<double> bound(const HardwareNode &node, const NodeErrors &in) {
  std::vector<double> s = exactSoftmax(node, in.operands[0]);
  const std::vector<double> &errors = in.errors[0];
  std::vector<double> result(s.size());
  int64_t length = getLength(node);
  for (size_t row = 0; row < s.size(); row += length) {
    double largest =
        *std::max_element(errors.begin() + row, errors.begin() + row + length);
    for (int64_t i = 0; i < length; ++i) {
      size_t at = row + i;
      result[at] = s[at] * std::expm1(errors[at] + largest) +
                   std::abs(dequantize(in.result[at], node.format) - s[at]);
    }
  }
  return result;
}

/// First order: d y_i = s_i (d x_i - sum_j s_j d x_j), plus the result's
/// own distance from the exact softmax (the exp's approximation and the
/// rounding).
NoiseEstimate estimate(const HardwareNode &node, const NodeNoise &in) {
  std::vector<double> s = exactSoftmax(node, in.operands[0]);
  const std::vector<double> &m = in.meanSquares[0];
  NoiseEstimate estimate;
  estimate.meanSquare.resize(s.size());
  int64_t length = getLength(node);
  for (size_t row = 0; row < s.size(); row += length) {
    double shared = 0;
    for (int64_t j = 0; j < length; ++j)
      shared += s[row + j] * s[row + j] * m[row + j];
    for (int64_t i = 0; i < length; ++i) {
      size_t at = row + i;
      estimate.meanSquare[at] =
          s[at] * s[at] * (m[at] * (1 - 2 * s[at]) + shared) +
          ownErrorMeanSquare(node.format, in.result[at], s[at]);
      estimate.saturated += isSaturated(in.result[at], s[at], node.format);
    }
  }
  return estimate;
}

StreamWidths legalWidths(const HardwareNode &, const StreamWidths &) {
  return StreamWidths{{1}, 1};
}

/// The exp pass and the reciprocal between the load and the emission
/// (fixed_softmax.sv).
int64_t computeCycles(const HardwareNode &node) { return getLength(node) + 2; }

int64_t itemCycles(const HardwareNode &node) {
  return 2 * getLength(node) + computeCycles(node);
}

int64_t multipliers(const HardwareNode &) { return 4; }

ComponentTiming timing(const HardwareNode &node) {
  return bufferedTiming(getLength(node), 1, computeCycles(node),
                        getLength(node));
}

/// The row and its exps; the sum, the reciprocal and the exp's datapath.
ResourceEstimate resources(const HardwareNode &node) {
  int64_t width = node.format.width, length = getLength(node);
  ResourceEstimate estimate;
  estimate.memoryBits = length * (width + 17);
  estimate.flipFlops = 2 * width + 17 + ceilLog2(length) + 17 + 32 + 16;
  estimate.luts = 8 * width + 4 * 48 + 64;
  return estimate;
}

void instanceParameters(const HardwareNode &node, ParameterValues &values) {
  setParameter(values, "LENGTH", getLength(node));
}

constexpr llvm::StringRef parameters[] = {"DATA_WIDTH", "FRAC_WIDTH", "LENGTH"};
constexpr llvm::StringRef files[] = {"fixed_round_sat.sv", "fixed_softmax.sv"};
constexpr llvm::StringRef operators[] = {"softmax"};

} // namespace

constexpr Component mav::components::fixedSoftmax = {
    .module = "fixed_softmax",
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
