//===- TorchPlugin.h - mav's libtorch side, loaded on demand ----*- C++ -*-===//
//
// Loading libtorch costs a tool start-up of about half a second and 150 MB.
// mav-opt therefore does not link it: the passes that execute tensors (shape
// propagation) or write and read checkpoints call into libMavTorchPlugin.so,
// which mav-opt loads the first time one of them runs. A pipeline that only
// parses, counts, removes and prints never loads it. This header is the
// plugin's interface; libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_RUNTIME_TORCHPLUGIN_H
#define MAV_RUNTIME_TORCHPLUGIN_H

#include "mav/Runtime/GraphAnalyses.h"
#include "mav/Runtime/ShapePropagation.h"

#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace mav {

/// What the plugin provides: the libtorch-backed functions, by address.
struct TorchPluginApi {
  static constexpr unsigned kVersion = 3;
  unsigned version;
  mlir::LogicalResult (*propagateShapes)(
      GraphOp graph, llvm::ArrayRef<mlir::RankedTensorType> inputTypes,
      const ShapePropagationOptions &options,
      llvm::function_ref<void(mlir::Operation *, const NodeShapes &)> onNode,
      llvm::SmallVectorImpl<mlir::Attribute> &outputs);
  mlir::LogicalResult (*writeCheckpoint)(mlir::ModuleOp module,
                                         llvm::StringRef path,
                                         std::string &error);
  mlir::LogicalResult (*analyseScale)(GraphOp graph, const RandomDraw &draw,
                                      bool backward,
                                      ScaleAnalysisResult &result);
  mlir::LogicalResult (*recordExecOrder)(GraphOp graph, const RandomDraw &draw,
                                         bool backward,
                                         ExecOrderResult &result);
};

} // namespace mav

/// The plugin's one entry point.
extern "C" const mav::TorchPluginApi *mavTorchPluginApi();

#endif // MAV_RUNTIME_TORCHPLUGIN_H
