//===- RtlSimulation.h - Check a design against the model -------*- C++ -*-===//
//
// `mav-run --rtl=DIR`: streams input words through an exported design
// (mav-translate --export-verilog) under a simulator, with random stalls on
// the input's valid and the output's ready, and compares every output word
// with the fixed-point model's. The testbench is generated: C++ for
// Verilator, SystemVerilog for Icarus Verilog. Libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_HARDWARE_RTLSIMULATION_H
#define MAV_HARDWARE_RTLSIMULATION_H

#include "mav/Hardware/FixedPoint.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mav {

enum class Simulator { Verilator, Icarus };

/// An exported design's interface, from its design.json.
struct RtlDesignInfo {
  std::string graph;
  FixedFormat input, output;
  /// Words per beat of the input and the output stream.
  int64_t inputParallelism = 1, outputParallelism = 1;
  /// Words of one input / output tensor (the graph's, batch included).
  int64_t inputWords = 0, outputWords = 0;
  std::vector<std::string> files;
};

/// Reads DIR/design.json; errors name the file.
llvm::Expected<RtlDesignInfo> readDesignInfo(llvm::StringRef directory);

struct RtlSimulationResult {
  int64_t expected = 0;
  int64_t compared = 0;
  int64_t differing = 0;
  int64_t cycles = 0;
  /// Protocol violations seen: a stalled output that changed or dropped.
  int64_t protocolErrors = 0;
  /// Output beats after the last expected one.
  int64_t extraBeats = 0;
  /// The first differences, as the testbench printed them.
  std::vector<std::string> messages;
  /// The cycle (clock edge after reset, from 0) of the first input beat,
  /// and of each frame's (output tensor's) last output beat.
  int64_t firstInput = -1;
  std::vector<int64_t> frameEnds;

  bool passed() const {
    return compared == expected && differing == 0 && protocolErrors == 0 &&
           extraBeats == 0;
  }
};

struct RtlSimulationOptions {
  Simulator simulator = Simulator::Verilator;
  /// Seeds the stall pattern.
  uint64_t seed = 0;
  /// The simulation gives up after this many cycles.
  int64_t maxCycles = 50'000'000;
  /// Where to build; a fresh temporary directory when empty (removed after).
  std::string workDirectory;
};

/// One run of a built testbench: the words in and the words expected out,
/// and the probability, in percent, that the input or the output stalls in
/// a cycle (0: a timing run, the input always valid, the output always
/// ready).
struct RtlRun {
  llvm::ArrayRef<int64_t> inputWords, expectedWords;
  int stallPercent = 25;
};

/// Builds the design in `directory` with a generated testbench once, and
/// runs it once per run. Fails when a tool is missing or a build fails,
/// with its output in the message.
llvm::Expected<std::vector<RtlSimulationResult>>
simulateRtlRuns(llvm::StringRef directory, const RtlDesignInfo &design,
                llvm::ArrayRef<RtlRun> runs,
                const RtlSimulationOptions &options);

/// Builds the design in `directory` with a generated testbench, streams
/// `inputWords` (in the design's input format) and compares the output with
/// `expectedWords`. Fails when a tool is missing or a build fails, with its
/// output in the message.
llvm::Expected<RtlSimulationResult>
simulateRtl(llvm::StringRef directory, const RtlDesignInfo &design,
            llvm::ArrayRef<int64_t> inputWords,
            llvm::ArrayRef<int64_t> expectedWords,
            const RtlSimulationOptions &options);

} // namespace mav

#endif // MAV_HARDWARE_RTLSIMULATION_H
