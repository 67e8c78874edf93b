//===- ErrorEstimateTest.cpp - The error-estimate rules, by hand ----------===//
//
// Each component's `estimate` rule on a node small enough to work out its
// mean square error by hand (docs/Hardware.md, "The error estimate").
//
//===----------------------------------------------------------------------===//

#include "mav/Hardware/HardwareGraph.h"

#include "gtest/gtest.h"

#include <cmath>
#include <vector>

using namespace mav;

namespace {

constexpr FixedFormat kFormat{16, 10};
/// One rounding's mean square at <16, 10>: (2^-10)^2 / 12.
const double kRounding = std::ldexp(1.0, -20) / 12;

NoiseEstimate runEstimate(llvm::StringRef module, const HardwareNode &node,
                          std::vector<std::vector<double>> operands,
                          std::vector<std::vector<double>> meanSquares,
                          std::vector<int64_t> result,
                          std::vector<int64_t> weightWords = {},
                          std::vector<int64_t> biasWords = {},
                          std::vector<float> weight = {},
                          std::vector<float> bias = {}) {
  const Component *component = lookupComponent(module);
  EXPECT_TRUE(component && component->estimate);
  return component->estimate(node, NodeNoise{operands, meanSquares, meanSquares,
                                             result, weightWords, biasWords,
                                             weight, bias});
}

HardwareNode makeNode(llvm::ArrayRef<int64_t> in, llvm::ArrayRef<int64_t> out) {
  HardwareNode node;
  node.format = kFormat;
  node.inShape.assign(in.begin(), in.end());
  node.outShape.assign(out.begin(), out.end());
  return node;
}

} // namespace

// y = 0.5 x0 + 0.2 x1 + 0.1: 0.5 is a word, 0.2 rounds to 205/1024 (0.2 LSB
// up), 0.1 to 102/1024 (0.4 LSB down).
TEST(ErrorEstimate, LinearByHand) {
  HardwareNode node = makeNode({1, 2}, {1, 1});
  std::vector<int64_t> weightWords = {quantize(0.5, kFormat),
                                      quantize(0.2, kFormat)};
  std::vector<int64_t> biasWords = {quantize(0.1, kFormat)};
  ASSERT_EQ(weightWords[1], 205);
  ASSERT_EQ(biasWords[0], 102);
  double lsb = std::ldexp(1.0, -10);
  double w1 = 205 * lsb, dw1 = w1 - double(0.2f), db = 102 * lsb - double(0.1f);
  double x0 = 1.0, x1 = -2.0, s0 = 1e-6, s1 = 4e-6;
  double exact = 102 * lsb + 0.5 * x0 + w1 * x1;
  NoiseEstimate estimate = runEstimate(
      "fixed_linear", node, {{x0, x1}}, {{s0, s1}}, {quantize(exact, kFormat)},
      weightWords, biasWords, {0.5f, 0.2f}, {0.1f});
  ASSERT_EQ(estimate.meanSquare.size(), 1u);
  // sum Wq^2 s + sum dW^2 x^2 + db^2 + the requantisation.
  double expected =
      0.25 * s0 + w1 * w1 * s1 + dw1 * dw1 * x1 * x1 + db * db + kRounding;
  EXPECT_NEAR(estimate.meanSquare[0], expected, 1e-9 * expected);
  EXPECT_EQ(estimate.saturated, 0);

  // The same sum at 40 saturates at <16, 10>'s largest word.
  estimate =
      runEstimate("fixed_linear", node, {{x0, 80.0}}, {{s0, s1}}, {maxWord(16)},
                  weightWords, biasWords, {0.5f, 0.2f}, {0.1f});
  EXPECT_EQ(estimate.saturated, 1);
}

// Two layers by hand, as the driver chains them: the input rounded
// (r = one rounding), fc1 = [[1, 0], [0, 0.5]] gives 2r and 1.25r, fc2 =
// [0.5, 0.5] gives 0.25 * 2r + 0.25 * 1.25r + r = 1.8125r.
TEST(ErrorEstimate, TwoLayersByHand) {
  HardwareNode fc1 = makeNode({1, 2}, {1, 2});
  std::vector<int64_t> w1 = {1024, 0, 0, 512}, b1 = {0, 0};
  NoiseEstimate first =
      runEstimate("fixed_linear", fc1, {{0.5, 0.25}}, {{kRounding, kRounding}},
                  {512, 128}, w1, b1, {1.0f, 0.0f, 0.0f, 0.5f}, {});
  EXPECT_NEAR(first.meanSquare[0], 2 * kRounding, 1e-12 * kRounding);
  EXPECT_NEAR(first.meanSquare[1], 1.25 * kRounding, 1e-12 * kRounding);
  HardwareNode fc2 = makeNode({1, 2}, {1, 1});
  NoiseEstimate second =
      runEstimate("fixed_linear", fc2, {{0.5, 0.125}}, {first.meanSquare},
                  {320}, {512, 512}, {0}, {0.5f, 0.5f}, {});
  EXPECT_NEAR(second.meanSquare[0], 1.8125 * kRounding, 1e-12 * kRounding);
}

