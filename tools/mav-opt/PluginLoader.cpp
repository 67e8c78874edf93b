//===- PluginLoader.cpp - Loading mav-opt's plugins -----------------------===//

#include "PluginLoader.h"
#include "mav/Tools/Plugin.h"

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
                    " (include/mav/Tools/Plugin.h)");
  info = getInfo();
  if (info.apiVersion != MAV_PLUGIN_API_VERSION)
    return fail(kind, path,
                "it was built for plugin API version " +
                    llvm::Twine(info.apiVersion) + ", mav-opt has " +
                    llvm::Twine(MAV_PLUGIN_API_VERSION));
  return true;
}

} // namespace

bool mav::loadPlugins(int argc, char **argv, mlir::DialectRegistry &registry) {
  // Declared so that the parser accepts them; they were acted on already.
  static llvm::cl::list<std::string> passPlugins(
      "load-pass-plugin",
      llvm::cl::desc("Load passes from a plugin library (a mav pass plugin, "
                     "include/mav/Tools/Plugin.h)"),
      llvm::cl::value_desc("library"));
  static llvm::cl::list<std::string> dialectPlugins(
      "load-dialect-plugin",
      llvm::cl::desc("Load dialects from a plugin library (a mav dialect "
                     "plugin, include/mav/Tools/Plugin.h)"),
      llvm::cl::value_desc("library"));

  for (const std::string &path : flagValues(argc, argv, "load-pass-plugin")) {
    PassPluginInfo info;
    if (!loadPlugin(path, "pass", "mavGetPassPluginInfo", info))
      return false;
    if (info.registerPasses)
      info.registerPasses();
  }
  for (const std::string &path :
       flagValues(argc, argv, "load-dialect-plugin")) {
    DialectPluginInfo info;
    if (!loadPlugin(path, "dialect", "mavGetDialectPluginInfo", info))
      return false;
    if (info.registerDialects)
      info.registerDialects(&registry);
  }
  return true;
}
