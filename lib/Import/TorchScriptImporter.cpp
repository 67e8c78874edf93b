//===- TorchScriptImporter.cpp - Entry of the TorchScript importer --------===//
//
// Loads the archive with libtorch, imports weights and the forward graph,
// verifies the result, and turns every libtorch failure into one diagnostic
// naming the file.
//
//===----------------------------------------------------------------------===//

#include "ImporterInternals.h"

#include "mlir/IR/Verifier.h"

#include "mav/Runtime/MemoryReader.h"

using namespace mlir;
using namespace mav;
using namespace mav::detail;

InFlightDiagnostic ImportContext::emitError() {
  return mlir::emitError(FileLineColLoc::get(context, fileName, 0, 0));
}

/// libtorch messages carry a C++ backtrace after the first line.
static StringRef firstLine(StringRef message) {
  return message.split('\n').first.trim();
}

OwningOpRef<ModuleOp>
mav::importTorchScript(StringRef buffer, StringRef fileName,
                       const TorchScriptImportOptions &options,
                       MLIRContext *context) {
  context->loadDialect<MavDialect>();
  OwningOpRef<ModuleOp> module =
      ModuleOp::create(FileLineColLoc::get(context, fileName, 0, 0));
  ImportContext ctx(*module, fileName, options);
  try {
    auto reader = std::make_shared<BoundedMemoryReader>(buffer);
    torch::jit::Module root;
    try {
      root = torch::jit::load(reader, at::kCPU);
    } catch (const c10::Error &error) {
      ctx.emitError() << "not a readable TorchScript archive: "
                      << firstLine(error.what_without_backtrace());
      return nullptr;
    }
    if (failed(importWeights(ctx, root)) || failed(importForward(ctx, root)))
      return nullptr;
  } catch (const c10::Error &error) {
    ctx.emitError() << "import failed: "
                    << firstLine(error.what_without_backtrace());
    return nullptr;
  } catch (const std::exception &error) {
    ctx.emitError() << "import failed: " << firstLine(error.what());
    return nullptr;
  }
  if (failed(verify(*module)))
    return nullptr;
  return module;
}
