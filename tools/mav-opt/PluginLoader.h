//===- PluginLoader.h - Loading mav-opt's plugins ---------------*- C++ -*-===//

#ifndef MAV_OPT_PLUGINLOADER_H
#define MAV_OPT_PLUGINLOADER_H

#include "mlir/IR/DialectRegistry.h"

namespace mav {

/// Loads every plugin that MLIR's --load-pass-plugin and --load-dialect-plugin
/// name in `argv` now, before the command line is parsed, so the plugins'
/// passes are flags and their dialects are known to the parser. Errors (a
/// missing library, no entry point, another API version) are printed naming the
/// file; returns false after one.
bool loadPlugins(int argc, char **argv, mlir::DialectRegistry &registry);

} // namespace mav

#endif // MAV_OPT_PLUGINLOADER_H
