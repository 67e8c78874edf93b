//===- TorchLoader.cpp - Load libMavTorchPlugin.so on demand --------------===//
//
// The services loader of tools that do not link libtorch: it loads
// libMavTorchPlugin.so from the tool's ../lib directory (or
// MAV_TORCH_PLUGIN), whose entry point registers its services.
//
//===----------------------------------------------------------------------===//

#include "mav/Runtime/TorchLoader.h"
#include "mav/Runtime/TorchService.h"

#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <thread>

using namespace mav;

static llvm::Error loadTorchPlugin() {
  std::string path;
  if (const char *override = std::getenv("MAV_TORCH_PLUGIN")) {
    path = override;
  } else {
    llvm::SmallString<256> location(llvm::sys::fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&loadTorchPlugin)));
    llvm::sys::path::remove_filename(location);
    llvm::sys::path::append(location, "..", "lib", "libMavTorchPlugin.so");
    path = std::string(location);
  }
  std::string loadError;
  llvm::sys::DynamicLibrary library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &loadError);
  if (!library.isValid())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot load mav's libtorch plugin: " +
                                       loadError);
  auto entry = reinterpret_cast<unsigned (*)()>(
      library.getAddressOfSymbol("mavRegisterTorchServices"));
  if (!entry || entry() != kTorchServicesVersion)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        path + " is not a matching mav libtorch plugin");
  return llvm::Error::success();
}

void mav::useTorchPlugin() { setTorchServicesLoader(loadTorchPlugin); }

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
  // A failed load is reported by the first use of a service.
  prefetch.thread = std::thread(loadTorchServices);
}

void mav::waitForTorchPrefetch() { getPrefetch().join(); }
