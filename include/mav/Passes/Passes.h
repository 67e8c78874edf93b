//===- Passes.h - Registering the mav pass library -------------*- C++ -*-===//
//
// What a driver needs: registering every pass. The passes' create functions
// are in AnalysisPasses.h, TransformPasses.h and ExportPasses.h, one header
// per area, so that a driver does not rebuild when a pass is added.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PASSES_PASSES_H
#define MAV_PASSES_PASSES_H

#include "mlir/Pass/PassManager.h"

namespace mav {

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
