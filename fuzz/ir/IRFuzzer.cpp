//===- IRFuzzer.cpp - libFuzzer target for the IR reader and verifier -----===//
//
// Reads a buffer as mav-opt does (text or bytecode, with the mav dialect
// registered and mav's guards against MLIR 16's own parser limits), then
// verifies what parsed.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/BytecodeBounds.h"
#include "mav/IR/MavDialect.h"
#include "mav/IR/SourceBuffer.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static DialectRegistry *registry = [] {
    auto *result = new DialectRegistry;
    result->insert<mav::MavDialect>();
    return result;
  }();
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  context.loadDialect<mav::MavDialect>();
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });

  llvm::SourceMgr sourceMgr;
  sourceMgr.setDiagHandler([](const llvm::SMDiagnostic &, void *) {});
  sourceMgr.AddNewSourceBuffer(
      mav::makeParsable(llvm::MemoryBuffer::getMemBuffer(
          StringRef(reinterpret_cast<const char *>(data), size), "fuzz",
          /*RequiresNullTerminator=*/false)),
      llvm::SMLoc());
  if (failed(mav::checkResourceBlobs(sourceMgr, sourceMgr.getMainFileID())) ||
      failed(mav::checkBytecodeBounds(sourceMgr, sourceMgr.getMainFileID())))
    return 0;
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (module)
    (void)verify(*module);
  return 0;
}
