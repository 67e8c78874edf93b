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
// returning MAV_PLUGIN_API_VERSION and a callback. The library is not linked
// against MLIR or mav: mav-opt exports both (examples/plugins).
//
//===----------------------------------------------------------------------===//

#ifndef MAV_TOOLS_PLUGIN_H
#define MAV_TOOLS_PLUGIN_H

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

} // namespace mav

#endif // MAV_TOOLS_PLUGIN_H
