//===- Elementwise.cpp - fixed_relu, fixed_add, fixed_mul, fixed_flatten --===//
//
// fixed_flatten is the identity on the stream, so it also computes views and
// reshapes that keep the batch, `contiguous`, and dropout in eval mode.
//
//===----------------------------------------------------------------------===//

#include "DescribeSupport.h"
#include "Entries.h"
#include "Estimates.h"

#include <cmath>

using namespace mlir;
using namespace mav;

namespace {

bool describeAnyTensor(ComponentCall, HardwareNode &, std::string &) {
  return true;
}

/// flatten, view, reshape, contiguous and eval-mode dropout keep the
/// row-major stream as it is: the identity on the words.
bool describeIdentity(ComponentCall call, HardwareNode &node,
                      std::string &reason) {
  if (node.inShape.empty() || node.outShape.empty() ||
      node.outShape[0] != node.inShape[0] || node.inNumel() != node.outNumel())
    return fail(reason, "fixed_flatten keeps the batch dimension");
  if (call.maseOp == "dropout") {
    Attribute train = call.call.get(2, "train");
    if (!isFalse(train))
      return fail(reason, "dropout is the identity only in eval mode "
                          "(train=False); run -mav-remove-dropout");
  }
  return true;
}

/// Two tensors of one shape; add's alpha is 1.
bool describeBinary(ComponentCall call, HardwareNode &node,
                    std::string &reason) {
  Attribute alpha = call.call.get(2, "alpha");
  auto alphaInt = llvm::dyn_cast_or_null<IntegerAttr>(alpha);
  if (call.maseOp == "add" && alpha && (!alphaInt || alphaInt.getInt() != 1))
    return fail(reason, "alpha other than 1 is not supported by fixed_add");
  Value other = call.call.operand(1, "other");
  if (!other)
    return fail(reason, "both operands must be tensors");
  if (getStaticShape(other) != std::optional(node.inShape))
    return fail(reason,
                "both operands must have the same shape (no broadcasting)");
  if (getConstantWeight(other, call.symbols) ||
      getConstantWeight(call.call.operand(0, "self"), call.symbols))
    return fail(reason, "an operand is a module weight, not a stream");
  std::optional<unsigned> index = findStreamOperand(node, other, 1);
  if (!index)
    return fail(reason, "its second operand is not an input of the node");
  node.streamOperands = {0, *index};
  return true;
}

std::vector<int64_t> copyWords(const HardwareNode &, const NodeWords &words) {
  return std::vector<int64_t>(words.operands[0].begin(),
                              words.operands[0].end());
}

std::vector<int64_t> evaluateRelu(const HardwareNode &,
                                  const NodeWords &words) {
  std::vector<int64_t> y(words.operands[0].begin(), words.operands[0].end());
  for (int64_t &word : y)
    word = std::max<int64_t>(word, 0);
  return y;
}

std::vector<int64_t> evaluateAdd(const HardwareNode &node,
                                 const NodeWords &words) {
  ArrayRef<int64_t> a = words.operands[0], b = words.operands[1];
  std::vector<int64_t> y(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    y[i] = saturate(a[i] + b[i], node.format.width);
  return y;
}

std::vector<int64_t> evaluateMul(const HardwareNode &node,
                                 const NodeWords &words) {
  ArrayRef<int64_t> a = words.operands[0], b = words.operands[1];
  std::vector<int64_t> y(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    y[i] = requantize(a[i] * b[i], node.format.frac, node.format.width);
  return y;
}

/// Exact on the words, and 1-Lipschitz on the reals.
std::vector<double> boundLipschitz(const HardwareNode &, const NodeErrors &in) {
  return in.errors[0];
}

std::vector<double> boundAdd(const HardwareNode &node, const NodeErrors &in) {
  const std::vector<double> &a = in.operands[0], &b = in.operands[1];
  std::vector<double> result(in.result.size());
  for (size_t i = 0; i < result.size(); ++i)
    result[i] = in.errors[0][i] + in.errors[1][i] +
                std::abs(dequantize(in.result[i], node.format) - (a[i] + b[i]));
  return result;
}

std::vector<double> boundMul(const HardwareNode &node, const NodeErrors &in) {
  const std::vector<double> &a = in.operands[0], &b = in.operands[1];
  const std::vector<double> &ea = in.errors[0], &eb = in.errors[1];
  std::vector<double> result(in.result.size());
  for (size_t i = 0; i < result.size(); ++i)
    result[i] = std::abs(a[i]) * eb[i] + std::abs(b[i]) * ea[i] +
                ea[i] * eb[i] +
                std::abs(dequantize(in.result[i], node.format) - a[i] * b[i]);
  return result;
}

/// The relu's kink at 0: the error passes above it, is cut below, and half
/// of it passes at it (reluMeanSquare).
/// The rule allows more at the kink (reluAllowed).
NoiseEstimate estimateRelu(const HardwareNode &, const NodeNoise &in) {
  NoiseEstimate estimate;
  for (auto [x, meanSquare, allowed] :
       llvm::zip(in.operands[0], in.meanSquares[0], in.allowed[0])) {
    estimate.meanSquare.push_back(reluMeanSquare(x, meanSquare));
    estimate.allowed.push_back(
        std::max(estimate.meanSquare.back(), reluAllowed(x, allowed)));
  }
  return estimate;
}

NoiseEstimate estimateIdentity(const HardwareNode &, const NodeNoise &in) {
  return NoiseEstimate{in.meanSquares[0], in.allowed[0], 0};
}

/// Independent errors add their mean squares; the sum is exact but may
/// saturate.
NoiseEstimate estimateAdd(const HardwareNode &node, const NodeNoise &in) {
  const std::vector<double> &a = in.operands[0], &b = in.operands[1];
  NoiseEstimate estimate;
  for (size_t i = 0; i < a.size(); ++i) {
    estimate.meanSquare.push_back(in.meanSquares[0][i] + in.meanSquares[1][i]);
    estimate.saturated += isSaturated(in.result[i], a[i] + b[i], node.format);
  }
  return estimate;
}

/// (a + ea)(b + eb) - ab = b ea + a eb + ea eb, the three independent, plus
/// the rounding.
NoiseEstimate estimateMul(const HardwareNode &node, const NodeNoise &in) {
  const std::vector<double> &a = in.operands[0], &b = in.operands[1];
  const std::vector<double> &sa = in.meanSquares[0], &sb = in.meanSquares[1];
  NoiseEstimate estimate;
  double rounding = roundingMeanSquare(node.format);
  for (size_t i = 0; i < a.size(); ++i) {
    estimate.meanSquare.push_back(b[i] * b[i] * sa[i] + a[i] * a[i] * sb[i] +
                                  sa[i] * sb[i] + rounding);
    estimate.saturated += isSaturated(in.result[i], a[i] * b[i], node.format);
  }
  return estimate;
}

constexpr llvm::StringRef streamParameters[] = {"DATA_WIDTH", "FRAC_WIDTH",
                                                "PARALLELISM"};
constexpr llvm::StringRef reluFiles[] = {"fixed_skid_buffer.sv",
                                         "fixed_relu.sv"};
constexpr llvm::StringRef flattenFiles[] = {"fixed_skid_buffer.sv",
                                            "fixed_flatten.sv"};
constexpr llvm::StringRef addFiles[] = {"fixed_round_sat.sv",
                                        "fixed_skid_buffer.sv",
                                        "fixed_join2.sv", "fixed_add.sv"};
constexpr llvm::StringRef mulFiles[] = {"fixed_round_sat.sv",
                                        "fixed_skid_buffer.sv",
                                        "fixed_join2.sv", "fixed_mul.sv"};
constexpr llvm::StringRef reluOperators[] = {"relu"};
constexpr llvm::StringRef flattenOperators[] = {
    "flatten",  "unflatten", "view",    "reshape",  "contiguous",
    "identity", "dropout",   "squeeze", "unsqueeze"};
constexpr llvm::StringRef addOperators[] = {"add"};
constexpr llvm::StringRef mulOperators[] = {"mul"};

} // namespace

constexpr Component mav::components::fixedRelu = {
    .module = "fixed_relu",
    .parameters = streamParameters,
    .dependenceFiles = reluFiles,
    .operators = reluOperators,
    .describe = describeAnyTensor,
    .evaluate = evaluateRelu,
    .bound = boundLipschitz,
    .estimate = estimateRelu,
    .legalWidths = uniformWidths,
    .itemCycles = streamingCycles,
    .multipliers = noMultipliers,
    .timing = sliceTiming,
    .resources = streamingResources<1>,
    .instanceParameters = noParameters,
};

constexpr Component mav::components::fixedFlatten = {
    .module = "fixed_flatten",
    .parameters = streamParameters,
    .dependenceFiles = flattenFiles,
    .operators = flattenOperators,
    .describe = describeIdentity,
    .evaluate = copyWords,
    .bound = boundLipschitz,
    .estimate = estimateIdentity,
    .legalWidths = uniformWidths,
    .itemCycles = streamingCycles,
    .multipliers = noMultipliers,
    .timing = sliceTiming,
    .resources = streamingResources<0>,
    .instanceParameters = noParameters,
};

constexpr Component mav::components::fixedAdd = {
    .module = "fixed_add",
    .parameters = streamParameters,
    .dependenceFiles = addFiles,
    .operators = addOperators,
    .describe = describeBinary,
    .evaluate = evaluateAdd,
    .bound = boundAdd,
    .estimate = estimateAdd,
    .legalWidths = uniformWidths,
    .itemCycles = streamingCycles,
    .multipliers = noMultipliers,
    .timing = joinTiming,
    .resources = streamingResources<1>,
    .instanceParameters = noParameters,
};

constexpr Component mav::components::fixedMul = {
    .module = "fixed_mul",
    .parameters = streamParameters,
    .dependenceFiles = mulFiles,
    .operators = mulOperators,
    .describe = describeBinary,
    .evaluate = evaluateMul,
    .bound = boundMul,
    .estimate = estimateMul,
    .legalWidths = uniformWidths,
    .itemCycles = streamingCycles,
    .multipliers = multiplierPerWord,
    .timing = joinTiming,
    .resources = streamingResources<1>,
    .instanceParameters = noParameters,
};
