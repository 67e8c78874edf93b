//===- Estimates.h - Timing and resource rules shared by entries -*- C++
//-*-===//
//
// The cycle behaviour and the resource estimates that several components
// share: the register slice (fixed_skid_buffer) behind every streaming
// component, the two-input join, the buffered components' phases. The
// formulas are those of docs/Hardware.md, "Performance".
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

} // namespace mav

#endif // MAV_LIB_HARDWARE_COMPONENTS_ESTIMATES_H
