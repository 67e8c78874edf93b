//===- DynamicDims.cpp - Dynamic dimensions from two shape runs -----------===//

#include "DynamicDims.h"

#include "mav/IR/MavAttrs.h"
#include "mav/IR/MavTypes.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mav;

/// `first` with -1 where `second` differs; null when either is null or the
/// ranks differ.
static DenseI64ArrayAttr mergeExtents(DenseI64ArrayAttr first,
                                      DenseI64ArrayAttr second) {
  if (!first || !second || first.size() != second.size())
    return first;
  SmallVector<int64_t> merged(first.asArrayRef());
  for (auto [extent, other] : llvm::zip(merged, second.asArrayRef()))
    if (extent != other)
      extent = -1;
  return DenseI64ArrayAttr::get(first.getContext(), merged);
}

Type mav::mergeDynamicDims(Type first, Type second) {
  if (!first || !second || first == second)
    return first;
  if (auto tensor = first.dyn_cast<RankedTensorType>()) {
    auto other = second.dyn_cast<RankedTensorType>();
    if (!other || other.getRank() != tensor.getRank())
      return first;
    SmallVector<int64_t> shape(tensor.getShape());
    for (auto [extent, otherExtent] : llvm::zip(shape, other.getShape()))
      if (extent != otherExtent)
        extent = ShapedType::kDynamic;
    return RankedTensorType::get(shape, tensor.getElementType());
  }
  if (auto tuple = first.dyn_cast<mav::TupleType>()) {
    auto other = second.dyn_cast<mav::TupleType>();
    if (!other ||
        other.getElementTypes().size() != tuple.getElementTypes().size())
      return first;
    SmallVector<Type> elements;
    for (auto [element, otherElement] :
         llvm::zip(tuple.getElementTypes(), other.getElementTypes()))
      elements.push_back(mergeDynamicDims(element, otherElement));
    return mav::TupleType::get(first.getContext(), elements);
  }
  return first;
}

Attribute mav::mergeDynamicDims(Attribute first, Attribute second) {
  auto meta = first.dyn_cast_or_null<ValueMetaAttr>();
  auto other = second.dyn_cast_or_null<ValueMetaAttr>();
  if (!meta || !other || meta == other)
    return first;
  return ValueMetaAttr::get(
      meta.getContext(), meta.getName(),
      mergeExtents(meta.getShape(), other.getShape()), meta.getTorchDtype(),
      meta.getType(), meta.getPrecision(),
      mergeExtents(meta.getStride(), other.getStride()),
      meta.getValue() == other.getValue() ? meta.getValue() : Attribute());
}

void mav::mergeDynamicDims(NodeShapes &first, const NodeShapes &second) {
  for (auto [arg, other] : llvm::zip(first.args, second.args))
    arg = mergeDynamicDims(arg, other);
  for (auto [result, other] : llvm::zip(first.results, second.results))
    result = mergeDynamicDims(result, other);
  for (auto [type, other] : llvm::zip(first.resultTypes, second.resultTypes))
    type = mergeDynamicDims(type, other);
}
