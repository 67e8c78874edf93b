//===- RuntimeServices.h - What a runtime backend provides ------*- C++ -*-===//
//
// Some passes execute tensors (shape propagation on the meta device, the
// scale and execution-order analyses) or write checkpoints in PyTorch's
// format, and mav-translate imports TorchScript. They do so through the
// runtime services below, which a backend fills in. mav's one backend is
// libtorch (lib/Runtime/TorchRuntime.h): tools that link it register it at
// start-up, and mav-opt, which does not, loads it from libMavTorchPlugin.so the
// first time a pass asks for a service (TorchLoader.h). The public entry points
// (propagateShapes, analyseScale, recordExecOrder, writeCheckpoint,
// importTorchScript) are each defined once, in lib/Runtime/RuntimeServices.cpp,
// and dispatch here. libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_RUNTIME_RUNTIMESERVICES_H
#define MAV_RUNTIME_RUNTIMESERVICES_H

#include "mav/Import/TorchScript.h"
#include "mav/Runtime/GraphAnalyses.h"
#include "mav/Runtime/ShapePropagation.h"

#include "llvm/Support/Error.h"

namespace mav {

/// The services of a runtime backend, by address.
struct RuntimeServices {
  static constexpr unsigned kVersion = 5;
  unsigned version = kVersion;
  /// See propagateShapes (ShapePropagation.h).
  mlir::LogicalResult (*propagateShapes)(
      GraphOp graph, llvm::ArrayRef<mlir::RankedTensorType> inputTypes,
      const ShapePropagationOptions &options,
      llvm::function_ref<void(mlir::Operation *, const NodeShapes &)> onNode,
      llvm::SmallVectorImpl<mlir::Attribute> &outputs) = nullptr;
  /// See writeCheckpoint (Checkpoint.h).
  mlir::LogicalResult (*writeCheckpoint)(mlir::ModuleOp module,
                                         llvm::StringRef path) = nullptr;
  /// See analyseScale (GraphAnalyses.h).
  mlir::LogicalResult (*analyseScale)(GraphOp graph, const RandomDraw &draw,
                                      bool backward,
                                      ScaleAnalysisResult &result) = nullptr;
  /// See recordExecOrder (GraphAnalyses.h).
  mlir::LogicalResult (*recordExecOrder)(GraphOp graph, const RandomDraw &draw,
                                         bool backward,
                                         ExecOrderResult &result) = nullptr;
  /// See importTorchScript (Import/TorchScript.h).
  mlir::OwningOpRef<mlir::ModuleOp> (*importTorchScript)(
      llvm::StringRef buffer, llvm::StringRef fileName,
      const TorchScriptImportOptions &options,
      mlir::MLIRContext *context) = nullptr;
};

/// Makes `services` the backend (a tool that links one calls this at
/// start-up). Null unregisters it.
void registerRuntimeServices(const RuntimeServices *services);

/// How to obtain a backend on first use when none is registered: the
/// services, or an error saying why there are none.
using RuntimeServicesLoader = llvm::Expected<const RuntimeServices *> (*)();
void setRuntimeServicesLoader(RuntimeServicesLoader loader);

/// The registered backend, else the loader's, else an error saying why there
/// is none.
llvm::Expected<const RuntimeServices *> getRuntimeServices();

} // namespace mav

/// The entry point of a backend built as a shared library
/// (libMavTorchPlugin.so).
extern "C" const mav::RuntimeServices *mavRuntimeServices();

#endif // MAV_RUNTIME_RUNTIMESERVICES_H
