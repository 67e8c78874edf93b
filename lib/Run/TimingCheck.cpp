//===- TimingCheck.cpp - Measured timing against the model ----------------===//

#include "TimingCheck.h"

#include "mav/Hardware/PerformanceModel.h"

#include "llvm/Support/Format.h"

using namespace mav;

namespace {

/// `1234 cycles (predicted 1250, +1.3%)`; whether it is within the
/// tolerance.
bool printFigure(llvm::raw_ostream &os, int64_t measured, int64_t predicted,
                 llvm::StringRef unit) {
  double relative =
      measured > 0 ? double(predicted - measured) / double(measured) : 1.0;
  os << measured << unit << " (predicted " << predicted << ", "
     << llvm::format("%+.1f%%", 100 * relative) << ")";
  return std::abs(relative) <= kTimingTolerance;
}

} // namespace

bool mav::checkTiming(const HardwareGraph &graph,
                      const RtlSimulationResult &run, int64_t frames,
                      llvm::StringRef simulator, llvm::raw_ostream &os) {
  os << "timing (" << simulator << ", no stalls): ";
  if (!run.passed() || run.firstInput < 0 ||
      static_cast<int64_t>(run.frameEnds.size()) != frames || frames < 2) {
    os << "MISMATCH: the run without stalls was not bit-exact (words "
          "compared: "
       << run.compared << " of " << run.expected
       << ", differing: " << run.differing
       << ", frames ended: " << run.frameEnds.size() << " of " << frames
       << ")\n";
    return true;
  }
  PerformanceOptions options;
  options.frames = frames;
  llvm::Expected<PerformanceReport> report = modelPerformance(graph, options);
  if (!report) {
    os << "MISMATCH: " << llvm::toString(report.takeError()) << "\n";
    return true;
  }
  int64_t latency = run.frameEnds.front() - run.firstInput + 1;
  int64_t perFrame = run.frameEnds[frames - 1] - run.frameEnds[frames - 2];
  os << "latency ";
  bool within = printFigure(os, latency, report->latency, " cycles");
  os << ", cycles per frame ";
  within &= printFigure(os, perFrame, report->cyclesPerFrame, "");
  os << ": " << (within ? "within 10%" : "MISMATCH: off by more than 10%")
     << "\n";
  return !within;
}
