//===- ModuleFile.cpp - Open an IR file or a checkpoint -------------------===//

#include "mav/Checkpoint/Checkpoint.h"

using namespace mlir;
using namespace mav;

llvm::Expected<ModuleFile> mav::openModuleFile(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!file)
    return llvm::createStringError(
        file.getError(),
        path + ": cannot open input file: " + file.getError().message());
  // Checkpoints are zip archives; anything else is IR, text or bytecode.
  if (!(*file)->getBuffer().starts_with("PK"))
    return ModuleFile{std::move(*file), nullptr};
  return readCheckpoint(path, std::move(*file));
}
