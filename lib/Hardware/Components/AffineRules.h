//===- AffineRules.h - The rules of linear and conv2d -----------*- C++ -*-===//
//
// Linear and conv2d share their fixed-point rule (exact sums, one
// requantisation per output), their error bound and their error estimate;
// they differ only in
// which taps an output sums (AffineTaps.h), which `Taps` chooses.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_HARDWARE_COMPONENTS_AFFINERULES_H
#define MAV_LIB_HARDWARE_COMPONENTS_AFFINERULES_H

#include "AffineTaps.h"
#include "Estimates.h"

#include <cmath>

namespace mav {

struct LinearTaps {
  template <typename OutputFn, typename TapFn>
  void operator()(const HardwareNode &node, OutputFn &&output,
                  TapFn &&tap) const {
    forEachLinearTap(node, output, tap);
  }
};

struct ConvTaps {
  template <typename OutputFn, typename TapFn>
  void operator()(const HardwareNode &node, OutputFn &&output,
                  TapFn &&tap) const {
    forEachConvTap(node, output, tap);
  }
};

/// acc = bias * 2^F + sum of w * x, exact; y = requant_W(acc, F).
template <typename Taps>
std::vector<int64_t> evaluateAffine(const HardwareNode &node,
                                    const NodeWords &words) {
  llvm::ArrayRef<int64_t> x = words.operands[0];
  std::vector<int64_t> acc(node.outNumel());
  Taps()(
      node,
      [&](int64_t o, int64_t channel) {
        acc[o] = words.bias[channel] * (int64_t(1) << node.format.frac);
      },
      [&](int64_t o, int64_t w, int64_t i) {
        acc[o] += words.weight[w] * x[i];
      });
  for (int64_t &value : acc)
    value = requantize(value, node.format.frac, node.format.width);
  return acc;
}

/// |sum Wq x^ + bq - (sum W x + b)| <= sum |Wq| e + |Wq - W| (|x^| + e)
///                                     + |bq - b|,
/// plus what the requantisation of that exact sum lost.
template <typename Taps>
std::vector<double> boundAffine(const HardwareNode &node,
                                const NodeErrors &in) {
  auto real = [&](int64_t word) { return dequantize(word, node.format); };
  const std::vector<double> &x = in.operands[0], &e = in.errors[0];
  std::vector<double> exact(in.result.size()), result(in.result.size());
  Taps()(
      node,
      [&](int64_t o, int64_t channel) {
        exact[o] = real(in.biasWords[channel]);
        result[o] =
            std::abs(real(in.biasWords[channel]) -
                     (in.bias.empty() ? 0.0 : double(in.bias[channel])));
      },
      [&](int64_t o, int64_t k, int64_t i) {
        double quantized = real(in.weightWords[k]);
        exact[o] += quantized * x[i];
        result[o] += std::abs(quantized) * e[i] +
                     std::abs(quantized - double(in.weight[k])) *
                         (std::abs(x[i]) + e[i]);
      });
  for (size_t o = 0; o < in.result.size(); ++o)
    result[o] += std::abs(real(in.result[o]) - exact[o]);
  return result;
}

/// The error of sum Wq x^ + bq against sum W x + b is, to first order,
/// sum Wq (x^ - x) + sum (Wq - W) x^ + (bq - b): with the operand's errors
/// and the weights' roundings taken as independent and of mean zero, its
/// mean square is sum Wq^2 s_i + sum (Wq - W)^2 x^^2 + (bq - b)^2, each
/// weight's rounding as it happened; plus the requantisation's own.
template <typename Taps>
NoiseEstimate estimateAffine(const HardwareNode &node, const NodeNoise &in) {
  auto real = [&](int64_t word) { return dequantize(word, node.format); };
  const std::vector<double> &x = in.operands[0], &s = in.meanSquares[0];
  std::vector<double> exact(in.result.size());
  NoiseEstimate estimate;
  estimate.meanSquare.assign(in.result.size(), 0.0);
  Taps()(
      node,
      [&](int64_t o, int64_t channel) {
        exact[o] = real(in.biasWords[channel]);
        double bias = real(in.biasWords[channel]) -
                      (in.bias.empty() ? 0.0 : double(in.bias[channel]));
        estimate.meanSquare[o] = bias * bias;
      },
      [&](int64_t o, int64_t k, int64_t i) {
        double quantized = real(in.weightWords[k]);
        double rounding = quantized - double(in.weight[k]);
        exact[o] += quantized * x[i];
        estimate.meanSquare[o] +=
            quantized * quantized * s[i] + rounding * rounding * x[i] * x[i];
      });
  double requantisation = roundingMeanSquare(node.format);
  for (size_t o = 0; o < in.result.size(); ++o) {
    estimate.meanSquare[o] += requantisation;
    estimate.saturated += isSaturated(in.result[o], exact[o], node.format);
  }
  return estimate;
}

/// Fails when the accumulator of `terms` products and the bias does not fit
/// in the 63 bits the software model has.
bool checkAccumulator(const HardwareNode &node, int64_t terms,
                      std::string &reason);

} // namespace mav

#endif // MAV_LIB_HARDWARE_COMPONENTS_AFFINERULES_H
