//===- Estimates.cpp - Timing and resource rules shared by entries --------===//

#include "Estimates.h"

#include "mav/Hardware/FixedPointErrorEstimate.h"

#include <algorithm>
#include <cmath>

using namespace mav;

ComponentTiming mav::sliceTiming(const HardwareNode &) {
  ComponentTiming timing;
  timing.kind = ComponentTiming::Kind::Slice;
  timing.capacity = 2;
  return timing;
}

ComponentTiming mav::joinTiming(const HardwareNode &) {
  ComponentTiming timing;
  timing.kind = ComponentTiming::Kind::Join;
  timing.capacity = 2;
  return timing;
}

ComponentTiming mav::bufferedTiming(int64_t loadBeats, int64_t blocks,
                                    int64_t computeCycles, int64_t emitBeats) {
  ComponentTiming timing;
  timing.kind = ComponentTiming::Kind::Buffered;
  timing.loadBeats = loadBeats;
  timing.blocks = blocks;
  timing.computeCycles = computeCycles;
  timing.emitBeats = emitBeats;
  return timing;
}

int64_t mav::beatBits(const HardwareNode &node) {
  return node.widths.out * node.format.width;
}

ResourceEstimate mav::skidResources(const HardwareNode &node) {
  ResourceEstimate estimate;
  estimate.flipFlops = 2 * beatBits(node) + 2;
  estimate.luts = beatBits(node) + 2;
  return estimate;
}

ResourceEstimate mav::macResources(const HardwareNode &node,
                                   int64_t accumulators, int64_t accBits,
                                   int64_t products, int64_t control) {
  int64_t width = node.format.width;
  ResourceEstimate estimate;
  estimate.flipFlops = accumulators * accBits + control;
  estimate.luts = accumulators * accBits + products * 2 * width +
                  accumulators * width + control;
  return estimate;
}

double mav::roundingMeanSquare(FixedFormat format) {
  double lsb = dequantize(1, format);
  return lsb * lsb / 12;
}

double mav::ownErrorMeanSquare(FixedFormat format, int64_t word, double exact) {
  double distance = dequantize(word, format) - exact;
  return std::max(roundingMeanSquare(format), distance * distance);
}

bool mav::isSaturated(int64_t word, double exact, FixedFormat format) {
  if (word != minWord(format.width) && word != maxWord(format.width))
    return false;
  return std::abs(dequantize(word, format) - exact) > dequantize(1, format);
}

double mav::reluMeanSquare(double distance, double meanSquare) {
  if (meanSquare <= 0)
    return 0;
  double rms = std::sqrt(meanSquare);
  double t = distance / rms;
  auto phi = [](double z) {
    return std::exp(-z * z / 2) / std::sqrt(2 * M_PI);
  };
  auto cdf = [](double z) { return std::erfc(-z / std::sqrt(2.0)) / 2; };
  // Above the kink: the error passes where x stays above it, and is -t
  // (in units of rms) where x falls below. Below: x - x^ lifts it over.
  // Below about -8 the terms cancel to rounding noise, and the fraction is
  // under 1e-17 anyway.
  if (t < -8)
    return 0;
  double fraction = t >= 0 ? cdf(t) - t * phi(t) + t * t * cdf(-t)
                           : (1 + t * t) * cdf(t) + t * phi(t);
  return std::clamp(fraction, 0.0, 1.0) * meanSquare;
}

double mav::reluAllowed(double distance, double allowed) {
  if (allowed <= 0 || distance >= 0)
    return std::max(allowed, 0.0);
  double reach = 1 + distance / (kErrorEstimateSigmas * std::sqrt(allowed));
  return reach > 0 ? reach * reach * allowed : 0.0;
}
