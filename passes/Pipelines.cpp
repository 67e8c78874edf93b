//===- Pipelines.cpp - Registration of passes and named pipelines ---------===//

#include "mav/Passes/AnalysisPasses.h"
#include "mav/Passes/ExportPasses.h"
#include "mav/Passes/Passes.h"
#include "mav/Passes/TransformPasses.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

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
                             "raise to the Mase IR: mav-init-metadata, then "
                             "mav-add-common-metadata (meta device)",
                             [](OpPassManager &pm) {
                               pm.addPass(createInitMetadata());
                               pm.addPass(createAddCommonMetadata());
                             });
}

bool mav::pipelineNeedsTorch(const OpPassManager &pipeline) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  pipeline.printAsTextualPipeline(stream);
  stream.flush();
  return llvm::any_of(
      ArrayRef<StringRef>{"mav-add-common-metadata", "mav-export-checkpoint",
                          "mav-analyse-scale", "mav-param-exec-order"},
      [&](StringRef pass) { return StringRef(text).contains(pass); });
}
