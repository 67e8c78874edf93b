//===- ExitOnClosedPipe.h - Leave at once when the output pipe closes -----===//
//
// Part of the mav project.
//
//===----------------------------------------------------------------------===//
//
// LLVM's default SIGPIPE handler calls exit() inside the signal handler, and
// exit() runs libtorch's static destructors, which wait forever on any lock
// the interrupted code holds. mav's tools leave with _Exit instead.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_TOOLS_EXITONCLOSEDPIPE_H
#define MAV_TOOLS_EXITONCLOSEDPIPE_H

#include "llvm/Support/Signals.h"

#include <cstdlib>
#include <sysexits.h>

namespace mav {

/// Makes a write to a closed pipe end the process with EX_IOERR, without
/// running static destructors. Call it after llvm::InitLLVM.
inline void exitOnClosedPipe() {
  llvm::sys::SetOneShotPipeSignalFunction([] { std::_Exit(EX_IOERR); });
}

} // namespace mav

#endif // MAV_TOOLS_EXITONCLOSEDPIPE_H
