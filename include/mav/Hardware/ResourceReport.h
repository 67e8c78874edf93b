//===- ResourceReport.h - Synthesise an exported design ---------*- C++ -*-===//
//
// `mav-translate --report-resources DIR`: synthesises the design of an
// exported directory with Yosys, twice: `synth -flatten` (generic cells,
// flip-flops, and the bits of the memories the RTL declares: ROMs,
// FIFOs, image buffers) and
// `synth_xilinx -flatten` (LUTs, flip-flops, DSP48E1, block and LUT RAM).
// The report is JSON (docs/Hardware.md, "Resources"); --export-json embeds
// it. `--resources-by=instance` synthesises each distinct instance
// configuration of top.sv once instead (a module and its parameter values,
// ROM contents included), caches the figures on disk, and sums them by
// instance count: the way to large designs. Libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_HARDWARE_RESOURCEREPORT_H
#define MAV_HARDWARE_RESOURCEREPORT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <utility>
#include <vector>

namespace mav {

/// Runs Yosys on DIR (its filelist.f, top module `top`) and returns the
/// report. Errors hold Yosys's output.
llvm::Expected<llvm::json::Object> reportResources(llvm::StringRef directory);

/// One line per synthesis, for people; for a report by instance, one line
/// per configuration, the sums, and the difference from the whole design.
std::string summarizeResources(const llvm::json::Object &report);

/// One module instance of an exported top.sv.
struct TopInstance {
  std::string module, name;
  /// In the order top.sv gives them; values as written (`8`, `"w.mem"`).
  llvm::SmallVector<std::pair<std::string, std::string>> parameters;
  /// 1-based line of `MODULE #(`.
  unsigned line = 0;
};

/// The instances of the top.sv --export-verilog writes (TopLevel.cpp's fixed
/// format). Anything else than instances, `logic` declarations, `assign`s,
/// comments and the port list is an error naming the line: top.sv holds no
/// logic of its own.
llvm::Expected<std::vector<TopInstance>>
parseTopInstances(llvm::StringRef path);

struct InstanceSynthesisOptions {
  /// Where each configuration's figures are kept between runs; empty: none.
  std::string cacheDirectory;
  /// Memories of this many words or more are not synthesised (0: all are,
  /// as in the whole-design report): a ROM is left out of both flows, its
  /// block RAM estimated and its contents out of the cache key; the generic
  /// flow leaves a RAM unmapped. Their bits count in memory_bits.
  int64_t memoryLimitWords = 0;
  /// Run the generic flow too; without it, only synth_xilinx (the generic
  /// figures are then the memory bits alone).
  bool genericFlow = true;
  /// Also synthesise the whole design and report the difference.
  bool compareWithDesign = false;
  /// Told each configuration as it is done.
  llvm::function_ref<void(llvm::StringRef)> progress = nullptr;
};

/// $XDG_CACHE_HOME/mav/synth, else $HOME/.cache/mav/synth.
std::string defaultSynthesisCache();

/// Synthesises each distinct configuration of DIR/top.sv's instances once
/// (or takes it from the cache) and sums the figures by instance count.
llvm::Expected<llvm::json::Object>
reportResourcesByInstance(llvm::StringRef directory,
                          const InstanceSynthesisOptions &options);

} // namespace mav

#endif // MAV_HARDWARE_RESOURCEREPORT_H
