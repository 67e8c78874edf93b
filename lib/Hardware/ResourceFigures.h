//===- ResourceFigures.h - Yosys statistics to report figures ---*- C++ -*-===//
//
// What the whole-design and the per-instance resource reports share: the
// Yosys scripts, and the figures they read from `stat -json`. Private to
// lib/Hardware.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_HARDWARE_RESOURCEFIGURES_H
#define MAV_LIB_HARDWARE_RESOURCEFIGURES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace mav {
namespace synthesis {

/// The three `stat -json` files one synthesis writes, and the `dump` of the
/// memories it leaves out (with a memory limit).
struct StatFiles {
  std::string memory, generic, xilinx, leftOut;
};

/// The files an exported design's `filelist.f` (at `fileList`) names, in
/// order; the error names the file and says how to write it.
llvm::Expected<llvm::SmallVector<std::string>>
readFileList(llvm::StringRef fileList);

/// The generic and Xilinx Yosys scripts for module `top`, after `read` (which
/// ends in "; "). With `romLimitWords` > 0, ROMs of that many words or more
/// (read-only memories, which the caller leaves without a file) are left out
/// of both: each is one `$__MAV_ROM` cell, its read data free inputs; its
/// bits still count in memory_bits.
std::pair<std::string, std::string> synthesisScripts(llvm::StringRef read,
                                                     llvm::StringRef top,
                                                     const StatFiles &stats,
                                                     int64_t romLimitWords);

/// Reads the three statistics into {"generic": {...}, "xilinx": {...}}, the
/// figures of the report; with `byType`, each also holds `cells_by_type`.
llvm::Expected<llvm::json::Object> readFigures(const StatFiles &stats,
                                               bool byType);

/// Synthesises DIR's whole design (filelist.f, top module `top`): the
/// figures of readFigures.
llvm::Expected<llvm::json::Object> synthesizeDesign(llvm::StringRef directory,
                                                    bool byType);

/// The one line of Yosys's output that says what went wrong (its first
/// `ERROR:` line), from the message of a failed runTool.
std::string yosysErrorLine(llvm::StringRef message);

} // namespace synthesis
} // namespace mav

#endif // MAV_LIB_HARDWARE_RESOURCEFIGURES_H
