//===- Pipelines.cpp - Registration of passes and named pipelines ---------===//

#include "mav/Passes/AnalysisPasses.h"
#include "mav/Passes/ExportPasses.h"
#include "mav/Passes/Passes.h"
#include "mav/Passes/TransformPasses.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace mav {
#define GEN_PASS_REGISTRATION
#include "mav/Passes/AnalysisPasses.h.inc"
#define GEN_PASS_REGISTRATION
#include "mav/Passes/ExportPasses.h.inc"
#define GEN_PASS_REGISTRATION
#include "mav/Passes/TransformPasses.h.inc"
} // namespace mav

void mav::registerMavPassesAndPipelines() {
  registerMavAnalysisPasses();
  registerMavExportPasses();
  registerMavTransformPasses();
  registerTutorialPasses();
  PassPipelineRegistration<>("mav-raise",
                             "raise to the Mase IR: mav-lower-nested-tensors, "
                             "mav-init-metadata, then "
                             "mav-add-common-metadata (meta device)",
                             [](OpPassManager &pm) {
                               pm.addPass(createLowerNestedTensors());
                               pm.addPass(createInitMetadata());
                               pm.addPass(createAddCommonMetadata());
                             });
}

/// The pass classes that declared NeedsTorchRuntime.
static llvm::DenseSet<TypeID> &torchRuntimePasses() {
  static llvm::DenseSet<TypeID> passes;
  return passes;
}

void mav::declareNeedsTorchRuntime(TypeID pass) {
  torchRuntimePasses().insert(pass);
}

bool mav::pipelineNeedsTorch(const OpPassManager &pipeline) {
  return llvm::any_of(pipeline.getPasses(), [](const Pass &pass) {
    return torchRuntimePasses().contains(pass.getTypeID());
  });
}
