//===- Plugin.h - Pass and dialect plugins for mav-opt ----------*- C++ -*-===//
//
// `mav-opt --load-pass-plugin=LIB.so` and `--load-dialect-plugin=LIB.so`
// load a shared library before the command line is parsed, so its passes are
// flags like mav's own. MLIR 16's MlirOptMain has no plugins; this follows
// the shape MLIR 17 gave them, under mav's names. A plugin exports
//
//   extern "C" LLVM_ATTRIBUTE_WEAK mav::PassPluginInfo mavGetPassPluginInfo();
//   extern "C" LLVM_ATTRIBUTE_WEAK mav::DialectPluginInfo
//   mavGetDialectPluginInfo();
//
// returning MAV_PLUGIN_API_VERSION and a callback; MAV_PASS_PLUGIN below
// writes the first for a list of pass classes. The library is not linked
// against MLIR or mav: mav-opt exports both (examples/plugins).
//
//===----------------------------------------------------------------------===//

#ifndef MAV_TOOLS_PLUGIN_H
#define MAV_TOOLS_PLUGIN_H

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/Compiler.h"

#include <cstdint>

namespace mlir {
class DialectRegistry;
} // namespace mlir

/// Bumped when these structures change; mav-opt refuses other versions.
#define MAV_PLUGIN_API_VERSION 1

namespace mav {

struct PassPluginInfo {
  uint32_t apiVersion;
  const char *name;
  const char *version;
  /// Registers the plugin's passes (mlir::PassRegistration, or the
  /// registerXPasses() function a Passes.td generates).
  void (*registerPasses)();
};

struct DialectPluginInfo {
  uint32_t apiVersion;
  const char *name;
  const char *version;
  /// Adds the plugin's dialects to mav-opt's registry.
  void (*registerDialects)(mlir::DialectRegistry *registry);
};

namespace detail {
template <typename... PassTs> void registerPluginPasses() {
  (mlir::PassRegistration<PassTs>(), ...);
}
} // namespace detail

} // namespace mav

/// Defines the entry point of a plugin registering the passes `...`:
///   MAV_PASS_PLUGIN("fold-batchnorm", "1.0", FoldBatchNorm)
#define MAV_PASS_PLUGIN(NAME, VERSION, ...)                                    \
  extern "C" LLVM_ATTRIBUTE_WEAK ::mav::PassPluginInfo                         \
  mavGetPassPluginInfo() {                                                     \
    return {MAV_PLUGIN_API_VERSION, NAME, VERSION,                             \
            ::mav::detail::registerPluginPasses<__VA_ARGS__>};                 \
  }

#endif // MAV_TOOLS_PLUGIN_H
