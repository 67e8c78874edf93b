//===- WeightsFile.cpp - Weights beside the text IR -----------------------===//

#include "mav/Checkpoint/WeightsFile.h"
#include "mav/Checkpoint/Checkpoint.h"
#include "mav/IR/MavOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <mutex>

using namespace mlir;
using namespace mav;

namespace {
/// A weights file read in this process: where it is, and its mapping, which
/// the blobs read in place.
struct Attached {
  std::string absolutePath;
  std::shared_ptr<const CheckpointWeights> weights;
  /// Read as a checkpoint, not named by a text file.
  bool isCheckpoint = false;
};

/// By manifest checksum: the files modules were read with, so that writing
/// one back can tell whether its weights still read the file unchanged.
struct AttachedFiles {
  std::mutex mutex;
  llvm::StringMap<Attached> byChecksum;
};
} // namespace

static AttachedFiles &getAttachedFiles() {
  static AttachedFiles files;
  return files;
}

static std::string getAbsolute(StringRef path) {
  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  return std::string(absolute);
}

/// The directory of the file at `path` ("-" and bare names: the current one).
static std::string getDirectory(StringRef path) {
  if (path == "-")
    return getAbsolute(".");
  return getAbsolute(llvm::sys::path::parent_path(getAbsolute(path)));
}

/// `target` relative to directory `from`, both absolute.
static std::string getRelative(StringRef target, StringRef from) {
  SmallVector<StringRef> targetParts, fromParts;
  for (auto part = llvm::sys::path::begin(target),
            end = llvm::sys::path::end(target);
       part != end; ++part)
    targetParts.push_back(*part);
  for (auto part = llvm::sys::path::begin(from),
            end = llvm::sys::path::end(from);
       part != end; ++part)
    fromParts.push_back(*part);
  size_t common = 0;
  while (common < targetParts.size() && common < fromParts.size() &&
         targetParts[common] == fromParts[common])
    ++common;
  llvm::SmallString<256> relative;
  for (size_t i = common; i < fromParts.size(); ++i)
    llvm::sys::path::append(relative, "..");
  for (size_t i = common; i < targetParts.size(); ++i)
    llvm::sys::path::append(relative, targetParts[i]);
  return std::string(relative);
}

/// Remembers that `weights`, at `path`, is the file `module`'s weights read,
/// and names it in the module.
static void
rememberWeightsFile(ModuleOp module, StringRef path,
                    std::shared_ptr<const CheckpointWeights> weights) {
  MLIRContext *context = module.getContext();
  std::string absolute = getAbsolute(path);
  std::string checksum = weights->manifestChecksum;
  module->setAttr(
      MavDialect::getWeightsFileAttrName(),
      ArrayAttr::get(context, {StringAttr::get(context, absolute),
                               StringAttr::get(context, checksum)}));
  AttachedFiles &files = getAttachedFiles();
  std::lock_guard<std::mutex> lock(files.mutex);
  files.byChecksum[checksum] = {absolute, std::move(weights),
                                /*isCheckpoint=*/true};
}

void mav::nameCheckpointAsWeightsFile(
    ModuleOp module, std::shared_ptr<const CheckpointWeights> weights) {
  std::string path = weights->path;
  rememberWeightsFile(module, path, std::move(weights));
}

