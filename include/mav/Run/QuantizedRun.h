//===- QuantizedRun.h - mav-run on a quantized graph ------------*- C++ -*-===//
//
// A graph that -mav-quantize annotated runs as the bit-exact fixed-point
// model: inputs are rounded to the input's format, outputs are shown as the
// reals their words stand for. --reference checks the error against float
// PyTorch; --rtl runs the same words through an exported design.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_RUN_QUANTIZEDRUN_H
#define MAV_RUN_QUANTIZEDRUN_H

#include "mav/Hardware/RtlSimulation.h"
#include "mav/IR/MavOps.h"
#include "llvm/Support/raw_ostream.h"

#include <ATen/core/ivalue.h>
#include <functional>
#include <optional>

namespace mav {

struct QuantizedRunOptions {
  uint64_t seed = 0;
  int64_t samples = 1;
  int64_t intHigh = 10;
  /// Runs the float reference on the same inputs; null without one.
  std::function<mlir::FailureOr<c10::IValue>(const std::vector<c10::IValue> &)>
      reference;
  /// Given explicitly: the error must stay within them, and atol below the
  /// reference's largest magnitude. Otherwise each element's error must stay
  /// within its bound (FixedPointErrorBound.h), and where that bound cannot
  /// tell the output from zeros, within kErrorEstimateSigmas times its
  /// predicted rms error (FixedPointErrorEstimate.h), unless an element
  /// saturated.
  std::optional<double> absoluteTolerance, relativeTolerance;
  /// Print each node's predicted rms error and saturated elements.
  bool estimateNodes = false;
  /// The exported design to simulate; empty for none.
  std::string rtlDirectory;
  /// Also run the design with no stalls (at least 2 frames) and compare its
  /// latency and cycles per frame with the performance model's.
  bool timing = true;
  RtlSimulationOptions simulation;
  /// Where the report goes, and where errors go.
  llvm::raw_ostream *out = &llvm::outs();
  llvm::raw_ostream *errors = &llvm::errs();
};

/// Whether -mav-quantize gave a node of `graph` a fixed-point format.
bool isQuantized(GraphOp graph);

/// Returns the process exit code.
int runQuantized(GraphOp graph, const QuantizedRunOptions &options);

} // namespace mav

#endif // MAV_RUN_QUANTIZEDRUN_H
