//===- RuntimeServices.cpp - The one definition of each runtime service ---===//
//
// The public entry points of the runtime services, each defined here only:
// they ask the registered backend (or load one) and forward to it.
//
//===----------------------------------------------------------------------===//

#include "mav/Runtime/RuntimeServices.h"
#include "mav/Checkpoint/Checkpoint.h"

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

const RuntimeServices *mav::getRuntimeServices(std::string &error) {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  if (registry.services)
    return registry.services;
  if (!registry.loader) {
    error = "no runtime backend: this tool neither links libtorch nor loads "
            "libMavTorchPlugin.so";
    return nullptr;
  }
  const RuntimeServices *loaded = registry.loader(error);
  if (loaded && loaded->version != RuntimeServices::kVersion) {
    error = "the runtime backend is of another mav version";
    return nullptr;
  }
  registry.services = loaded;
  return loaded;
}

/// The backend, or null after reporting why at `op`.
static const RuntimeServices *getServicesOrEmit(Operation *op) {
  std::string error;
  const RuntimeServices *services = getRuntimeServices(error);
  if (!services)
    op->emitError() << error;
  return services;
}

LogicalResult
mav::propagateShapes(GraphOp graph, ArrayRef<RankedTensorType> inputTypes,
                     const ShapePropagationOptions &options,
                     function_ref<void(Operation *, const NodeShapes &)> onNode,
                     SmallVectorImpl<Attribute> &outputs) {
  const RuntimeServices *services = getServicesOrEmit(graph);
  if (!services)
    return failure();
  return services->propagateShapes(graph, inputTypes, options, onNode, outputs);
}

LogicalResult mav::writeCheckpoint(ModuleOp module, StringRef path,
                                   std::string &error) {
  const RuntimeServices *services = getRuntimeServices(error);
  return services ? services->writeCheckpoint(module, path, error) : failure();
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
