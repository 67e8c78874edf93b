//===- Linear.cpp - fixed_linear: y = W x + b -----------------------------===//

#include "AffineRules.h"
#include "DescribeSupport.h"
#include "Entries.h"
#include "Estimates.h"

using namespace mav;

bool mav::checkAccumulator(const HardwareNode &node, int64_t terms,
                           std::string &reason) {
  if (2 * node.format.width + ceilLog2(terms + 1) <= 63)
    return true;
  return fail(reason, "the accumulator of " + llvm::Twine(terms) +
                          " terms at width " + llvm::Twine(node.format.width) +
                          " needs more than 63 bits");
}

namespace {

bool describe(ComponentCall call, HardwareNode &node, std::string &reason) {
  // Every dimension but the last is batch: the component takes vectors.
  node.batchDims = node.inShape.empty() ? 0 : node.inShape.size() - 1;
  return readWeightAndBias(call, node, reason);
}

bool prepare(HardwareNode &node, std::string &reason) {
  return checkAccumulator(node, node.inShape.back(), reason);
}

StreamWidths legalWidths(const HardwareNode &node, const StreamWidths &cap) {
  return StreamWidths{{largestDivisorAtMost(node.inShape.back(), cap.in[0])},
                      largestDivisorAtMost(node.outShape.back(), cap.out)};
}

/// IN/P_in load beats, then per output beat IN/P_in MAC cycles and one
/// emit cycle (fixed_linear.sv).
int64_t itemCycles(const HardwareNode &node) {
  int64_t in = node.inShape.back(), out = node.outShape.back();
  int64_t loads = in / node.widths.in[0];
  return loads + (out / node.widths.out) * (loads + 1);
}

int64_t multipliers(const HardwareNode &node) {
  return node.widths.in[0] * node.widths.out;
}

ComponentTiming timing(const HardwareNode &node) {
  int64_t loads = node.inShape.back() / node.widths.in[0];
  return bufferedTiming(loads, node.outShape.back() / node.widths.out, loads,
                        1);
}

/// ROMs (weights, bias) and the input vector; P_out accumulators adding
/// P_in products, the output beat register.
ResourceEstimate resources(const HardwareNode &node) {
  int64_t in = node.inShape.back(), out = node.outShape.back();
  int64_t width = node.format.width;
  ResourceEstimate estimate =
      macResources(node, node.widths.out, 2 * width + ceilLog2(in + 1),
                   node.widths.in[0] * node.widths.out, 48);
  estimate.memoryBits = (out * in + out + in) * width;
  estimate.flipFlops += node.widths.out * width;
  return estimate;
}

void instanceParameters(const HardwareNode &node, ParameterValues &values) {
  setParameter(values, "IN_FEATURES", node.inShape.back());
  setParameter(values, "OUT_FEATURES", node.outShape.back());
  setParameter(values, "IN_PARALLELISM", node.widths.in[0]);
  setParameter(values, "OUT_PARALLELISM", node.widths.out);
}

constexpr llvm::StringRef parameters[] = {
    "DATA_WIDTH",     "FRAC_WIDTH",      "IN_FEATURES",  "OUT_FEATURES",
    "IN_PARALLELISM", "OUT_PARALLELISM", "WEIGHTS_FILE", "BIAS_FILE"};
constexpr llvm::StringRef files[] = {"fixed_round_sat.sv", "fixed_linear.sv"};
constexpr llvm::StringRef operators[] = {"linear"};

} // namespace

constexpr Component mav::components::fixedLinear = {
    .module = "fixed_linear",
    .parameters = parameters,
    .dependenceFiles = files,
    .operators = operators,
    .describe = describe,
    .prepare = prepare,
    .evaluate = evaluateAffine<LinearTaps>,
    .bound = boundAffine<LinearTaps>,
    .estimate = estimateAffine<LinearTaps>,
    .legalWidths = legalWidths,
    .itemCycles = itemCycles,
    .multipliers = multipliers,
    .timing = timing,
    .resources = resources,
    .instanceParameters = instanceParameters,
};
