//===- PluginLoader.cpp - Loading mav-opt's plugins -----------------------===//

#include "PluginLoader.h"
#include "mav/Passes/PluginAPI.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mav;

namespace {

enum class PluginKind { Pass, Dialect };

/// The values given to `--FLAG=VALUE`, `-FLAG=VALUE`, `--FLAG VALUE`.
std::vector<std::string> flagValues(int argc, char **argv,
                                    llvm::StringRef flag) {
  std::vector<std::string> values;
  for (int index = 1; index < argc; ++index) {
    llvm::StringRef arg = argv[index];
    if (!arg.consume_front("-"))
      continue;
    arg.consume_front("-");
    if (!arg.consume_front(flag))
      continue;
    if (arg.consume_front("="))
      values.push_back(arg.str());
    else if (arg.empty() && index + 1 < argc)
      values.push_back(argv[++index]);
  }
  return values;
}

bool fail(llvm::StringRef kind, llvm::StringRef path, const llvm::Twine &why) {
  llvm::errs() << "mav-opt: cannot load " << kind << " plugin '" << path
               << "': " << why << "\n";
  return false;
}

template <typename Info>
bool loadPlugin(const std::string &path, llvm::StringRef kind,
                const char *entryPoint, Info &info) {
  std::string error;
  auto library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &error);
  if (!library.isValid())
    return fail(kind, path, error);
  auto getInfo =
      reinterpret_cast<Info (*)()>(library.getAddressOfSymbol(entryPoint));
  if (!getInfo)
    return fail(kind, path,
                llvm::Twine("it does not export ") + entryPoint +
                    " (mlir/Tools/Plugins, include/mav/Passes/PluginAPI.h)");
  info = getInfo();
  if (info.apiVersion != MLIR_PLUGIN_API_VERSION)
    return fail(kind, path,
                "it was built for plugin API version " +
                    llvm::Twine(info.apiVersion) + ", mav-opt has " +
                    llvm::Twine(MLIR_PLUGIN_API_VERSION));
  return true;
}

} // namespace

bool mav::loadPlugins(int argc, char **argv, mlir::DialectRegistry &registry) {
  for (const std::string &path : flagValues(argc, argv, "load-pass-plugin")) {
    mlir::PassPluginLibraryInfo info;
    if (!loadPlugin(path, "pass", "mlirGetPassPluginInfo", info))
      return false;
    if (info.registerPassRegistryCallbacks)
      info.registerPassRegistryCallbacks();
  }
  for (const std::string &path :
       flagValues(argc, argv, "load-dialect-plugin")) {
    mlir::DialectPluginLibraryInfo info;
    if (!loadPlugin(path, "dialect", "mlirGetDialectPluginInfo", info))
      return false;
    if (info.registerDialectRegistryCallbacks)
      info.registerDialectRegistryCallbacks(&registry);
  }
  return true;
}
