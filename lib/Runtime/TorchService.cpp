//===- TorchService.cpp - The registry of libtorch-backed services --------===//

#include "mav/Runtime/TorchService.h"

#include "llvm/ADT/StringMap.h"

#include <mutex>

using namespace mav;

namespace {
struct Registry {
  std::mutex mutex;
  llvm::StringMap<void *> services;
  TorchServicesLoader loader = nullptr;
  std::once_flag loaded;
  /// Why the loader failed, if it did.
  std::string loadError;
};
} // namespace

static Registry &getRegistry() {
  static Registry registry;
  return registry;
}

void mav::registerTorchService(llvm::StringRef name, void *function) {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.services[name] = function;
}

void mav::setTorchServicesLoader(TorchServicesLoader loader) {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.loader = loader;
}

void mav::loadTorchServices() {
  Registry &registry = getRegistry();
  TorchServicesLoader loader;
  {
    std::lock_guard<std::mutex> lock(registry.mutex);
    loader = registry.loader;
  }
  if (!loader)
    return;
  // The loader registers services, which takes the lock: it runs without it.
  std::call_once(registry.loaded, [&] {
    if (llvm::Error error = loader()) {
      std::string message = llvm::toString(std::move(error));
      std::lock_guard<std::mutex> lock(registry.mutex);
      registry.loadError = std::move(message);
    }
  });
}

llvm::Expected<void *> mav::lookupTorchService(llvm::StringRef name) {
  Registry &registry = getRegistry();
  auto find = [&]() -> void * {
    std::lock_guard<std::mutex> lock(registry.mutex);
    return registry.services.lookup(name);
  };
  if (void *function = find())
    return function;
  loadTorchServices();
  if (void *function = find())
    return function;
  std::lock_guard<std::mutex> lock(registry.mutex);
  if (!registry.loadError.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   registry.loadError);
  if (!registry.loader)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "no runtime backend: this tool neither links libtorch nor loads "
        "libMavTorchPlugin.so");
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "the runtime backend has no service '" + name +
                                     "'");
}
