//===- Pipelines.cpp - Registration of passes and named pipelines ---------===//

#include "mav/Passes/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void mav::registerMavPassesAndPipelines() {
  registerMavPasses();
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
