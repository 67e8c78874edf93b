//===- ImportServices.cpp - Import TorchScript through its service --------===//

#include "ImportServices.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mav;

OwningOpRef<ModuleOp>
mav::importTorchScript(StringRef buffer, StringRef fileName,
                       const TorchScriptImportOptions &options,
                       MLIRContext *context) {
  auto importer = import_services::importTorchScript.get();
  if (!importer) {
    mlir::emitError(FileLineColLoc::get(context, fileName, 0, 0))
        << "cannot import TorchScript: "
        << llvm::toString(importer.takeError());
    return nullptr;
  }
  return (*importer)(buffer, fileName, options, context);
}
