//===- TorchLoader.cpp - Load libMavTorchPlugin.so on demand --------------===//
//
// The libtorch-backed functions for tools that do not link libtorch: each
// forwards to libMavTorchPlugin.so, loaded on first use from the tool's
// ../lib directory (or MAV_TORCH_PLUGIN).
//
//===----------------------------------------------------------------------===//

#include "mav/Runtime/TorchLoader.h"
#include "mav/Checkpoint/Checkpoint.h"
#include "mav/Runtime/TorchPlugin.h"

#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <thread>

using namespace mlir;
using namespace mav;

/// The plugin's functions, or null with `error` saying why it did not load.
static const TorchPluginApi *loadPlugin(std::string &error) {
  static std::string loadError;
  static const TorchPluginApi *api = []() -> const TorchPluginApi * {
    std::string path;
    if (const char *override = std::getenv("MAV_TORCH_PLUGIN")) {
      path = override;
    } else {
      llvm::SmallString<256> location(llvm::sys::fs::getMainExecutable(
          nullptr, reinterpret_cast<void *>(&loadPlugin)));
      llvm::sys::path::remove_filename(location);
      llvm::sys::path::append(location, "..", "lib", "libMavTorchPlugin.so");
      path = std::string(location);
    }
    llvm::sys::DynamicLibrary library =
        llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(),
                                                       &loadError);
    if (!library.isValid()) {
      loadError = "cannot load mav's libtorch plugin: " + loadError;
      return nullptr;
    }
    auto entry = reinterpret_cast<const TorchPluginApi *(*)()>(
        library.getAddressOfSymbol("mavTorchPluginApi"));
    const TorchPluginApi *loaded = entry ? entry() : nullptr;
    if (!loaded || loaded->version != TorchPluginApi::kVersion) {
      loadError = path + " is not a matching mav libtorch plugin";
      return nullptr;
    }
    return loaded;
  }();
  if (!api)
    error = loadError;
  return api;
}

namespace {
/// The prefetching thread; joined before static destruction completes, in
/// case a driver did not wait for it.
struct Prefetch {
  std::thread thread;
  ~Prefetch() { join(); }
  void join() {
    if (thread.joinable())
      thread.join();
  }
};
} // namespace

static Prefetch &getPrefetch() {
  static Prefetch prefetch;
  return prefetch;
}

void mav::prefetchTorchRuntime() {
  Prefetch &prefetch = getPrefetch();
  if (prefetch.thread.joinable())
    return;
  prefetch.thread = std::thread([] {
    std::string ignored; // A failed load is reported by its first use.
    loadPlugin(ignored);
  });
}

void mav::waitForTorchPrefetch() { getPrefetch().join(); }

LogicalResult
mav::propagateShapes(GraphOp graph, ArrayRef<RankedTensorType> inputTypes,
                     const ShapePropagationOptions &options,
                     function_ref<void(Operation *, const NodeShapes &)> onNode,
                     SmallVectorImpl<Attribute> &outputs) {
  std::string error;
  const TorchPluginApi *api = loadPlugin(error);
  if (!api)
    return graph.emitError() << error;
  return api->propagateShapes(graph, inputTypes, options, onNode, outputs);
}

LogicalResult mav::writeCheckpoint(ModuleOp module, StringRef path,
                                   std::string &error) {
  const TorchPluginApi *api = loadPlugin(error);
  return api ? api->writeCheckpoint(module, path, error) : failure();
}

LogicalResult mav::analyseScale(GraphOp graph, const RandomDraw &draw,
                                bool backward, ScaleAnalysisResult &result) {
  std::string error;
  const TorchPluginApi *api = loadPlugin(error);
  if (!api)
    return graph.emitError() << error;
  return api->analyseScale(graph, draw, backward, result);
}

LogicalResult mav::recordExecOrder(GraphOp graph, const RandomDraw &draw,
                                   bool backward, ExecOrderResult &result) {
  std::string error;
  const TorchPluginApi *api = loadPlugin(error);
  if (!api)
    return graph.emitError() << error;
  return api->recordExecOrder(graph, draw, backward, result);
}
