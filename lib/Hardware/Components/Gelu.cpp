//===- Gelu.cpp - fixed_gelu: x * Phi(x), the exact erf form --------------===//
//
// One exact integer definition (docs/Hardware.md, "GELU"): Phi from a table
// of 65 samples on [0, 4] with linear interpolation, by symmetry below 0.
//
//===----------------------------------------------------------------------===//

#include "DescribeSupport.h"
#include "Entries.h"
#include "Estimates.h"

#include <array>
#include <cmath>

using namespace mlir;
using namespace mav;

namespace {

/// Phi(k / 16) with 16 fraction bits, k = 0..64: the table in fixed_gelu.sv.
const std::array<int64_t, 65> &getPhiTable() {
  static const std::array<int64_t, 65> table = [] {
    std::array<int64_t, 65> samples;
    for (int k = 0; k <= 64; ++k)
      samples[k] = std::llround(
          std::ldexp(0.5 * (1 + std::erf(k / 16.0 / std::sqrt(2.0))), 16));
    return samples;
  }();
  return table;
}

int64_t geluWord(int64_t x, FixedFormat format) {
  const std::array<int64_t, 65> &table = getPhiTable();
  int64_t magnitude = std::abs(x) << (16 - format.frac);
  int64_t index = magnitude >> 12, weight = magnitude & 4095;
  int64_t phi =
      index >= 64
          ? 65536
          : table[index] + (((table[index + 1] - table[index]) * weight) >> 12);
  int64_t signedPhi = x < 0 ? 65536 - phi : phi;
  return requantize(x * signedPhi, 16, format.width);
}

double gelu(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }

/// The derivative Phi(x) + x phi(x).
double geluSlope(double x) {
  return 0.5 * (1 + std::erf(x / std::sqrt(2.0))) +
         x * std::exp(-x * x / 2) / std::sqrt(2 * M_PI);
}

bool describe(ComponentCall call, HardwareNode &, std::string &reason) {
  Attribute approximate = call.call.get(1, "approximate");
  auto text = llvm::dyn_cast_or_null<StringAttr>(approximate);
  if (approximate && !call.call.isNone(1, "approximate") &&
      (!text || text.getValue() != "none"))
    return fail(reason, "fixed_gelu computes the erf form only, not "
                        "approximate='tanh'");
  return true;
}

bool prepare(HardwareNode &node, std::string &reason) {
  if (node.format.frac > 16 || node.format.width > 32)
    return fail(reason, "fixed_gelu needs at most 16 fraction bits and 32 "
                        "bits, not " +
                            formatFixed(node.format));
  return true;
}

std::vector<int64_t> evaluate(const HardwareNode &node,
                              const NodeWords &words) {
  std::vector<int64_t> y;
  y.reserve(words.operands[0].size());
  for (int64_t x : words.operands[0])
    y.push_back(geluWord(x, node.format));
  return y;
}

/// GELU's slope lies in [-0.17, 1.13].
std::vector<double> bound(const HardwareNode &node, const NodeErrors &in) {
  std::vector<double> result(in.result.size());
  for (size_t i = 0; i < result.size(); ++i)
    result[i] = 1.13 * in.errors[0][i] +
                std::abs(dequantize(in.result[i], node.format) -
                         gelu(in.operands[0][i]));
  return result;
}

/// The slope times the input's error, plus the result's own distance from
/// GELU of the real read (the table's interpolation and the rounding).
NoiseEstimate estimate(const HardwareNode &node, const NodeNoise &in) {
  NoiseEstimate estimate;
  for (auto [x, meanSquare, word] :
       llvm::zip(in.operands[0], in.meanSquares[0], in.result)) {
    double slope = geluSlope(x);
    estimate.meanSquare.push_back(
        slope * slope * meanSquare +
        ownErrorMeanSquare(node.format, word, gelu(x)));
    estimate.saturated += isSaturated(word, gelu(x), node.format);
  }
  return estimate;
}

constexpr llvm::StringRef parameters[] = {"DATA_WIDTH", "FRAC_WIDTH",
                                          "PARALLELISM"};
constexpr llvm::StringRef files[] = {"fixed_round_sat.sv",
                                     "fixed_skid_buffer.sv", "fixed_gelu.sv"};
constexpr llvm::StringRef operators[] = {"gelu"};

} // namespace

constexpr Component mav::components::fixedGelu = {
    .module = "fixed_gelu",
    .parameters = parameters,
    .dependenceFiles = files,
    .operators = operators,
    .describe = describe,
    .prepare = prepare,
    .evaluate = evaluate,
    .bound = bound,
    .estimate = estimate,
    .legalWidths = uniformWidths,
    .itemCycles = streamingCycles,
    .multipliers = multiplierPerWord,
    .timing = sliceTiming,
    .resources = streamingResources<6>,
    .instanceParameters = noParameters,
};
