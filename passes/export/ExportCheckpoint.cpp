//===- ExportCheckpoint.cpp - Write the module as a checkpoint ------------===//

#include "mav/Checkpoint/Checkpoint.h"
#include "mav/Passes/ExportPasses.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/Passes.h"

#include "mlir/IR/Builders.h"

namespace mav {
#define GEN_PASS_DEF_EXPORTCHECKPOINT
#include "mav/Passes/ExportPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {
struct ExportCheckpoint : mav::impl::ExportCheckpointBase<ExportCheckpoint> {
  using ExportCheckpointBase::ExportCheckpointBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (path.empty()) {
      module.emitError() << "mav-export-checkpoint needs a path, e.g. "
                            "-mav-export-checkpoint=path=model.ckpt";
      return signalPassFailure();
    }
    // Recorded first, so that the checkpoint holds its own export.
    Builder builder(&getContext());
    int64_t weights = std::distance(module.getOps<WeightOp>().begin(),
                                    module.getOps<WeightOp>().end());
    recordPassOutputs(
        module, getArgument(),
        {builder.getNamedAttr("path", builder.getStringAttr(path)),
         builder.getNamedAttr("weights", builder.getI64IntegerAttr(weights))});
    if (failed(writeCheckpoint(module, path)))
      return signalPassFailure();
  }
};
} // namespace

static mav::NeedsTorchRuntime<ExportCheckpoint> needsTorch;
