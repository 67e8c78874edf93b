//===- PluginAPI.h - Pass and dialect plugins for mav-opt -------*- C++ -*-===//
//
// `mav-opt --load-pass-plugin=LIB.so` and `--load-dialect-plugin=LIB.so` are
// MLIR's own options, with MLIR's plugin interface
// (mlir/Tools/Plugins/PassPlugin.h, DialectPlugin.h): a plugin exports
//
//   extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
//   mlirGetPassPluginInfo();
//   extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
//   mlirGetDialectPluginInfo();
//
// returning MLIR_PLUGIN_API_VERSION and a callback. MAV_PASS_PLUGIN and
// MAV_DIALECT_PLUGIN below write them for a list of pass or dialect classes.
// mav-opt loads the libraries before it parses the command line, so their
// passes are flags like mav's own. The library is not linked against MLIR
// or mav: mav-opt exports both (examples/plugins).
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PASSES_PLUGINAPI_H
#define MAV_PASSES_PLUGINAPI_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Support/Compiler.h"

namespace mav {
namespace detail {
template <typename... PassTs> void registerPluginPasses() {
  (mlir::PassRegistration<PassTs>(), ...);
}
template <typename... DialectTs>
void registerPluginDialects(mlir::DialectRegistry *registry) {
  registry->insert<DialectTs...>();
}
} // namespace detail
} // namespace mav

/// Defines the entry point of a plugin registering the passes `...`:
///   MAV_PASS_PLUGIN("fold-batchnorm", "1.0", FoldBatchNorm)
#define MAV_PASS_PLUGIN(NAME, VERSION, ...)                                    \
  extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo                 \
  mlirGetPassPluginInfo() {                                                    \
    return {MLIR_PLUGIN_API_VERSION, NAME, VERSION,                            \
            ::mav::detail::registerPluginPasses<__VA_ARGS__>};                 \
  }

/// Defines the entry point of a plugin registering the dialects `...`:
///   MAV_DIALECT_PLUGIN("example-dialect", "1.0", ExampleDialect)
#define MAV_DIALECT_PLUGIN(NAME, VERSION, ...)                                 \
  extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo              \
  mlirGetDialectPluginInfo() {                                                 \
    return {MLIR_PLUGIN_API_VERSION, NAME, VERSION,                            \
            ::mav::detail::registerPluginDialects<__VA_ARGS__>};               \
  }

#endif // MAV_PASSES_PLUGINAPI_H
