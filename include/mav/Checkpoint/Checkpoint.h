//===- Checkpoint.h - Save and load mav modules losslessly ------*- C++ -*-===//
//
// A checkpoint is one file holding a whole mav module: every graph, every
// metadata field, graph-level metadata, pass outputs and all weights bit
// exact. It is a zip archive in PyTorch's format, so that Python's
// torch.load reads its weights (a dict from state_dict name to tensor);
// beside them it holds the module as MLIR bytecode and a versioned manifest
// with a checksum of every record. libtorch-free header.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_CHECKPOINT_CHECKPOINT_H
#define MAV_CHECKPOINT_CHECKPOINT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace mav {

/// The checkpoint format version this mav writes and reads.
constexpr int64_t kCheckpointVersion = 1;

/// Writes `module` to `path` atomically: into a temporary file beside it,
/// renamed over `path` only when complete. On failure `path` is untouched
/// and `error` says why.
mlir::LogicalResult writeCheckpoint(mlir::ModuleOp module, llvm::StringRef path,
                                    std::string &error);

/// The contents of an IR file (text or bytecode), or, for a checkpoint, its
/// module as MLIR bytecode after checking the format, the version and every
/// record's checksum. Null with a one-line `error` naming the file and the
/// problem. Only checkpoints need libtorch.
std::unique_ptr<llvm::MemoryBuffer> openModuleFile(llvm::StringRef path,
                                                   std::string &error);

/// The module of the checkpoint `data` read from `path`, checked as
/// openModuleFile describes.
std::unique_ptr<llvm::MemoryBuffer>
readCheckpoint(llvm::StringRef path, llvm::StringRef data, std::string &error);

} // namespace mav

#endif // MAV_CHECKPOINT_CHECKPOINT_H
