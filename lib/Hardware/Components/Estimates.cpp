//===- Estimates.cpp - Timing and resource rules shared by entries --------===//

#include "Estimates.h"

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