LogicalResult mav::attachWeightsFile(ModuleOp module, StringRef irPath) {
  auto named =
      module->getAttrOfType<ArrayAttr>(MavDialect::getWeightsFileAttrName());
  if (!named)
    return success();
  StringRef file = named[0].cast<StringAttr>().getValue();
  StringRef checksum = named[1].cast<StringAttr>().getValue();
  llvm::SmallString<256> path(file);
  if (!llvm::sys::path::is_absolute(path)) {
    path = getDirectory(irPath);
    llvm::sys::path::append(path, file);
  }
  // Reported at the weights file: the module's own location is the whole
  // text file.
  auto fail = [&]() {
    return mlir::emitError(
        FileLineColLoc::get(module.getContext(), path, 0, 0));
  };
  llvm::Expected<ModuleFile> opened = openModuleFile(path);
  if (!opened)
    return fail() << "cannot read the weights file of '" << irPath
                  << "': " << llvm::toString(opened.takeError());
  if (!opened->weights)
    return fail() << "the weights file of '" << irPath
                  << "' is not a mav checkpoint";
  if (opened->weights->manifestChecksum != checksum)
    return fail() << "is not the weights file '" << irPath
                  << "' was written with: its checksum is "
                  << opened->weights->manifestChecksum << ", the IR names "
                  << checksum;
  if (failed(attachCheckpointWeights(module, *opened->weights)))
    return failure();
  AttachedFiles &files = getAttachedFiles();
  std::lock_guard<std::mutex> lock(files.mutex);
  files.byChecksum[checksum] = {getAbsolute(path), opened->weights};
  return success();
}

/// Whether every weight with data reads it, unchanged, from `file`: its blob
/// points into the file's mapping.
static bool readsOnly(ModuleOp module, const CheckpointWeights &file) {
  StringRef mapped = file.file->getBuffer();
  for (WeightOp weight : module.getOps<WeightOp>()) {
    auto resource = weight.getValue().dyn_cast<DenseResourceElementsAttr>();
    // Printed inline, or a second name of a weight checked on its own.
    if (!resource || weight.getTiedTo())
      continue;
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return false;
    ArrayRef<char> data = blob->getData();
    auto record = file.byWeight.find(weight.getSymName());
    if (record == file.byWeight.end() ||
        record->second.bytes.data() != data.data() ||
        record->second.bytes.size() != data.size() ||
        data.data() < mapped.begin() || data.data() > mapped.end())
      return false;
  }
  return true;
}

/// Whether a weights file may be written beside `outputPath`: a file, not
/// standard output or a device such as /dev/null.
static bool canWriteBeside(StringRef outputPath) {
  if (outputPath == "-")
    return false;
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(outputPath, status))
    return true; // Not there yet.
  return llvm::sys::fs::is_regular_file(status);
}

/// Names the weights file at `absolutePath` in `module`, relative to the
/// directory of `outputPath`, and prints the weights by reference.
static void nameWeightsFile(ModuleOp module, StringRef absolutePath,
                            StringRef checksum, StringRef outputPath) {
  MLIRContext *context = module.getContext();
  std::string relative = getRelative(absolutePath, getDirectory(outputPath));
  module->setAttr(
      MavDialect::getWeightsFileAttrName(),
      ArrayAttr::get(context, {StringAttr::get(context, relative),
                               StringAttr::get(context, checksum)}));
  context->getOrLoadDialect<MavDialect>()->setWeightsByReference(true);
}

/// Names the weights file `module` was read with, when every weight still
/// reads it unchanged.
static bool reuseWeightsFile(ModuleOp module, StringRef outputPath) {
  auto named =
      module->getAttrOfType<ArrayAttr>(MavDialect::getWeightsFileAttrName());
  if (!named)
    return false;
  StringRef checksum = named[1].cast<StringAttr>().getValue();
  AttachedFiles &files = getAttachedFiles();
  std::lock_guard<std::mutex> lock(files.mutex);
  auto found = files.byChecksum.find(checksum);
  if (found == files.byChecksum.end() ||
      !readsOnly(module, *found->second.weights))
    return false;
  nameWeightsFile(module, found->second.absolutePath, checksum, outputPath);
  return true;
}

/// Writes `<outputPath>.weights` and names it.
static LogicalResult writeWeightsFile(ModuleOp module, StringRef outputPath) {
  if (!canWriteBeside(outputPath))
    return module.emitError()
           << "weights that changed need a weights file, written beside the "
              "output: write the output to a file (-o), or keep the weights "
              "in it (--mav-weights=inline)";
  std::string weightsPath = getAbsolute(outputPath) + ".weights";
  if (failed(writeCheckpoint(module, weightsPath)))
    return failure();
  llvm::Expected<std::string> checksum = readCheckpointChecksum(weightsPath);
  if (!checksum)
    return module.emitError()
           << "cannot read back the weights file just written: "
           << llvm::toString(checksum.takeError());
  nameWeightsFile(module, weightsPath, *checksum, outputPath);
  return success();
}

