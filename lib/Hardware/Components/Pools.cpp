//===- Pools.cpp - fixed_maxpool2d and fixed_avgpool2d --------------------===//

#include "DescribeSupport.h"
#include "Entries.h"
#include "Estimates.h"
#include "PoolWindows.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mav;

namespace {

/// PyTorch's output size of a pooled dimension.
int64_t pooledSize(int64_t size, int64_t kernel, int64_t stride,
                   int64_t padding, bool ceilMode) {
  int64_t span = size + 2 * padding - kernel;
  int64_t out = (ceilMode ? (span + stride - 1) / stride : span / stride) + 1;
  // In ceil mode the last window must start inside the image or the left
  // padding.
  if (ceilMode && (out - 1) * stride >= size + padding)
    --out;
  return out;
}

/// max_pool2d: kernel, stride, symmetric padding (ignored taps), floor or
/// ceil mode. avg_pool2d: no padding, floor mode.
bool describeWindowedPool(ComponentCall call, HardwareNode &node, bool max,
                          std::string &reason) {
  if (!need4d(node, reason))
    return false;
  const AtenCall &aten = call.call;
  auto kernel = getIntList(aten.get(1, "kernel_size"), 2);
  auto stride = getIntList(aten.get(2, "stride"), 2);
  auto padding = getIntList(aten.get(3, "padding"), 2);
  if (stride && stride->empty())
    stride = kernel;
  if (!kernel || !stride || !padding)
    return fail(reason, "its kernel, stride and padding must be constants");
  Attribute ceilAttr = aten.get(max ? 5 : 4, "ceil_mode");
  bool ceilMode = ceilAttr && !isFalse(ceilAttr);
  if (max) {
    auto dilation = getIntList(aten.get(4, "dilation"), 2);
    if (!dilation || (*dilation)[0] != 1 || (*dilation)[1] != 1)
      return fail(reason, "dilation is not supported by fixed_maxpool2d");
    if ((*padding)[0] != (*padding)[1])
      return fail(reason, "fixed_maxpool2d needs a symmetric padding, got " +
                              joinSizes(*padding));
    if (2 * (*padding)[0] > std::min((*kernel)[0], (*kernel)[1]))
      return fail(reason, "padding " + Twine((*padding)[0]) +
                              " is more than half the kernel");
  } else {
    if ((*padding)[0] != 0 || (*padding)[1] != 0)
      return fail(reason, "padding is not supported by fixed_avgpool2d");
    if (!aten.isNone(6, "divisor_override"))
      return fail(reason,
                  "divisor_override is not supported by fixed_avgpool2d");
  }
  int64_t pad = (*padding)[0];
  int64_t oh =
      pooledSize(node.inShape[2], (*kernel)[0], (*stride)[0], pad, ceilMode);
  int64_t ow =
      pooledSize(node.inShape[3], (*kernel)[1], (*stride)[1], pad, ceilMode);
  if (node.outShape[2] != oh || node.outShape[3] != ow)
    return fail(reason, "its result " + joinSizes(node.outShape) +
                            " is not the pooled size " + joinSizes({oh, ow}));
  // Without padding, floor mode must give the same size.
  if (!max &&
      (pooledSize(node.inShape[2], (*kernel)[0], (*stride)[0], 0, false) !=
           oh ||
       pooledSize(node.inShape[3], (*kernel)[1], (*stride)[1], 0, false) != ow))
    return fail(reason, "ceil_mode is not supported by fixed_avgpool2d");
  node.padding = pad;
  return setWindow(node, *kernel, *stride, reason);
}

bool describeMax(ComponentCall call, HardwareNode &node, std::string &reason) {
  return describeWindowedPool(call, node, /*max=*/true, reason);
}

/// avg_pool2d; adaptive_avg_pool2d with equal windows; mean over (H, W).
bool describeAverage(ComponentCall call, HardwareNode &node,
                     std::string &reason) {
  if (call.maseOp == "avg_pool2d")
    return describeWindowedPool(call, node, /*max=*/false, reason);
  if (node.inShape.size() != 4)
    return need4d(node, reason);
  const AtenCall &aten = call.call;
  int64_t height = node.inShape[2], width = node.inShape[3];
  int64_t oh = 1, ow = 1;
  if (call.maseOp == "mean") {
    auto dims = getIntList(aten.get(1, "dim"), 1);
    SmallVector<int64_t> normalized;
    for (int64_t dim : dims.value_or(SmallVector<int64_t>()))
      normalized.push_back(dim < 0 ? dim + 4 : dim);
    llvm::sort(normalized);
    if (normalized != SmallVector<int64_t>{2, 3})
      return fail(reason, "fixed_avgpool2d computes the mean over dims (2, 3) "
                          "only");
    if (!aten.isNone(3, "dtype"))
      return fail(reason, "a dtype argument is not supported");
  } else {
    auto size = getIntList(aten.get(1, "output_size"), 2);
    if (!size)
      return fail(reason, "its output_size must be constant");
    oh = (*size)[0];
    ow = (*size)[1];
    if (oh < 1 || ow < 1 || height % oh != 0 || width % ow != 0)
      return fail(reason, "fixed_avgpool2d needs equal windows: output size " +
                              Twine(joinSizes(*size)) +
                              " must divide the input's " +
                              joinSizes({height, width}));
  }
  int64_t kh = height / oh, kw = width / ow;
  return setWindow(node, {kh, kw}, {kh, kw}, reason);
}

/// The reciprocal's fraction bits for a window of n words: enough that the
/// result is within one unit of the true mean (docs/Hardware.md), at most 30.
bool prepareAverage(HardwareNode &node, std::string &) {
  node.recipFrac = std::min<int64_t>(
      30, node.format.width + ceilLog2(node.kernelH * node.kernelW) + 1);
  return true;
}

std::vector<int64_t> evaluateMax(const HardwareNode &node,
                                 const NodeWords &words) {
  ArrayRef<int64_t> x = words.operands[0];
  std::vector<int64_t> y;
  y.reserve(node.outNumel());
  forEachPoolWindow(node, [&](int64_t, ArrayRef<int64_t> window) {
    int64_t best = std::numeric_limits<int64_t>::min();
    for (int64_t index : window)
      best = std::max(best, x[index]);
    y.push_back(best);
  });
  return y;
}

std::vector<int64_t> evaluateAverage(const HardwareNode &node,
                                     const NodeWords &words) {
  ArrayRef<int64_t> x = words.operands[0];
  int64_t recip = reciprocal(node.kernelH * node.kernelW, node.recipFrac);
  std::vector<int64_t> y;
  y.reserve(node.outNumel());
  forEachPoolWindow(node, [&](int64_t, ArrayRef<int64_t> window) {
    int64_t sum = 0;
    for (int64_t index : window)
      sum += x[index];
    y.push_back(
        scaleByReciprocal(sum, recip, node.recipFrac, node.format.width));
  });
  return y;
}

/// |max a - max b| <= max |a - b|.
std::vector<double> boundMax(const HardwareNode &node, const NodeErrors &in) {
  std::vector<double> result(in.result.size());
  forEachPoolWindow(node, [&](int64_t o, ArrayRef<int64_t> window) {
    for (int64_t i : window)
      result[o] = std::max(result[o], in.errors[0][i]);
  });
  return result;
}

/// A mean's error is the mean error, plus the reciprocal's rounding as it
/// happened.
std::vector<double> boundAverage(const HardwareNode &node,
                                 const NodeErrors &in) {
  std::vector<double> result(in.result.size());
  forEachPoolWindow(node, [&](int64_t o, ArrayRef<int64_t> window) {
    double sum = 0, mean = 0;
    for (int64_t i : window) {
      sum += in.errors[0][i];
      mean += in.operands[0][i];
    }
    double count = static_cast<double>(window.size());
    result[o] = sum / count +
                std::abs(dequantize(in.result[o], node.format) - mean / count);
  });
  return result;
}

/// To first order the max passes its largest tap's error (of the taps that
/// tie, the largest); so does the rule's allowance.
NoiseEstimate estimateMax(const HardwareNode &node, const NodeNoise &in) {
  NoiseEstimate estimate;
  estimate.meanSquare.assign(in.result.size(), 0.0);
  estimate.allowed.assign(in.result.size(), 0.0);
  const std::vector<double> &x = in.operands[0], &s = in.meanSquares[0],
                            &a = in.allowed[0];
  forEachPoolWindow(node, [&](int64_t o, ArrayRef<int64_t> window) {
    double best = -std::numeric_limits<double>::infinity();
    for (int64_t i : window) {
      if (x[i] > best) {
        estimate.meanSquare[o] = s[i];
        estimate.allowed[o] = a[i];
      } else if (x[i] == best) {
        estimate.meanSquare[o] = std::max(estimate.meanSquare[o], s[i]);
        estimate.allowed[o] = std::max(estimate.allowed[o], a[i]);
      }
      best = std::max(best, x[i]);
    }
  });
  return estimate;
}

/// The error of a mean is the mean of the errors, whose rms is at most the
/// mean of their rms (Minkowski), with equality when they are correlated
/// in full: the errors of one channel are, because its weights' roundings
/// act on all of its positions alike. Plus the result's rounding.
NoiseEstimate estimateAverage(const HardwareNode &node, const NodeNoise &in) {
  NoiseEstimate estimate;
  estimate.meanSquare.assign(in.result.size(), 0.0);
  estimate.allowed.assign(in.result.size(), 0.0);
  double rounding = roundingMeanSquare(node.format);
  forEachPoolWindow(node, [&](int64_t o, ArrayRef<int64_t> window) {
    double rms = 0, allowed = 0, mean = 0;
    for (int64_t i : window) {
      rms += std::sqrt(in.meanSquares[0][i]);
      allowed += std::sqrt(in.allowed[0][i]);
      mean += in.operands[0][i];
    }
    double count = static_cast<double>(window.size());
    estimate.meanSquare[o] = (rms / count) * (rms / count) + rounding;
    estimate.allowed[o] = (allowed / count) * (allowed / count) + rounding;
    estimate.saturated += isSaturated(in.result[o], mean / count, node.format);
  });
  return estimate;
}

/// C*H*W/P load beats, then per block of P channels OH*OW windows of KH*KW
/// tap cycles and OH*OW emit cycles (fixed_window_scan.sv).
int64_t poolCycles(const HardwareNode &node) {
  int64_t windows = node.outShape[2] * node.outShape[3];
  return inItemWords(node) / node.widths.out +
         node.inShape[1] / node.widths.out * windows *
             (node.kernelH * node.kernelW + 1);
}

ComponentTiming poolTiming(const HardwareNode &node) {
  int64_t windows = node.outShape[2] * node.outShape[3];
  return bufferedTiming(inItemWords(node) / node.widths.out,
                        node.inShape[1] / node.widths.out,
                        windows * node.kernelH * node.kernelW, windows);
}

/// The image buffer and the block's output planes (fixed_window_scan); P
/// running reductions of W + log2(taps) bits; the scan's counters.
ResourceEstimate poolResources(const HardwareNode &node) {
  int64_t width = node.format.width;
  int64_t taps = node.kernelH * node.kernelW;
  int64_t windows = node.outShape[2] * node.outShape[3];
  int64_t lane = width + ceilLog2(taps + 1);
  ResourceEstimate estimate;
  estimate.memoryBits = (inItemWords(node) + node.widths.out * windows) * width;
  estimate.flipFlops = node.widths.out * lane + 96;
  estimate.luts = 2 * node.widths.out * lane + node.widths.out * width + 96;
  return estimate;
}

void windowParameters(const HardwareNode &node, ParameterValues &values) {
  setParameter(values, "CHANNELS", node.inShape[1]);
  setParameter(values, "IN_HEIGHT", node.inShape[2]);
  setParameter(values, "IN_WIDTH", node.inShape[3]);
  setParameter(values, "KERNEL_H", node.kernelH);
  setParameter(values, "KERNEL_W", node.kernelW);
  setParameter(values, "STRIDE", node.stride);
}

void maxParameters(const HardwareNode &node, ParameterValues &values) {
  windowParameters(node, values);
  setParameter(values, "PADDING", node.padding);
  setParameter(values, "OUT_HEIGHT", node.outShape[2]);
  setParameter(values, "OUT_WIDTH", node.outShape[3]);
}

void averageParameters(const HardwareNode &node, ParameterValues &values) {
  windowParameters(node, values);
  setParameter(values, "RECIP_FRAC", node.recipFrac);
}

constexpr llvm::StringRef maxParameterNames[] = {
    "DATA_WIDTH", "FRAC_WIDTH", "PARALLELISM", "CHANNELS",
    "IN_HEIGHT",  "IN_WIDTH",   "KERNEL_H",    "KERNEL_W",
    "STRIDE",     "PADDING",    "OUT_HEIGHT",  "OUT_WIDTH"};
constexpr llvm::StringRef maxFiles[] = {"fixed_window_scan.sv",
                                        "fixed_maxpool2d.sv"};
constexpr llvm::StringRef maxOperators[] = {"max_pool2d"};

constexpr llvm::StringRef averageParameterNames[] = {
    "DATA_WIDTH", "FRAC_WIDTH", "PARALLELISM", "CHANNELS", "IN_HEIGHT",
    "IN_WIDTH",   "KERNEL_H",   "KERNEL_W",    "STRIDE",   "RECIP_FRAC"};
constexpr llvm::StringRef averageFiles[] = {
    "fixed_round_sat.sv", "fixed_window_scan.sv", "fixed_avgpool2d.sv"};
constexpr llvm::StringRef averageOperators[] = {"avg_pool2d",
                                                "adaptive_avg_pool2d", "mean"};

} // namespace

constexpr Component mav::components::fixedMaxPool2d = {
    .module = "fixed_maxpool2d",
    .parameters = maxParameterNames,
    .dependenceFiles = maxFiles,
    .operators = maxOperators,
    .describe = describeMax,
    .evaluate = evaluateMax,
    .bound = boundMax,
    .estimate = estimateMax,
    .legalWidths = uniformWidths,
    .itemCycles = poolCycles,
    .multipliers = noMultipliers,
    .timing = poolTiming,
    .resources = poolResources,
    .instanceParameters = maxParameters,
};

constexpr Component mav::components::fixedAvgPool2d = {
    .module = "fixed_avgpool2d",
    .parameters = averageParameterNames,
    .dependenceFiles = averageFiles,
    .operators = averageOperators,
    .describe = describeAverage,
    .prepare = prepareAverage,
    .evaluate = evaluateAverage,
    .bound = boundAverage,
    .estimate = estimateAverage,
    .legalWidths = uniformWidths,
    .itemCycles = poolCycles,
    .multipliers = multiplierPerWord,
    .timing = poolTiming,
    .resources = poolResources,
    .instanceParameters = averageParameters,
};
