//===- ElideWeightsOption.h - --mav-elide-weights ---------------*- C++ -*-===//
//
// The printing option of the tools that write IR (mav-opt, mav-translate):
// weights as dense_resource<__elided__>. Kept in the tools, not in the IR
// library, which reads it from its dialect (MavDialect::getElideWeights).
//
//===----------------------------------------------------------------------===//

#ifndef MAV_TOOLS_ELIDEWEIGHTSOPTION_H
#define MAV_TOOLS_ELIDEWEIGHTSOPTION_H

#include "mav/IR/MavDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"

namespace mav {

/// Declares the option; call before the command line is parsed.
inline llvm::cl::opt<bool> &getElideWeightsOption() {
  static llvm::cl::opt<bool> option(
      "mav-elide-weights",
      llvm::cl::desc("Print weights as dense_resource<__elided__> instead of "
                     "their data (the text then carries no weight values)"),
      llvm::cl::init(false));
  return option;
}

/// Makes the printer of `context` follow the option.
inline void applyElideWeightsOption(mlir::MLIRContext *context) {
  context->getOrLoadDialect<MavDialect>()->setElideWeights(
      getElideWeightsOption());
}

} // namespace mav

#endif // MAV_TOOLS_ELIDEWEIGHTSOPTION_H
