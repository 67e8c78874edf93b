//===- ExternalTool.h - Run verilator, iverilog, yosys ----------*- C++ -*-===//

#ifndef MAV_HARDWARE_EXTERNALTOOL_H
#define MAV_HARDWARE_EXTERNALTOOL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mav {

/// Runs `program` (found on PATH) with `args` in `directory`, its stdout and
/// stderr to `logPath`. A missing program or a non-zero exit is an error
/// holding the end of the log.
llvm::Error runTool(llvm::StringRef program, llvm::ArrayRef<std::string> args,
                    llvm::StringRef directory, llvm::StringRef logPath);

/// An error "PATH: MESSAGE".
llvm::Error makeFileError(const llvm::Twine &path, const llvm::Twine &message);

/// Writes `text` to `path`; the error names the file.
llvm::Error writeTextFile(llvm::StringRef path, llvm::StringRef text);

} // namespace mav

#endif // MAV_HARDWARE_EXTERNALTOOL_H
