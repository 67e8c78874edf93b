//===- Activations.cpp - fixed_clamp, fixed_hardswish, fixed_hardsigmoid --===//
//
// The piecewise-linear activations of the MobileNets, each defined exactly
// on words (include/mav/Hardware/FixedPoint.h, docs/Hardware.md).
//
//===----------------------------------------------------------------------===//

#include "DescribeSupport.h"
#include "Entries.h"
#include "Estimates.h"

#include <cmath>

using namespace mlir;
using namespace mav;

namespace {

/// A float or int constant argument.
std::optional<double> getNumber(Attribute value) {
  if (auto real = llvm::dyn_cast_or_null<FloatAttr>(value))
    return real.getValueAsDouble();
  if (auto integer = llvm::dyn_cast_or_null<IntegerAttr>(value))
    if (!integer.getType().isInteger(1))
      return static_cast<double>(integer.getInt());
  return std::nullopt;
}

/// relu6 is clamp(x, 0, 6); hardtanh is clamp(x, min_val, max_val), by
/// default (-1, 1).
bool describeClamp(ComponentCall call, HardwareNode &node,
                   std::string &reason) {
  node.clampMin = 0;
  node.clampMax = 6;
  if (call.maseOp == "hardtanh") {
    Attribute low = call.call.get(1, "min_val"),
              high = call.call.get(2, "max_val");
    std::optional<double> lowValue = low ? getNumber(low) : -1.0;
    std::optional<double> highValue = high ? getNumber(high) : 1.0;
    if (!lowValue || !highValue)
      return fail(reason, "its min_val and max_val must be constants");
    node.clampMin = *lowValue;
    node.clampMax = *highValue;
  }
  if (!(node.clampMin <= node.clampMax))
    return fail(reason, "its min_val must not exceed its max_val");
  return true;
}

bool prepareClamp(HardwareNode &node, std::string &) {
  node.clampMinWord = quantize(node.clampMin, node.format);
  node.clampMaxWord = quantize(node.clampMax, node.format);
  return true;
}

bool prepareReciprocal(HardwareNode &node, std::string &) {
  node.recipFrac = activationRecipFrac(node.format);
  return true;
}

template <typename WordFn>
std::vector<int64_t> mapWords(const NodeWords &words, WordFn &&word) {
  std::vector<int64_t> y;
  y.reserve(words.operands[0].size());
  for (int64_t x : words.operands[0])
    y.push_back(word(x));
  return y;
}

std::vector<int64_t> evaluateClamp(const HardwareNode &node,
                                   const NodeWords &words) {
  return mapWords(words, [&](int64_t x) {
    return std::clamp(x, node.clampMinWord, node.clampMaxWord);
  });
}

std::vector<int64_t> evaluateHardsigmoid(const HardwareNode &node,
                                         const NodeWords &words) {
  return mapWords(words, [&](int64_t x) {
    return hardsigmoidWord(x, node.format, node.recipFrac);
  });
}

std::vector<int64_t> evaluateHardswish(const HardwareNode &node,
                                       const NodeWords &words) {
  return mapWords(words, [&](int64_t x) {
    return hardswishWord(x, node.format, node.recipFrac);
  });
}

/// f is `lipschitz`-Lipschitz: |f(x^) - f(x)| <= L e; the rest is how far
/// the words are from f of the reals they were computed from.
template <typename RealFn>
std::vector<double> boundLipschitz(const HardwareNode &node,
                                   const NodeErrors &in, double lipschitz,
                                   RealFn &&exact) {
  std::vector<double> result(in.result.size());
  for (size_t i = 0; i < result.size(); ++i)
    result[i] = lipschitz * in.errors[0][i] +
                std::abs(dequantize(in.result[i], node.format) -
                         exact(in.operands[0][i]));
  return result;
}

std::vector<double> boundClamp(const HardwareNode &node, const NodeErrors &in) {
  return boundLipschitz(node, in, 1.0, [&](double x) {
    return std::clamp(x, node.clampMin, node.clampMax);
  });
}

double hardsigmoid(double x) { return std::clamp(x + 3, 0.0, 6.0) / 6; }

std::vector<double> boundHardsigmoid(const HardwareNode &node,
                                     const NodeErrors &in) {
  return boundLipschitz(node, in, 1.0 / 6, hardsigmoid);
}

/// x * relu6(x + 3) / 6 has slope (2x + 3) / 6 on [-3, 3], 0 below and 1
/// above: it is 1.5-Lipschitz.
std::vector<double> boundHardswish(const HardwareNode &node,
                                   const NodeErrors &in) {
  return boundLipschitz(node, in, 1.5,
                        [](double x) { return x * hardsigmoid(x); });
}

/// The clamp is exact; near a bound it cuts the error as the relu's kink
/// does, at the nearer bound.
NoiseEstimate estimateClamp(const HardwareNode &node, const NodeNoise &in) {
  NoiseEstimate estimate;
  for (auto [x, meanSquare, allowed] :
       llvm::zip(in.operands[0], in.meanSquares[0], in.allowed[0])) {
    double distance = std::min(x - node.clampMin, node.clampMax - x);
    estimate.meanSquare.push_back(reluMeanSquare(distance, meanSquare));
    estimate.allowed.push_back(
        std::max(estimate.meanSquare.back(), reluAllowed(distance, allowed)));
  }
  return estimate;
}

/// Slope 1/6 between -3 and 3, 0 outside; the result is rounded.
NoiseEstimate estimateHardsigmoid(const HardwareNode &node,
                                  const NodeNoise &in) {
  return estimateElementwise(
      node, in, /*rounds=*/true,
      [](double x) { return std::abs(x) < 3 ? 1.0 / 6 : 0.0; }, hardsigmoid);
}

/// Slope (2x + 3) / 6 between -3 and 3, 0 below, 1 above; rounded.
NoiseEstimate estimateHardswish(const HardwareNode &node, const NodeNoise &in) {
  return estimateElementwise(
      node, in, /*rounds=*/true,
      [](double x) { return x <= -3  ? 0.0
                            : x >= 3 ? 1.0
                                     : (2 * x + 3) / 6; },
      [](double x) { return x * hardsigmoid(x); });
}

/// x * t, then the product by the reciprocal.
int64_t hardswishMultipliers(const HardwareNode &node) {
  return 2 * node.widths.out;
}

void clampParameters(const HardwareNode &node, ParameterValues &values) {
  setParameter(values, "MIN_WORD", node.clampMinWord);
  setParameter(values, "MAX_WORD", node.clampMaxWord);
}

void reciprocalParameters(const HardwareNode &node, ParameterValues &values) {
  setParameter(values, "RECIP_FRAC", node.recipFrac);
}

bool describeAny(ComponentCall, HardwareNode &, std::string &) { return true; }

constexpr llvm::StringRef clampParameterNames[] = {
    "DATA_WIDTH", "FRAC_WIDTH", "PARALLELISM", "MIN_WORD", "MAX_WORD"};
constexpr llvm::StringRef clampFiles[] = {"fixed_skid_buffer.sv",
                                          "fixed_clamp.sv"};
constexpr llvm::StringRef clampOperators[] = {"relu6", "hardtanh"};
constexpr llvm::StringRef recipParameterNames[] = {"DATA_WIDTH", "FRAC_WIDTH",
                                                   "PARALLELISM", "RECIP_FRAC"};
constexpr llvm::StringRef hardsigmoidFiles[] = {
    "fixed_round_sat.sv", "fixed_skid_buffer.sv", "fixed_hardsigmoid.sv"};
constexpr llvm::StringRef hardswishFiles[] = {
    "fixed_round_sat.sv", "fixed_skid_buffer.sv", "fixed_hardswish.sv"};
constexpr llvm::StringRef hardsigmoidOperators[] = {"hardsigmoid"};
constexpr llvm::StringRef hardswishOperators[] = {"hardswish"};

} // namespace

