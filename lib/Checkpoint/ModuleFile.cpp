//===- ModuleFile.cpp - Open an IR file or a checkpoint -------------------===//
//
// libtorch-free: only a checkpoint's contents need libtorch to read.
//
//===----------------------------------------------------------------------===//

#include "mav/Checkpoint/Checkpoint.h"

using namespace mlir;
using namespace mav;

std::unique_ptr<llvm::MemoryBuffer> mav::openModuleFile(StringRef path,
                                                        std::string &error) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!file) {
    error =
        (path + ": cannot open input file: " + file.getError().message()).str();
    return nullptr;
  }
  // Checkpoints are zip archives; anything else is IR, text or bytecode.
  if (!(*file)->getBuffer().startswith("PK"))
    return std::move(*file);
  return readCheckpoint(path, (*file)->getBuffer(), error);
}
