//===- WeightImporter.cpp - Parameters and buffers as mav.weight ----------===//

#include "ImporterInternals.h"

#include "mav/IR/WeightData.h"
#include "mav/Runtime/TorchTypes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mav;
using namespace mav::detail;

/// The tensor's bytes as a dense_resource blob keyed after `name`.
static FailureOr<ElementsAttr>
convertTensor(ImportContext &ctx, const at::Tensor &tensor, StringRef name) {
  Type elementType = convertScalarType(tensor.scalar_type(), ctx.context);
  if (!elementType) {
    ctx.emitError() << "weight '" << name << "' has unsupported dtype "
                    << c10::toString(tensor.scalar_type());
    return failure();
  }
  at::Tensor dense = tensor.detach().to(at::kCPU).contiguous();
  auto type = RankedTensorType::get(
      llvm::ArrayRef<int64_t>(dense.sizes().data(), dense.sizes().size()),
      elementType);
  ArrayRef<char> bytes(static_cast<const char *>(dense.data_ptr()),
                       dense.nbytes());
  size_t alignment = std::max<size_t>(dense.element_size(), 1);
  // The blob reads the loaded tensor's storage in place and keeps it alive:
  // no copy of the weights. Blobs are never written in place (setWeightData
  // replaces them), so the storage may be shared.
  AsmResourceBlob blob;
  if (llvm::isAddrAligned(llvm::Align(alignment), bytes.data()))
    blob = AsmResourceBlob(
        bytes, alignment,
        [tensor = std::move(dense)](void *, size_t, size_t) {},
        /*dataIsMutable=*/false);
  else
    blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignment);
  DenseResourceElementsHandle handle =
      DenseResourceElementsHandle::getManagerInterface(ctx.context)
          .insert(getResourceKey(name), std::move(blob));
  return ElementsAttr(DenseResourceElementsAttr::get(type, handle));
}

FailureOr<WeightOp> mav::detail::getOrCreateWeight(ImportContext &ctx,
                                                   const at::Tensor &tensor,
                                                   StringRef name,
                                                   WeightKind kind) {
  if (WeightOp existing = ctx.weightsByName.lookup(name))
    return existing;
  const c10::TensorImpl *impl = tensor.unsafeGetTensorImpl();
  WeightOp tiedTo = ctx.weightsByTensor.lookup(impl);
  FailureOr<ElementsAttr> value =
      tiedTo ? FailureOr<ElementsAttr>(tiedTo.getValue())
             : convertTensor(ctx, tensor, name);
  if (failed(value))
    return failure();
  // Weights come first in the module, in import order: after the last one
  // (found once, not for each weight, which would be quadratic).
  OpBuilder builder(ctx.context);
  if (ctx.lastWeight) {
    builder.setInsertionPointAfter(ctx.lastWeight);
  } else {
    Block *body = ctx.module.getBody();
    auto insertBefore =
        llvm::find_if(*body, [](Operation &op) { return !isa<WeightOp>(op); });
    builder.setInsertionPoint(body, insertBefore);
  }
  bool frozen = kind == WeightKind::parameter && !tensor.requires_grad();
  auto weight = builder.create<WeightOp>(
      FileLineColLoc::get(ctx.context, ctx.fileName, 0, 0),
      builder.getStringAttr(name), WeightKindAttr::get(ctx.context, kind),
      *value, frozen ? builder.getUnitAttr() : UnitAttr(),
      tiedTo ? FlatSymbolRefAttr::get(tiedTo.getSymNameAttr())
             : FlatSymbolRefAttr());
  if (!tiedTo)
    ctx.weightsByTensor[impl] = weight;
  ctx.weightsByName[name] = weight;
  ctx.lastWeight = weight;
  return weight;
}

LogicalResult mav::detail::importWeights(ImportContext &ctx,
                                         const torch::jit::Module &root) {
  // Walk every module's parameter and buffer slots, in definition order (the
  // state_dict's order), so that a tensor reached under two names (tied
  // weights) keeps both.
  for (const auto &named : root.named_modules()) {
    const c10::ClassTypePtr &type = named.value.type();
    for (size_t slot = 0; slot < type->numAttributes(); ++slot) {
      bool isParameter = type->is_parameter(slot);
      if (!isParameter && !type->is_buffer(slot))
        continue;
      c10::IValue value = named.value._ivalue()->getSlot(slot);
      if (!value.isTensor() || !value.toTensor().defined())
        continue;
      std::string name = named.name.empty()
                             ? type->getAttributeName(slot)
                             : named.name + "." + type->getAttributeName(slot);
      if (failed(getOrCreateWeight(ctx, value.toTensor(), name,
                                   isParameter ? WeightKind::parameter
                                               : WeightKind::buffer)))
        return failure();
    }
  }
  return success();
}
