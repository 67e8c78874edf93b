//===- CheckpointFuzzer.cpp - libFuzzer target for the checkpoint reader --===//
//
// Reads the input as a checkpoint from memory, parses its graph and attaches
// its weights, as mav-opt, mav-translate and mav-run do with a file. Any
// refusal must be one line naming the file; anything else is a crash for
// the sanitizers to report.
//
//===----------------------------------------------------------------------===//

#include "mav/Checkpoint/Checkpoint.h"
#include "mav/IR/BytecodeBounds.h"
#include "mav/IR/MavDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir;

static void failHarness(const std::string &error) {
  std::fprintf(stderr, "not a one-line error naming the file: '%s'\n",
               error.c_str());
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  std::shared_ptr<llvm::MemoryBuffer> file = llvm::MemoryBuffer::getMemBuffer(
      bytes, "fuzz.ckpt", /*RequiresNullTerminator=*/false);
  llvm::Expected<mav::ModuleFile> input =
      mav::readCheckpoint("fuzz.ckpt", std::move(file));
  if (!input) {
    std::string error = llvm::toString(input.takeError());
    if (!llvm::StringRef(error).starts_with("fuzz.ckpt: ") ||
        error.find('\n') != std::string::npos)
      failHarness(error);
    return 0;
  }

  // A fresh context each time: dense resources are named per context.
  MLIRContext context(MLIRContext::Threading::DISABLED);
  context.loadDialect<mav::MavDialect>();
  ScopedDiagnosticHandler quiet(&context, [](Diagnostic &) {});
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input->ir), llvm::SMLoc());
  // As the tools do before MLIR reads the graph's bytecode.
  if (failed(mav::checkBytecodeBounds(sourceMgr, sourceMgr.getMainFileID())))
    return 0;
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (module)
    (void)mav::attachCheckpointWeights(*module, *input->weights);
  return 0;
}