constexpr Component mav::components::fixedClamp = {
    .module = "fixed_clamp",
    .parameters = clampParameterNames,
    .dependenceFiles = clampFiles,
    .operators = clampOperators,
    .describe = describeClamp,
    .prepare = prepareClamp,
    .evaluate = evaluateClamp,
    .bound = boundClamp,
    .estimate = estimateClamp,
    .legalWidths = uniformWidths,
    .itemCycles = streamingCycles,
    .multipliers = noMultipliers,
    .timing = sliceTiming,
    .resources = streamingResources<2>,
    .instanceParameters = clampParameters,
};

constexpr Component mav::components::fixedHardsigmoid = {
    .module = "fixed_hardsigmoid",
    .parameters = recipParameterNames,
    .dependenceFiles = hardsigmoidFiles,
    .operators = hardsigmoidOperators,
    .describe = describeAny,
    .prepare = prepareReciprocal,
    .evaluate = evaluateHardsigmoid,
    .bound = boundHardsigmoid,
    .estimate = estimateHardsigmoid,
    .legalWidths = uniformWidths,
    .itemCycles = streamingCycles,
    .multipliers = multiplierPerWord,
    .timing = sliceTiming,
    .resources = streamingResources<3>,
    .instanceParameters = reciprocalParameters,
};

constexpr Component mav::components::fixedHardswish = {
    .module = "fixed_hardswish",
    .parameters = recipParameterNames,
    .dependenceFiles = hardswishFiles,
    .operators = hardswishOperators,
    .describe = describeAny,
    .prepare = prepareReciprocal,
    .evaluate = evaluateHardswish,
    .bound = boundHardswish,
    .estimate = estimateHardswish,
    .legalWidths = uniformWidths,
    .itemCycles = streamingCycles,
    .multipliers = hardswishMultipliers,
    .timing = sliceTiming,
    .resources = streamingResources<4>,
    .instanceParameters = reciprocalParameters,
};
