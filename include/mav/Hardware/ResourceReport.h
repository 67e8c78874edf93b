//===- ResourceReport.h - Synthesise an exported design ---------*- C++ -*-===//
//
// `mav-translate --report-resources DIR`: synthesises the design of an
// exported directory with Yosys, twice: `synth -flatten` (generic cells,
// flip-flops, and the bits of the memories the RTL declares: ROMs,
// FIFOs, image buffers) and
// `synth_xilinx -flatten` (LUTs, flip-flops, DSP48E1, block and LUT RAM).
// The report is JSON (docs/Hardware.md, "Resources"); --export-json embeds
// it. Libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_HARDWARE_RESOURCEREPORT_H
#define MAV_HARDWARE_RESOURCEREPORT_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace mav {

/// Runs Yosys on DIR (its filelist.f, top module `top`) and returns the
/// report. Errors hold Yosys's output.
llvm::Expected<llvm::json::Object> reportResources(llvm::StringRef directory);

/// One line per synthesis, for people.
std::string summarizeResources(const llvm::json::Object &report);

} // namespace mav

#endif // MAV_HARDWARE_RESOURCEREPORT_H
