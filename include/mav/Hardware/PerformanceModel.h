//===- PerformanceModel.h - Cycles and resources of a design ----*- C++ -*-===//
//
// `mav-translate --report-performance`: what the design --export-verilog
// writes for a graph costs, without a simulator. Per instance (each node's
// component and the glue between nodes: forks, FIFOs, casts, width
// converters), its cycles per frame, latency, multipliers, memory bits and
// an estimate of LUTs and flip-flops, all from its registry entry
// (Component.h); for the design, its latency and cycles per frame from a
// beat-level timing simulation (TimingSimulation.h) of the same instances,
// the bottleneck and the totals. docs/Hardware.md, "Performance", has
// every formula. Libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_HARDWARE_PERFORMANCEMODEL_H
#define MAV_HARDWARE_PERFORMANCEMODEL_H

#include "mav/Hardware/HardwareGraph.h"
#include "mav/Hardware/TimingSimulation.h"

#include "llvm/Support/JSON.h"

namespace mav {

struct PerformanceOptions {
  /// Frames simulated back to back; the cycles per frame are the distance
  /// between the last two frames' last output beats.
  int64_t frames = 4;
  /// The clock, for the throughput and the latency in microseconds.
  double clockMHz = 100;
};

/// One instance of the design.
struct InstanceFigures {
  /// Its name in top.sv, without `u_`, and its module.
  std::string instance, module;
  /// The node it computes; empty for glue.
  std::string node;
  /// Items (images, vectors) per frame, and the cycles of one item
  /// (the entry's itemCycles; glue: its beats per item).
  int64_t items = 1, itemCycles = 0;
  /// items * itemCycles: its initiation interval for one frame.
  int64_t cyclesPerFrame = 0;
  /// From its first input beat of a frame to its last output beat, alone.
  int64_t latency = 0;
  int64_t multipliers = 0;
  ResourceEstimate resources;
};

struct PerformanceReport {
  std::vector<InstanceFigures> instances;
  /// The instance with the most cycles per frame.
  size_t bottleneck = 0;
  /// Simulated: first input beat to the last output beat of frame 1,
  /// inclusive; the distance between the last two frames' last beats.
  int64_t latency = 0, cyclesPerFrame = 0;
  TimingTrace trace;
  int64_t frames = 0;
  /// Sums over the instances.
  int64_t multipliers = 0;
  ResourceEstimate totals;
};

/// The design's instances and streams, as top.sv wires them (TopLevel.cpp):
/// a fork and whole-tensor FIFOs where a value has several consumers, a
/// cast where formats differ, then a width converter where widths do.
TimedDesign buildTimedDesign(const HardwareGraph &graph,
                             std::vector<InstanceFigures> *figures = nullptr);

/// Models the design of a lowered graph.
llvm::Expected<PerformanceReport>
modelPerformance(const HardwareGraph &graph,
                 const PerformanceOptions &options = {});

/// Lowers `graph`, checks that every node has current hardware metadata
/// (errors name the node), and models it.
mlir::FailureOr<PerformanceReport>
modelPerformance(GraphOp graph, const PerformanceOptions &options = {});

/// The report as JSON (docs/Hardware.md, "Performance").
llvm::json::Object performanceToJson(const PerformanceReport &report,
                                     const PerformanceOptions &options);

/// One line per design figure, for a terminal.
std::string summarizePerformance(const PerformanceReport &report,
                                 const PerformanceOptions &options);

} // namespace mav

#endif // MAV_HARDWARE_PERFORMANCEMODEL_H
