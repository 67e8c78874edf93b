//===- WeightsOption.h - --mav-weights --------------------------*- C++ -*-===//
//
// The option of the tools that write IR (mav-opt, mav-translate): where the
// printed IR keeps its weights (Checkpoint/WeightsFile.h).
//
//===----------------------------------------------------------------------===//

#ifndef MAV_TOOLS_WEIGHTSOPTION_H
#define MAV_TOOLS_WEIGHTSOPTION_H

#include "mav/Checkpoint/WeightsFile.h"

#include "llvm/Support/CommandLine.h"

namespace mav {

/// Declares the option; call before the command line is parsed.
inline llvm::cl::opt<WeightsPlacement> &getWeightsOption() {
  static llvm::cl::opt<WeightsPlacement> option(
      "mav-weights", llvm::cl::desc("Where printed IR keeps its weights"),
      llvm::cl::values(
          clEnumValN(WeightsPlacement::Auto, "auto",
                     "beside the text when the input had them there or "
                     "they exceed 1 MiB, else in it (default)"),
          clEnumValN(WeightsPlacement::Inline, "inline",
                     "in the text, as hex blobs"),
          clEnumValN(WeightsPlacement::File, "file",
                     "in <output>.weights beside the text, a checkpoint that "
                     "torch.load reads")),
      llvm::cl::init(WeightsPlacement::Auto));
  return option;
}

} // namespace mav

#endif // MAV_TOOLS_WEIGHTSOPTION_H
