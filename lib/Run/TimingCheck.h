//===- TimingCheck.h - Measured timing against the model --------*- C++ -*-===//
//
// `mav-run --rtl`'s timing run: the design simulated with no stalls, its
// latency (first input beat to the last output beat of frame 1, inclusive)
// and cycles per frame (between the last two frames' last output beats)
// against the performance model's for as many frames (PerformanceModel.h).
//
//===----------------------------------------------------------------------===//

#ifndef MAV_TOOLS_MAVRUN_TIMINGCHECK_H
#define MAV_TOOLS_MAVRUN_TIMINGCHECK_H

#include "mav/Hardware/HardwareGraph.h"
#include "mav/Hardware/RtlSimulation.h"

#include "llvm/Support/raw_ostream.h"

namespace mav {

/// The largest relative difference the check accepts.
constexpr double kTimingTolerance = 0.10;

/// Prints `timing (SIMULATOR, no stalls): latency ... (predicted ...),
/// cycles per frame ... (predicted ...): within 10%` (or `MISMATCH`) and
/// returns true on a failure: a run that was not bit-exact, or a figure off
/// by more than 10%.
bool checkTiming(const HardwareGraph &graph, const RtlSimulationResult &run,
                 int64_t frames, llvm::StringRef simulator,
                 llvm::raw_ostream &os);

} // namespace mav

#endif // MAV_TOOLS_MAVRUN_TIMINGCHECK_H
