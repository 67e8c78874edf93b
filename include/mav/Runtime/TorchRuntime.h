//===- TorchRuntime.h - The libtorch backend's services ---------*- C++ -*-===//
//
// The libtorch implementations of the runtime services (RuntimeServices.h).
// Passes do not call these: they call the public entry points, which
// dispatch to whichever backend is registered. A tool that links libtorch
// registers this one with
// registerRuntimeServices(torch_runtime::getServices()). libtorch-free header;
// the definitions are in MavRuntime and MavCheckpoint.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_RUNTIME_TORCHRUNTIME_H
#define MAV_RUNTIME_TORCHRUNTIME_H

#include "mav/Runtime/RuntimeServices.h"

namespace mav::torch_runtime {

mlir::LogicalResult propagateShapes(
    GraphOp graph, llvm::ArrayRef<mlir::RankedTensorType> inputTypes,
    const ShapePropagationOptions &options,
    llvm::function_ref<void(mlir::Operation *, const NodeShapes &)> onNode,
    llvm::SmallVectorImpl<mlir::Attribute> &outputs);
mlir::LogicalResult writeCheckpoint(mlir::ModuleOp module,
                                    llvm::StringRef path);
mlir::LogicalResult analyseScale(GraphOp graph, const RandomDraw &draw,
                                 bool backward, ScaleAnalysisResult &result);
mlir::LogicalResult recordExecOrder(GraphOp graph, const RandomDraw &draw,
                                    bool backward, ExecOrderResult &result);
mlir::OwningOpRef<mlir::ModuleOp>
importTorchScript(llvm::StringRef buffer, llvm::StringRef fileName,
                  const TorchScriptImportOptions &options,
                  mlir::MLIRContext *context);

/// The five above, as a backend.
const RuntimeServices *getServices();

} // namespace mav::torch_runtime

#endif // MAV_RUNTIME_TORCHRUNTIME_H
