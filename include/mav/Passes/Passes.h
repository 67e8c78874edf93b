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

/// Records that passes of class `pass` execute tensors, and so load
/// libtorch. A pass declares it once, next to its definition:
///   static mav::NeedsTorchRuntime<AddCommonMetadata> needsTorch;
void declareNeedsTorchRuntime(mlir::TypeID pass);

template <typename PassT> struct NeedsTorchRuntime {
  NeedsTorchRuntime() { declareNeedsTorchRuntime(mlir::TypeID::get<PassT>()); }
};

/// Whether a pass of `pipeline` (at its top level, where mav's module passes
/// run) declared that it needs libtorch; mav-opt then starts loading it while
/// the input is parsed.
bool pipelineNeedsTorch(const mlir::OpPassManager &pipeline);

/// The pass docs/Tutorial.md writes (passes/examples).
void registerTutorialPasses();

} // namespace mav

#endif // MAV_PASSES_PASSES_H
