//===- TorchScript.h - Import TorchScript modules into mav ------*- C++ -*-===//
//
// Turns a saved TorchScript module (torch.jit.trace or torch.jit.script) into
// a mav module: one `forward` graph, the module's weights, and a private body
// graph per leaf module. This header is libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IMPORT_TORCHSCRIPT_H
#define MAV_IMPORT_TORCHSCRIPT_H

#include "mav/IR/MavTypes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mav {

struct TorchScriptImportOptions {
  /// Types of the forward arguments, in order, spelled `1x3x224x224xf32`.
  /// Empty: arguments stay `!mav.tensor`.
  std::vector<std::string> inputShapes;
  /// Extra leaf classes: a demangled qualified class
  /// (`torchvision.ops.misc.Permute`) or a bare class name (`Permute`).
  std::vector<std::string> leafModules;
  /// Inline every module, so that no `call_module` remains.
  bool inlineAll = false;
};

/// Imports the TorchScript archive held in `buffer`; `fileName` names it in
/// diagnostics. Returns null after emitting an error at `fileName`. Runs on
/// libtorch, through the importer's service (TorchService.h).
mlir::OwningOpRef<mlir::ModuleOp>
importTorchScript(llvm::StringRef buffer, llvm::StringRef fileName,
                  const TorchScriptImportOptions &options,
                  mlir::MLIRContext *context);

/// Registers the importer's libtorch service; defined in MavImport.
void registerImportTorchServices();

} // namespace mav

#endif // MAV_IMPORT_TORCHSCRIPT_H
