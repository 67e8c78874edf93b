//===- Conv2d.cpp - fixed_conv2d: 2-D convolution -------------------------===//

#include "AffineRules.h"
#include "DescribeSupport.h"
#include "Entries.h"
#include "Estimates.h"

using namespace mlir;
using namespace mav;

namespace {

bool describe(ComponentCall call, HardwareNode &node, std::string &reason) {
  if (!need4d(node, reason))
    return false;
  const AtenCall &aten = call.call;
  bool convolution = aten.args.size() > 9; // aten::_convolution
  auto stride = getIntList(aten.get(3, "stride"), 2);
  auto padding = getIntList(aten.get(4, "padding"), 2);
  auto dilation = getIntList(aten.get(5, "dilation"), 2);
  auto groups = getIntList(aten.get(convolution ? 8 : 6, "groups"), 1);
  if (convolution && !isFalse(aten.get(6, "transposed")))
    return fail(reason,
                "transposed convolution is not supported by fixed_conv2d");
  if (!stride || !padding || !dilation || !groups)
    return fail(reason, "its stride, padding, dilation and groups must be "
                        "constants");
  int64_t groupCount = (*groups)[0];
  if (groupCount < 1 || node.inShape[1] % groupCount != 0 ||
      node.outShape[1] % groupCount != 0)
    return fail(reason, "groups " + Twine(groupCount) +
                            " must divide the input and output channels");
  if ((*dilation)[0] != 1 || (*dilation)[1] != 1)
    return fail(reason, "dilation " + Twine(joinSizes(*dilation)) +
                            " is not supported by fixed_conv2d");
  if ((*stride)[0] != (*stride)[1] || (*padding)[0] != (*padding)[1])
    return fail(reason, "fixed_conv2d needs a square stride and padding, got "
                        "stride " +
                            Twine(joinSizes(*stride)) + ", padding " +
                            joinSizes(*padding));
  if (!readWeightAndBias(call, node, reason))
    return false;
  auto type = llvm::cast<ShapedType>(node.weight.getValue().getType());
  node.kernelH = type.getDimSize(2);
  node.kernelW = type.getDimSize(3);
  node.stride = (*stride)[0];
  node.padding = (*padding)[0];
  node.groups = groupCount;
  return true;
}

bool isDepthwise(const HardwareNode &node) {
  return node.groups > 1 && node.groups == node.inShape[1] &&
         node.groups == node.outShape[1];
}

/// Dense and grouped: P_in of a group's input channels times P_out of its
/// output channels; depthwise: P channels.
StreamWidths legalWidths(const HardwareNode &node, const StreamWidths &cap) {
  if (isDepthwise(node)) {
    int64_t width =
        largestDivisorAtMost(node.groups, std::min(cap.in[0], cap.out));
    return StreamWidths{{width}, width};
  }
  return StreamWidths{
      {largestDivisorAtMost(node.inShape[1] / node.groups, cap.in[0])},
      largestDivisorAtMost(node.outShape[1] / node.groups, cap.out)};
}

bool prepare(HardwareNode &node, std::string &reason) {
  return checkAccumulator(
      node, node.inShape[1] / node.groups * node.kernelH * node.kernelW,
      reason);
}

/// C*H*W/P_in load beats, then per block of P_out output channels OH*OW
/// windows of CH*KH*KW tap cycles (padding included) and OH*OW emit cycles,
/// CH = (C/G)/P_in chunks, 1 when depthwise (fixed_conv2d.sv).
int64_t itemCycles(const HardwareNode &node) {
  int64_t chunks =
      isDepthwise(node) ? 1 : node.inShape[1] / node.groups / node.widths.in[0];
  int64_t windows = node.outShape[2] * node.outShape[3];
  return inItemWords(node) / node.widths.in[0] +
         node.outShape[1] / node.widths.out * windows *
             (chunks * node.kernelH * node.kernelW + 1);
}

int64_t multipliers(const HardwareNode &node) {
  return isDepthwise(node) ? node.widths.out
                           : node.widths.in[0] * node.widths.out;
}

ComponentTiming timing(const HardwareNode &node) {
  int64_t chunks =
      isDepthwise(node) ? 1 : node.inShape[1] / node.groups / node.widths.in[0];
  int64_t windows = node.outShape[2] * node.outShape[3];
  return bufferedTiming(
      inItemWords(node) / node.widths.in[0], node.outShape[1] / node.widths.out,
      windows * chunks * node.kernelH * node.kernelW, windows);
}

/// ROMs (weights, bias), the image buffer and the block's output planes;
/// P_out accumulators adding P_in products (depthwise: P of one each).
ResourceEstimate resources(const HardwareNode &node) {
  int64_t width = node.format.width;
  int64_t taps = node.inShape[1] / node.groups * node.kernelH * node.kernelW;
  int64_t windows = node.outShape[2] * node.outShape[3];
  ResourceEstimate estimate =
      macResources(node, node.widths.out, 2 * width + ceilLog2(taps + 1),
                   multipliers(node), 128);
  estimate.memoryBits = (node.outShape[1] * taps + node.outShape[1] +
                         inItemWords(node) + node.widths.out * windows) *
                        width;
  return estimate;
}

void instanceParameters(const HardwareNode &node, ParameterValues &values) {
  setParameter(values, "IN_CHANNELS", node.inShape[1]);
  setParameter(values, "OUT_CHANNELS", node.outShape[1]);
  setParameter(values, "IN_HEIGHT", node.inShape[2]);
  setParameter(values, "IN_WIDTH", node.inShape[3]);
  setParameter(values, "KERNEL_H", node.kernelH);
  setParameter(values, "KERNEL_W", node.kernelW);
  setParameter(values, "STRIDE", node.stride);
  setParameter(values, "PADDING", node.padding);
  setParameter(values, "GROUPS", node.groups);
  setParameter(values, "IN_PARALLELISM", node.widths.in[0]);
  setParameter(values, "OUT_PARALLELISM", node.widths.out);
}

constexpr llvm::StringRef parameters[] = {
    "DATA_WIDTH",  "FRAC_WIDTH",   "IN_PARALLELISM", "OUT_PARALLELISM",
    "IN_CHANNELS", "OUT_CHANNELS", "GROUPS",         "IN_HEIGHT",
    "IN_WIDTH",    "KERNEL_H",     "KERNEL_W",       "STRIDE",
    "PADDING",     "WEIGHTS_FILE", "BIAS_FILE"};
constexpr llvm::StringRef files[] = {"fixed_round_sat.sv", "fixed_conv2d.sv"};
constexpr llvm::StringRef operators[] = {"conv2d"};

} // namespace

constexpr Component mav::components::fixedConv2d = {
    .module = "fixed_conv2d",
    .parameters = parameters,
    .dependenceFiles = files,
    .operators = operators,
    .describe = describe,
    .prepare = prepare,
    .evaluate = evaluateAffine<ConvTaps>,
    .bound = boundAffine<ConvTaps>,
    .estimate = estimateAffine<ConvTaps>,
    .legalWidths = legalWidths,
    .itemCycles = itemCycles,
    .multipliers = multipliers,
    .timing = timing,
    .resources = resources,
    .instanceParameters = instanceParameters,
};
