//===- Scale.cpp - fixed_scale: x times a constant ------------------------===//
//
// The attention's 1/sqrt(d), and any multiplication or division of a stream
// by a number: y = sat(rne(x * c / 2^F)), c the constant's word.
//
//===----------------------------------------------------------------------===//

#include "DescribeSupport.h"
#include "Entries.h"
#include "Estimates.h"

#include "mav/IR/WeightData.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace mav;

namespace {

bool describe(ComponentCall call, HardwareNode &node, std::string &reason) {
  Attribute other = call.call.get(1, "other");
  std::optional<double> value;
  if (auto real = llvm::dyn_cast_or_null<FloatAttr>(other))
    value = real.getValueAsDouble();
  else if (auto integer = llvm::dyn_cast_or_null<IntegerAttr>(other))
    if (!integer.getType().isInteger(1))
      value = static_cast<double>(integer.getInt());
  if (!value)
    if (WeightOp constant =
            getWeight(call.call.operand(1, "other"), call.symbols))
      value = readScalarElement(constant.getValue());
  if (!value)
    return fail(reason, "fixed_scale multiplies by a number constant only");
  if (call.maseOp == "div") {
    if (!call.call.isNone(2, "rounding_mode"))
      return fail(reason, "fixed_scale does not round a quotient");
    if (*value == 0)
      return fail(reason, "it divides by zero");
    value = 1 / *value;
  }
  node.scale = *value;
  return true;
}

/// A real as printf's %g writes it: 1e-05, 0.25.
std::string formatReal(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

bool prepare(HardwareNode &node, std::string &reason) {
  node.scaleWord = quantize(node.scale, node.format);
  if (node.scaleWord == 0 && node.scale != 0)
    return fail(reason, "its factor " + formatReal(node.scale) + " is 0 in " +
                            formatFixed(node.format));
  if (std::abs(dequantize(node.scaleWord, node.format) - node.scale) >
      dequantize(1, node.format))
    return fail(reason, "its factor " + formatReal(node.scale) +
                            " does not fit in " + formatFixed(node.format));
  return true;
}

std::vector<int64_t> evaluate(const HardwareNode &node,
                              const NodeWords &words) {
  std::vector<int64_t> y;
  y.reserve(words.operands[0].size());
  for (int64_t x : words.operands[0])
    y.push_back(
        requantize(x * node.scaleWord, node.format.frac, node.format.width));
  return y;
}

/// |c| e, plus the result's distance from c x (the factor's rounding
/// included).
std::vector<double> bound(const HardwareNode &node, const NodeErrors &in) {
  std::vector<double> result(in.result.size());
  for (size_t i = 0; i < result.size(); ++i)
    result[i] = std::abs(node.scale) * in.errors[0][i] +
                std::abs(dequantize(in.result[i], node.format) -
                         node.scale * in.operands[0][i]);
  return result;
}

NoiseEstimate estimate(const HardwareNode &node, const NodeNoise &in) {
  double factor = dequantize(node.scaleWord, node.format);
  NoiseEstimate estimate = estimateElementwise(
      node, in, /*rounds=*/true, [&](double) { return node.scale; },
      [&](double x) { return node.scale * x; });
  for (auto [meanSquare, x] : llvm::zip(estimate.meanSquare, in.operands[0]))
    meanSquare += (factor - node.scale) * (factor - node.scale) * x * x;
  return estimate;
}

void instanceParameters(const HardwareNode &node, ParameterValues &values) {
  setParameter(values, "SCALE_WORD", node.scaleWord);
}

constexpr llvm::StringRef parameters[] = {"DATA_WIDTH", "FRAC_WIDTH",
                                          "PARALLELISM", "SCALE_WORD"};
constexpr llvm::StringRef files[] = {"fixed_round_sat.sv",
                                     "fixed_skid_buffer.sv", "fixed_scale.sv"};
constexpr llvm::StringRef operators[] = {"mul", "div"};

} // namespace

constexpr Component mav::components::fixedScale = {
    .module = "fixed_scale",
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
    .resources = streamingResources<4>,
    .instanceParameters = instanceParameters,
};