LogicalResult mav::externalizeWeights(ModuleOp module, StringRef outputPath) {
  if (reuseWeightsFile(module, outputPath))
    return success();
  return writeWeightsFile(module, outputPath);
}

/// The bytes of weight data `module` holds, each blob counted once.
static uint64_t getWeightBytes(ModuleOp module) {
  uint64_t total = 0;
  for (WeightOp weight : module.getOps<WeightOp>()) {
    auto resource = weight.getValue().dyn_cast<DenseResourceElementsAttr>();
    if (!resource || weight.getTiedTo())
      continue;
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      total += blob->getData().size();
  }
  return total;
}

/// Whether `module` names a weights file it was read with as text (not the
/// checkpoint it was read from).
static bool namesTextWeightsFile(ModuleOp module) {
  auto named =
      module->getAttrOfType<ArrayAttr>(MavDialect::getWeightsFileAttrName());
  if (!named)
    return false;
  AttachedFiles &files = getAttachedFiles();
  std::lock_guard<std::mutex> lock(files.mutex);
  auto found = files.byChecksum.find(named[1].cast<StringAttr>().getValue());
  return found == files.byChecksum.end() || !found->second.isCheckpoint;
}

LogicalResult mav::placeWeights(ModuleOp module, StringRef outputPath,
                                WeightsPlacement placement, bool bytecode) {
  // A checkpoint counts as a weights file only where auto would put the
  // weights beside anyway: a small model printed from one stays inline.
  bool named = namesTextWeightsFile(module);
  bool elided =
      module.getContext()->getOrLoadDialect<MavDialect>()->getElideWeights();
  bool beside = !bytecode && !elided &&
                (placement == WeightsPlacement::File ||
                 (placement == WeightsPlacement::Auto &&
                  (named || getWeightBytes(module) > kMaxInlineWeightBytes)));
  if (beside && reuseWeightsFile(module, outputPath))
    return success();
  // Auto keeps the weights inline where no file can be written beside the
  // output.
  if (beside &&
      (placement == WeightsPlacement::File || canWriteBeside(outputPath)))
    return writeWeightsFile(module, outputPath);
  module->removeAttr(MavDialect::getWeightsFileAttrName());
  return success();
}

namespace {
struct AttachWeightsFile
    : PassWrapper<AttachWeightsFile, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AttachWeightsFile)
  explicit AttachWeightsFile(std::string irPath) : irPath(std::move(irPath)) {}
  StringRef getArgument() const override { return "mav-attach-weights-file"; }
  StringRef getDescription() const override {
    return "Point the weights at the weights file the IR names";
  }
  void runOnOperation() override {
    if (failed(attachWeightsFile(getOperation(), irPath)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
  std::string irPath;
};

struct PlaceWeights : PassWrapper<PlaceWeights, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PlaceWeights)
  PlaceWeights(std::string outputPath, WeightsPlacement placement,
               bool bytecode)
      : outputPath(std::move(outputPath)), placement(placement),
        bytecode(bytecode) {}
  StringRef getArgument() const override { return "mav-place-weights"; }
  StringRef getDescription() const override {
    return "Keep the weights in the printed IR or in a file beside it";
  }
  void runOnOperation() override {
    if (failed(placeWeights(getOperation(), outputPath, placement, bytecode)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
  std::string outputPath;
  WeightsPlacement placement;
  bool bytecode;
};
} // namespace

std::unique_ptr<Pass> mav::createAttachWeightsFilePass(std::string irPath) {
  return std::make_unique<AttachWeightsFile>(std::move(irPath));
}

std::unique_ptr<Pass> mav::createPlaceWeightsPass(std::string outputPath,
                                                  WeightsPlacement placement,
                                                  bool bytecode) {
  return std::make_unique<PlaceWeights>(std::move(outputPath), placement,
                                        bytecode);
}