// Far above the kink the error passes, far below it is cut, at it half of
// its mean square passes.
TEST(ErrorEstimate, ReluKink) {
  HardwareNode node = makeNode({1, 3}, {1, 3});
  double s = 1e-6; // rms 1e-3
  NoiseEstimate estimate = runEstimate("fixed_relu", node, {{1.0, 0.0, -1.0}},
                                       {{s, s, s}}, {1024, 0, 0});
  EXPECT_NEAR(estimate.meanSquare[0], s, 1e-9 * s);
  EXPECT_NEAR(estimate.meanSquare[1], 0.5 * s, 1e-9 * s);
  EXPECT_LT(estimate.meanSquare[2], 1e-12 * s);
  // The rule allows all of it at and above the kink, and below it what an
  // error within 6 rms carries across: at 3 rms below, (1 - 3/6)^2.
  estimate = runEstimate("fixed_relu", node, {{1.0, 0.0, -3e-3}}, {{s, s, s}},
                         {1024, 0, 0});
  EXPECT_NEAR(estimate.allowed[0], s, 1e-9 * s);
  EXPECT_NEAR(estimate.allowed[1], s, 1e-9 * s);
  EXPECT_NEAR(estimate.allowed[2], 0.25 * s, 1e-9 * s);
}

TEST(ErrorEstimate, AddAndSaturation) {
  HardwareNode node = makeNode({1, 2}, {1, 2});
  NoiseEstimate estimate =
      runEstimate("fixed_add", node, {{1.0, 20.0}, {2.0, 20.0}},
                  {{1e-6, 1e-6}, {3e-6, 3e-6}}, {3072, maxWord(16)});
  EXPECT_NEAR(estimate.meanSquare[0], 4e-6, 1e-15);
  // 40 does not fit <16, 10> (largest 31.999).
  EXPECT_EQ(estimate.saturated, 1);
}

// A 2x2 average passes the mean of its taps' rms errors (they may be
// correlated in full), squared; a 2x2 max passes its largest tap's.
TEST(ErrorEstimate, Pools) {
  HardwareNode node = makeNode({1, 1, 2, 2}, {1, 1, 1, 1});
  node.kernelH = node.kernelW = node.stride = 2;
  std::vector<double> x = {1.0, 2.0, 3.0, 4.0};
  std::vector<double> s = {1e-6, 2e-6, 3e-6, 4e-6};
  NoiseEstimate average =
      runEstimate("fixed_avgpool2d", node, {x}, {s}, {quantize(2.5, kFormat)});
  double rms = (1 + std::sqrt(2.0) + std::sqrt(3.0) + 2) * 1e-3 / 4;
  EXPECT_NEAR(average.meanSquare[0], rms * rms + kRounding, 1e-15);
  NoiseEstimate max =
      runEstimate("fixed_maxpool2d", node, {x}, {s}, {quantize(4.0, kFormat)});
  EXPECT_NEAR(max.meanSquare[0], 4e-6, 1e-15);
}

// Between -3 and 3 hardsigmoid has slope 1/6 and hardswish (2x + 3) / 6;
// both round their result.
TEST(ErrorEstimate, Activations) {
  HardwareNode node = makeNode({1, 2}, {1, 2});
  double s = 36e-6;
  NoiseEstimate sigmoid =
      runEstimate("fixed_hardsigmoid", node, {{0.0, 4.0}}, {{s, s}},
                  {quantize(0.5, kFormat), quantize(1.0, kFormat)});
  EXPECT_NEAR(sigmoid.meanSquare[0], 1e-6 + kRounding, 1e-15);
  EXPECT_NEAR(sigmoid.meanSquare[1], kRounding, 1e-15);
  NoiseEstimate swish =
      runEstimate("fixed_hardswish", node, {{1.5, 4.0}}, {{s, s}},
                  {quantize(1.125, kFormat), quantize(4.0, kFormat)});
  EXPECT_NEAR(swish.meanSquare[0], s + kRounding, 1e-15);
  EXPECT_NEAR(swish.meanSquare[1], s + kRounding, 1e-15);
}

// A 1 x 2 by 2 x 1 product: each operand's errors taken as fully
// correlated along the sum; the result's rounding added.
TEST(ErrorEstimate, MatmulByHand) {
  HardwareNode node = makeNode({1, 1, 2}, {1, 1, 1});
  node.secondShape = {1, 2, 1};
  node.batchDims = 1;
  double a0 = 0.5, a1 = -2.0, b0 = 1.5, b1 = 0.25;
  double ma0 = 4e-6, ma1 = 1e-6, mb0 = 9e-6, mb1 = 16e-6;
  NoiseEstimate estimate = runEstimate(
      "fixed_matmul", node, {{a0, a1}, {b0, b1}}, {{ma0, ma1}, {mb0, mb1}},
      {quantize(a0 * b0 + a1 * b1, kFormat)});
  double fromA = 1.5 * 2e-3 + 0.25 * 1e-3, fromB = 0.5 * 3e-3 + 2.0 * 4e-3;
  ASSERT_EQ(estimate.meanSquare.size(), 1u);
  EXPECT_NEAR(estimate.meanSquare[0], fromA * fromA + fromB * fromB + kRounding,
              1e-15);
  EXPECT_EQ(estimate.saturated, 0);
}

// Softmax of two equal words: s = 1/2 each; d y_0 = (d x_0 - d x_1) / 4.
TEST(ErrorEstimate, SoftmaxByHand) {
  HardwareNode node = makeNode({1, 2}, {1, 2});
  node.batchDims = 1;
  NoiseEstimate estimate =
      runEstimate("fixed_softmax", node, {{1.0, 1.0}}, {{4e-6, 0.0}},
                  {quantize(0.5, kFormat), quantize(0.5, kFormat)});
  // s^2 (m_i (1 - 2 s) + sum_j s_j^2 m_j): the own error is a rounding.
  EXPECT_NEAR(estimate.meanSquare[0], 0.25 * (0.25 * 4e-6) + kRounding, 1e-15);
  EXPECT_NEAR(estimate.meanSquare[1], 0.25 * (0.25 * 4e-6) + kRounding, 1e-15);
}
