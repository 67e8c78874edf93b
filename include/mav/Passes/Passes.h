//===- Passes.h - The mav pass library --------------------------*- C++ -*-===//

#ifndef MAV_PASSES_PASSES_H
#define MAV_PASSES_PASSES_H

#include "mav/IR/MavOps.h"

#include "mlir/Pass/Pass.h"

namespace mav {

#define GEN_PASS_DECL
#include "mav/Passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mav/Passes/Passes.h.inc"

/// Registers every mav pass, the named pipelines (mav-raise) and the
/// tutorial's example pass.
void registerMavPassesAndPipelines();

/// Whether a pass of `pipeline` executes tensors, and so loads libtorch:
/// mav-add-common-metadata (also inside mav-raise) and mav-export-checkpoint.
bool pipelineNeedsTorch(const mlir::OpPassManager &pipeline);

/// The pass docs/Tutorial.md writes (passes/examples).
void registerTutorialPasses();

} // namespace mav

#endif // MAV_PASSES_PASSES_H
