//===- Glue.cpp - Components that compute no operator ---------------------===//
//
// Helpers that other components instantiate, and the glue the exporter puts
// between nodes (fork, FIFO, cast, width converter). They have files and
// parameters, no rules.
//
//===----------------------------------------------------------------------===//

#include "Entries.h"
#include "Estimates.h"

using namespace mav;

namespace {

// Timing and resources of the glue: its HardwareNode describes the stream it
// carries (the producer's shape, format and width; a width converter's
// widths.in and widths.out are its two sides).

/// A FIFO of node.fifoDepth beats: its array, the pointers and count.
ComponentTiming fifoTiming(const HardwareNode &node) {
  assert(node.fifoDepth > 0 && "the exporter sets every FIFO's depth");
  ComponentTiming timing;
  timing.kind = ComponentTiming::Kind::Slice;
  timing.capacity = node.fifoDepth;
  return timing;
}

ResourceEstimate fifoResources(const HardwareNode &node) {
  int64_t depth = node.fifoDepth;
  ResourceEstimate estimate;
  estimate.memoryBits = depth * beatBits(node);
  estimate.flipFlops = 3 * ceilLog2(depth) + 1;
  estimate.luts = 3 * ceilLog2(depth) + 4;
  return estimate;
}

ComponentTiming forkTiming(const HardwareNode &) {
  ComponentTiming timing;
  timing.kind = ComponentTiming::Kind::Fork;
  return timing;
}

/// A `taken` bit and a little logic per consumer (counted as two).
ResourceEstimate forkResources(const HardwareNode &) {
  ResourceEstimate estimate;
  estimate.flipFlops = 2;
  estimate.luts = 6;
  return estimate;
}

ComponentTiming convertTiming(const HardwareNode &node) {
  ComponentTiming timing;
  timing.kind = ComponentTiming::Kind::Convert;
  timing.inWords = node.widths.in[0];
  timing.outWords = node.widths.out;
  return timing;
}

/// The queue of I + O + min(I, O) - 1 word registers, a multiplexer per bit
/// of it, the count.
ResourceEstimate convertResources(const HardwareNode &node) {
  int64_t in = node.widths.in[0], out = node.widths.out;
  int64_t capacity = in + out + std::min(in, out) - 1;
  ResourceEstimate estimate;
  estimate.flipFlops = capacity * node.format.width + ceilLog2(capacity + 1);
  estimate.luts = 2 * capacity * node.format.width + 8;
  return estimate;
}

constexpr llvm::StringRef roundSatParameters[] = {"IN_WIDTH", "SHIFT",
                                                  "OUT_WIDTH"};
constexpr llvm::StringRef roundSatFiles[] = {"fixed_round_sat.sv"};
constexpr llvm::StringRef streamParameters[] = {"DATA_WIDTH", "FRAC_WIDTH",
                                                "PARALLELISM"};
constexpr llvm::StringRef skidFiles[] = {"fixed_skid_buffer.sv"};
constexpr llvm::StringRef fifoParameters[] = {"DATA_WIDTH", "FRAC_WIDTH",
                                              "PARALLELISM", "DEPTH"};
constexpr llvm::StringRef fifoFiles[] = {"fixed_fifo.sv"};
constexpr llvm::StringRef forkParameters[] = {"DATA_WIDTH", "FRAC_WIDTH",
                                              "PARALLELISM", "OUTPUTS"};
constexpr llvm::StringRef forkFiles[] = {"fixed_fork.sv"};
constexpr llvm::StringRef joinFiles[] = {"fixed_skid_buffer.sv",
                                         "fixed_join2.sv"};
constexpr llvm::StringRef scanParameters[] = {
    "DATA_WIDTH", "FRAC_WIDTH", "PARALLELISM", "CHANNELS",
    "IN_HEIGHT",  "IN_WIDTH",   "KERNEL_H",    "KERNEL_W",
    "STRIDE",     "PADDING",    "OUT_HEIGHT",  "OUT_WIDTH"};
constexpr llvm::StringRef scanFiles[] = {"fixed_window_scan.sv"};
constexpr llvm::StringRef convertParameters[] = {
    "DATA_WIDTH", "FRAC_WIDTH", "IN_PARALLELISM", "OUT_PARALLELISM"};
constexpr llvm::StringRef convertFiles[] = {"fixed_width_convert.sv"};
constexpr llvm::StringRef castParameters[] = {
    "IN_WIDTH", "IN_FRAC_WIDTH", "OUT_WIDTH", "OUT_FRAC_WIDTH", "PARALLELISM"};
constexpr llvm::StringRef castFiles[] = {
    "fixed_round_sat.sv", "fixed_skid_buffer.sv", "fixed_cast.sv"};

} // namespace

constexpr Component mav::components::fixedRoundSat = {
    .module = "fixed_round_sat",
    .parameters = roundSatParameters,
    .dependenceFiles = roundSatFiles,
};
constexpr Component mav::components::fixedSkidBuffer = {
    .module = "fixed_skid_buffer",
    .parameters = streamParameters,
    .dependenceFiles = skidFiles,
    .timing = sliceTiming,
    .resources = skidResources,
};
constexpr Component mav::components::fixedFifo = {
    .module = "fixed_fifo",
    .parameters = fifoParameters,
    .dependenceFiles = fifoFiles,
    .timing = fifoTiming,
    .resources = fifoResources,
};
constexpr Component mav::components::fixedFork = {
    .module = "fixed_fork",
    .parameters = forkParameters,
    .dependenceFiles = forkFiles,
    .timing = forkTiming,
    .resources = forkResources,
};
constexpr Component mav::components::fixedJoin2 = {
    .module = "fixed_join2",
    .parameters = streamParameters,
    .dependenceFiles = joinFiles,
};
constexpr Component mav::components::fixedWindowScan = {
    .module = "fixed_window_scan",
    .parameters = scanParameters,
    .dependenceFiles = scanFiles,
};
constexpr Component mav::components::fixedCast = {
    .module = "fixed_cast",
    .parameters = castParameters,
    .dependenceFiles = castFiles,
    .timing = sliceTiming,
    .resources = streamingResources<2>,
};
constexpr Component mav::components::fixedWidthConvert = {
    .module = "fixed_width_convert",
    .parameters = convertParameters,
    .dependenceFiles = convertFiles,
    .timing = convertTiming,
    .resources = convertResources,
};
