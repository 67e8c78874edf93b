//===- Checkpoint.h - Save and load mav modules losslessly ------*- C++ -*-===//
//
// A checkpoint is one file holding a whole mav module: every graph, every
// metadata field, graph-level metadata, pass outputs and all weights bit
// exact. It is a zip archive in PyTorch's format, so that Python's
// torch.load reads its weights (a dict from state_dict name to tensor);
// beside them it holds the module as MLIR bytecode, a manifest with a
// checksum of every record, and a header that authenticates the manifest and
// the bytecode (CheckpointFormat.h). Weight data is stored once, as torch's
// tensor records; the bytecode's blobs are empty and are pointed at those
// records, in place, when the checkpoint is read. Reading needs no libtorch;
// writing does. libtorch-free header.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_CHECKPOINT_CHECKPOINT_H
#define MAV_CHECKPOINT_CHECKPOINT_H

#include "mav/Checkpoint/CheckpointFormat.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>
#include <string>

namespace mav {

/// Writes `module` to `path` atomically: into a temporary file beside it,
/// every write checked, flushed to disk, and renamed over `path` only when
/// complete. On failure `path` is untouched, no temporary file is left, and
/// an error at the module says why. Runs on libtorch, through the
/// checkpoint's service (TorchService.h).
mlir::LogicalResult writeCheckpoint(mlir::ModuleOp module,
                                    llvm::StringRef path);

/// Registers the checkpoint's libtorch service; defined in MavCheckpoint.
void registerCheckpointTorchServices();

/// Where a checkpoint's weights are: checked records of the mapped file.
struct CheckpointWeights {
  struct Data {
    llvm::StringRef bytes;
    uint64_t alignment;
    /// The element type the writer saw, as MLIR prints it (`f32`).
    std::string dtype;
  };
  /// The file the records are in, kept mapped while a blob points into it.
  std::shared_ptr<llvm::MemoryBuffer> file;
  /// The checkpoint's path, for diagnostics.
  std::string path;
  /// The checksum of its manifest, which names every record's checksum: the
  /// identity of its contents.
  std::string manifestChecksum;
  /// By weight symbol name.
  llvm::StringMap<Data> byWeight;
};

/// An IR file (text or bytecode), or a checkpoint: its module as bytecode and
/// the weight data its blobs are read from.
struct ModuleFile {
  std::unique_ptr<llvm::MemoryBuffer> ir;
  /// Null unless the file is a checkpoint.
  std::shared_ptr<const CheckpointWeights> weights;
};

/// Opens `path` ("-" for standard input). For a checkpoint, checks the
/// format, the version, the header's checksums of the manifest and the graph,
/// every field of the manifest, and every record's checksum, before any of
/// it is used. Fails with a one-line error naming the file and the problem.
llvm::Expected<ModuleFile> openModuleFile(llvm::StringRef path);

/// The checkpoint `data`, read from `path` (a name for diagnostics only: a
/// buffer in memory reads the same), checked as openModuleFile says.
llvm::Expected<ModuleFile>
readCheckpoint(llvm::StringRef path, std::shared_ptr<llvm::MemoryBuffer> data);

/// The manifest checksum of the checkpoint at `path`, which identifies its
/// contents: read from its header, with the manifest checked against it but
/// not the weight records (openModuleFile checks those).
llvm::Expected<std::string> readCheckpointChecksum(llvm::StringRef path);

/// Points the empty blob of every weight the checkpoint holds data for at
/// that data, in place (no copy). Fails, naming the weight, when a weight's
/// data is missing, or its dtype or size does not fit its type.
mlir::LogicalResult attachCheckpointWeights(mlir::ModuleOp module,
                                            const CheckpointWeights &weights);

/// attachCheckpointWeights as the first pass of a pipeline, for drivers that
/// parse the module themselves (mav-opt).
std::unique_ptr<mlir::Pass> createAttachCheckpointWeightsPass(
    std::shared_ptr<const CheckpointWeights> weights);

} // namespace mav

#endif // MAV_CHECKPOINT_CHECKPOINT_H
