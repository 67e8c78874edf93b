//===- RuntimeServices.cpp - The one definition of each runtime service ---===//
//
// The public entry points of the runtime services, each defined here only:
// they ask the registered backend (or load one) and forward to it.
//
//===----------------------------------------------------------------------===//

#include "mav/Runtime/RuntimeServices.h"
#include "mav/Checkpoint/Checkpoint.h"
#include "mav/Runtime/NativeShapes.h"

#include <mutex>

using namespace mlir;
using namespace mav;

namespace {
struct Registry {
  std::mutex mutex;
  const RuntimeServices *services = nullptr;
  RuntimeServicesLoader loader = nullptr;
};
} // namespace

static Registry &getRegistry() {
  static Registry registry;
  return registry;
}

void mav::registerRuntimeServices(const RuntimeServices *services) {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.services = services;
}

void mav::setRuntimeServicesLoader(RuntimeServicesLoader loader) {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.loader = loader;
}

llvm::Expected<const RuntimeServices *> mav::getRuntimeServices() {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  if (registry.services)
    return registry.services;
  if (!registry.loader)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "no runtime backend: this tool neither links libtorch nor loads "
        "libMavTorchPlugin.so");
  llvm::Expected<const RuntimeServices *> loaded = registry.loader();
  if (!loaded)
    return loaded.takeError();
  if ((*loaded)->version != RuntimeServices::kVersion)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the runtime backend is of another mav version");
  registry.services = *loaded;
  return loaded;
}

/// The backend, or null after reporting why at `op`.
static const RuntimeServices *getServicesOrEmit(Operation *op) {
  llvm::Expected<const RuntimeServices *> services = getRuntimeServices();
  if (!services) {
    op->emitError() << llvm::toString(services.takeError());
    return nullptr;
  }
  return *services;
}

LogicalResult
mav::propagateShapes(GraphOp graph, ArrayRef<RankedTensorType> inputTypes,
                     const ShapePropagationOptions &options,
                     function_ref<void(Operation *, const NodeShapes &)> onNode,
                     SmallVectorImpl<Attribute> &outputs) {
  if (options.onMeta && options.engine != ShapeEngine::Torch) {
    NativeShapeGap gap;
    if (succeeded(
            propagateShapesNatively(graph, inputTypes, onNode, outputs, gap))) {
      if (options.usedNativeRules)
        *options.usedNativeRules = true;
      return success();
    }
    outputs.clear();
    auto node = dyn_cast<NodeOpInterface>(gap.node);
    std::string name =
        node ? "node '" + node.getNodeName().str() + "'" : "graph";
    if (options.engine == ShapeEngine::Native)
      return gap.node->emitError()
             << name << ": " << gap.reason
             << " (shape-engine=native needs a rule for every node)";
    gap.node->emitRemark() << name << ": " << gap.reason
                           << "; shapes from libtorch's meta device";
  }
  const RuntimeServices *services = getServicesOrEmit(graph);
  if (!services)
    return failure();
  return services->propagateShapes(graph, inputTypes, options, onNode, outputs);
}

LogicalResult mav::writeCheckpoint(ModuleOp module, StringRef path) {
  const RuntimeServices *services = getServicesOrEmit(module);
  if (!services)
    return failure();
  return services->writeCheckpoint(module, path);
}

LogicalResult mav::analyseScale(GraphOp graph, const RandomDraw &draw,
                                bool backward, ScaleAnalysisResult &result) {
  const RuntimeServices *services = getServicesOrEmit(graph);
  if (!services)
    return failure();
  return services->analyseScale(graph, draw, backward, result);
}

LogicalResult mav::recordExecOrder(GraphOp graph, const RandomDraw &draw,
                                   bool backward, ExecOrderResult &result) {
  const RuntimeServices *services = getServicesOrEmit(graph);
  if (!services)
    return failure();
  return services->recordExecOrder(graph, draw, backward, result);
}

OwningOpRef<ModuleOp>
mav::importTorchScript(StringRef buffer, StringRef fileName,
                       const TorchScriptImportOptions &options,
                       MLIRContext *context) {
  llvm::Expected<const RuntimeServices *> services = getRuntimeServices();
  if (!services) {
    mlir::emitError(FileLineColLoc::get(context, fileName, 0, 0))
        << "cannot import TorchScript: "
        << llvm::toString(services.takeError());
    return nullptr;
  }
  return (*services)->importTorchScript(buffer, fileName, options, context);
}
