//===- CheckpointWeights.cpp - Weight blobs read in place -----------------===//

#include "mav/Checkpoint/Checkpoint.h"
#include "mav/Checkpoint/WeightsFile.h"
#include "mav/IR/MavOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mav;

/// The blob of `data`: in place when it is aligned as the weight was, else a
/// copy. The checkpoint stays mapped while the blob lives.
static AsmResourceBlob
makeBlob(const CheckpointWeights::Data &data,
         const std::shared_ptr<llvm::MemoryBuffer> &file) {
  ArrayRef<char> bytes(data.bytes.data(), data.bytes.size());
  if (!llvm::isAddrAligned(llvm::Align(data.alignment), bytes.data()))
    return HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, data.alignment);
  return AsmResourceBlob(
      bytes, data.alignment,
      [keepAlive = file](void *, size_t, size_t) mutable { keepAlive.reset(); },
      /*dataIsMutable=*/false);
}

/// The weight's size in bytes, when its element type has a fixed width and
/// the size fits 64 bits (a graph can claim any shape).
static std::optional<uint64_t> getByteSize(ShapedType type) {
  Type element = type.getElementType();
  int64_t size = 1;
  if (auto complex = element.dyn_cast<ComplexType>()) {
    element = complex.getElementType();
    size = 2;
  }
  if (!element.isIntOrFloat() || !type.hasStaticShape())
    return std::nullopt;
  int64_t elementSize = (element.getIntOrFloatBitWidth() + 7) / 8;
  for (int64_t factor : llvm::concat<const int64_t>(
           type.getShape(), llvm::ArrayRef<int64_t>(elementSize)))
    if (llvm::MulOverflow(size, factor, size))
      return std::nullopt;
  return size;
}

LogicalResult mav::attachCheckpointWeights(ModuleOp module,
                                           const CheckpointWeights &weights) {
  llvm::DenseSet<const void *> attached;
  for (WeightOp weight : module.getOps<WeightOp>()) {
    auto value = weight.getValue().dyn_cast<DenseResourceElementsAttr>();
    if (!value)
      continue;
    DenseResourceElementsHandle handle = value.getRawHandle();
    if (!attached.insert(handle.getResource()).second)
      continue; // A tied weight: the same blob.
    auto data = weights.byWeight.find(weight.getSymName());
    if (data == weights.byWeight.end()) {
      if (getByteSize(value.getType()) == 0u)
        continue;
      return weight.emitError()
             << weights.path << ": weight '" << weight.getSymName()
             << "' has no data in the checkpoint";
    }
    std::string dtype;
    llvm::raw_string_ostream(dtype) << value.getType().getElementType();
    if (dtype != data->second.dtype)
      return weight.emitError()
             << weights.path << ": checkpoint is corrupted: weight '"
             << weight.getSymName() << "' has dtype '" << data->second.dtype
             << "' in the manifest, its type " << value.getType() << " has '"
             << dtype << "'";
    std::optional<uint64_t> size = getByteSize(value.getType());
    if (!size)
      return weight.emitError()
             << weights.path << ": weight '" << weight.getSymName()
             << "' has type " << value.getType()
             << ", of no fixed size in bytes";
    if (*size != data->second.bytes.size())
      return weight.emitError()
             << weights.path << ": checkpoint is corrupted: weight '"
             << weight.getSymName() << "' has " << data->second.bytes.size()
             << " bytes of data, its type " << value.getType() << " needs "
             << *size;
    handle.getResource()->setBlob(makeBlob(data->second, weights.file));
  }
  return success();
}

namespace {
struct AttachCheckpointWeights
    : PassWrapper<AttachCheckpointWeights, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AttachCheckpointWeights)

  explicit AttachCheckpointWeights(
      std::shared_ptr<const CheckpointWeights> weights)
      : weights(std::move(weights)) {}

  StringRef getName() const override { return "AttachCheckpointWeights"; }
  StringRef getArgument() const override {
    return "mav-attach-checkpoint-weights";
  }
  StringRef getDescription() const override {
    return "Point the weights of a module read from a checkpoint at the "
           "checkpoint's tensor records";
  }

  void runOnOperation() override {
    if (failed(attachCheckpointWeights(getOperation(), *weights)))
      return signalPassFailure();
    nameCheckpointAsWeightsFile(getOperation(), weights);
    markAllAnalysesPreserved();
  }

  std::shared_ptr<const CheckpointWeights> weights;
};
} // namespace

std::unique_ptr<Pass> mav::createAttachCheckpointWeightsPass(
    std::shared_ptr<const CheckpointWeights> weights) {
  return std::make_unique<AttachCheckpointWeights>(std::move(weights));
}
