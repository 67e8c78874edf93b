//===- WeightsFile.h - Weights beside the text IR ---------------*- C++ -*-===//
//
// Text IR that carried its weights as hex would be hundreds of megabytes
// (resnet50: 205 MB). Instead, the weights can live beside it in a weights
// file, which is a checkpoint (Checkpoint.h): a zip in PyTorch's format that
// torch.load reads as a state dict, with a checksum of every record. The
// text names it in the module attribute `mav.weights_file = [path,
// checksum]`, the path relative to the text's directory and the checksum
// that of the file's manifest, and prints each weight as `dense_resource<key>`
// without data. Reading maps the file and points the weights at its records,
// in place, as reading a checkpoint does.
//
// Writing a text file with its weights beside it reuses the weights file the
// module was read with (or the checkpoint it was read from) when every
// weight still reads it unchanged, and otherwise writes a new one,
// `<output>.weights`, atomically.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_CHECKPOINT_WEIGHTSFILE_H
#define MAV_CHECKPOINT_WEIGHTSFILE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace mav {

/// When `module` names a weights file, opens it (its path relative to the
/// directory of `irPath`, the file the module was read from), checks that
/// it is the file named (its manifest checksum) and intact (every record's
/// checksum), and points the module's weights at its records. Succeeds
/// without doing anything when the module names none. Errors name the file.
mlir::LogicalResult attachWeightsFile(mlir::ModuleOp module,
                                      llvm::StringRef irPath);

struct CheckpointWeights;

/// Names the checkpoint `module` was read from as its weights file, once
/// attachCheckpointWeights has pointed its weights at it: a text file
/// written from it with its weights beside (placeWeights) then names the
/// checkpoint instead of copying its weights into a new weights file (a
/// checkpoint is a weights file), as long as every weight still reads it
/// unchanged. Under `auto`, the weights of a small model read from a
/// checkpoint are still printed inline.
void nameCheckpointAsWeightsFile(
    mlir::ModuleOp module, std::shared_ptr<const CheckpointWeights> weights);

/// Prepares `module` to be printed to `outputPath` with its weights beside
/// it: names the weights file it was read with when every weight still reads
/// it unchanged, else writes `<outputPath>.weights` (loading the libtorch
/// runtime) and names that; then makes the printer write the weights by
/// reference.
mlir::LogicalResult externalizeWeights(mlir::ModuleOp module,
                                       llvm::StringRef outputPath);

/// The most weight data `auto` prints in the text: 1 MiB, 2 MiB of hex.
constexpr uint64_t kMaxInlineWeightBytes = 1 << 20;

/// Where printed IR keeps its weights (the tools' --mav-weights).
enum class WeightsPlacement {
  /// Beside the text when the module was read with a weights file or holds
  /// more than kMaxInlineWeightBytes, else in it; always in it for standard
  /// output and bytecode.
  Auto,
  /// In the text (hex blobs), naming no weights file.
  Inline,
  /// Beside the text, for a text file.
  File,
};

/// Prepares `module` for printing to `outputPath` (text unless `bytecode`)
/// as `placement` says: externalizeWeights, or dropping the weights file's
/// name so the data is printed inline. Weights printed elided
/// (`--mav-elide-weights`) name no file either.
mlir::LogicalResult placeWeights(mlir::ModuleOp module,
                                 llvm::StringRef outputPath,
                                 WeightsPlacement placement, bool bytecode);

/// attachWeightsFile and placeWeights as passes, for mav-opt's pipeline: the
/// first runs first, the second last.
std::unique_ptr<mlir::Pass> createAttachWeightsFilePass(std::string irPath);
std::unique_ptr<mlir::Pass> createPlaceWeightsPass(std::string outputPath,
                                                   WeightsPlacement placement,
                                                   bool bytecode);

} // namespace mav

#endif // MAV_CHECKPOINT_WEIGHTSFILE_H
