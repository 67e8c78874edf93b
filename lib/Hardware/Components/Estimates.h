//===- Estimates.h - Timing, resource and error rules shared by entries -===//
//
// The cycle behaviour and the resource estimates that several components
// share: the register slice (fixed_skid_buffer) behind every streaming
// component, the two-input join, the buffered components' phases. The
// formulas are those of docs/Hardware.md, "Performance". Also the pieces of
// the error estimate (docs/Hardware.md, "The error estimate") that several
// rules share: a rounding's mean square, saturation, the relu's kink.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_HARDWARE_COMPONENTS_ESTIMATES_H
#define MAV_LIB_HARDWARE_COMPONENTS_ESTIMATES_H

#include "mav/Hardware/HardwareGraph.h"

namespace mav {

/// A streaming component: one beat a cycle through a skid buffer.
ComponentTiming sliceTiming(const HardwareNode &node);
/// Two inputs joined (fixed_join2), then a skid buffer.
ComponentTiming joinTiming(const HardwareNode &node);
/// Buffered: load the item, then `blocks` times compute and emit.
ComponentTiming bufferedTiming(int64_t loadBeats, int64_t blocks,
                               int64_t computeCycles, int64_t emitBeats);

/// The bits of a node's output beat, P * W.
int64_t beatBits(const HardwareNode &node);

/// A skid buffer on the node's output: two beat registers and two valid
/// bits; a multiplexer per bit.
ResourceEstimate skidResources(const HardwareNode &node);

/// A streaming component: its skid buffer plus `LutsPerBit` LUTs per bit
/// of a beat for its per-word logic.
template <int LutsPerBit>
ResourceEstimate streamingResources(const HardwareNode &node) {
  ResourceEstimate estimate = skidResources(node);
  estimate.luts += LutsPerBit * beatBits(node);
  return estimate;
}

/// A multiply-accumulate datapath: `accumulators` accumulators of `accBits`
/// bits, `products` products of 2W bits added into them, each result
/// requantised to W bits, plus `control` LUTs and flip-flops of counters
/// and state.
ResourceEstimate macResources(const HardwareNode &node, int64_t accumulators,
                              int64_t accBits, int64_t products,
                              int64_t control);

/// The mean square error of one rounding to nearest in `format`: an error
/// uniform within half an LSB either side, (2^-F)^2 / 12.
double roundingMeanSquare(FixedFormat format);

/// What a node adds to a result's error of its own, where its rule is an
/// approximation (softmax, LayerNorm, GELU): the square of the result's
/// distance from the exact function of the reals it read, at least a
/// rounding's mean square.
double ownErrorMeanSquare(FixedFormat format, int64_t word, double exact);

/// Whether a result `word` saturated: it is at one of the format's limits
/// and more than one LSB from the `exact` real it was rounded from (rounding
/// alone moves a value by at most half an LSB; the reciprocals of the pools
/// and activations add less than another half).
bool isSaturated(int64_t word, double exact, FixedFormat format);

/// The mean square error of relu(x̂) against relu(x), where x̂ - x is
/// Gaussian with mean square `meanSquare` and x̂ lies `distance` above the
/// kink (negative: below): E[(relu(t + Z) - relu(t))^2] times the mean
/// square, t = distance / rms, Z standard normal. Far above the kink the
/// error passes whole, far below it is cut, at the kink half passes.
double reluMeanSquare(double distance, double meanSquare);

/// The mean square the rule allows relu(x̂)'s error, where x̂'s error is
/// allowed `allowed` and x̂ lies `distance` above the kink: all of it above;
/// below, what an error within K rms can carry across the kink,
/// (K rms - |distance|), as K rms of the result's: (1 - |distance| /
/// (K rms))^2 of it, none beyond K rms.
double reluAllowed(double distance, double allowed);

/// A one-operand elementwise rule: the operand's mean square times the
/// squared slope of the node's function at x̂ (`slope`), plus the result's
/// rounding when it has one; saturation against the function's real value
/// at x̂ (`exact`).
template <typename SlopeFn, typename ExactFn>
NoiseEstimate estimateElementwise(const HardwareNode &node,
                                  const NodeNoise &noise, bool rounds,
                                  SlopeFn &&slope, ExactFn &&exact) {
  NoiseEstimate estimate;
  const std::vector<double> &x = noise.operands[0], &in = noise.meanSquares[0];
  double rounding = rounds ? roundingMeanSquare(node.format) : 0.0;
  estimate.meanSquare.resize(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    double gain = slope(x[i]);
    estimate.meanSquare[i] = gain * gain * in[i] + rounding;
    estimate.saturated +=
        isSaturated(noise.result[i], exact(x[i]), node.format);
  }
  return estimate;
}

} // namespace mav

#endif // MAV_LIB_HARDWARE_COMPONENTS_ESTIMATES_H
