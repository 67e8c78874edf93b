//===- WeightData.cpp - Typed access to weight values ---------------------===//

#include "mav/IR/WeightData.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>

using namespace mlir;

std::optional<std::vector<float>> mav::readF32Elements(ElementsAttr value) {
  auto type = value.getType().dyn_cast<ShapedType>();
  if (!type || !type.hasStaticShape() || !type.getElementType().isF32())
    return std::nullopt;
  size_t count = type.getNumElements();
  ArrayRef<char> bytes;
  if (auto resource = value.dyn_cast<DenseResourceElementsAttr>()) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    bytes = blob->getData();
  } else if (auto dense = value.dyn_cast<DenseElementsAttr>()) {
    if (dense.isSplat())
      return std::vector<float>(count, dense.getSplatValue<float>());
    bytes = dense.getRawData();
  } else {
    return std::nullopt;
  }
  if (bytes.size() != count * sizeof(float))
    return std::nullopt;
  std::vector<float> values(count);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

std::string mav::getResourceKey(StringRef name) {
  std::string key;
  key.reserve(name.size() + 1);
  if (name.empty() || !(llvm::isAlpha(name.front()) || name.front() == '_'))
    key.push_back('_');
  for (char c : name)
    key.push_back(llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' ? c
                                                                       : '_');
  return key;
}

ElementsAttr mav::makeF32Resource(RankedTensorType type, ArrayRef<float> values,
                                  StringRef name) {
  assert(type.getElementType().isF32() &&
         type.getNumElements() == static_cast<int64_t>(values.size()) &&
         "values must fill an f32 tensor type");
  ArrayRef<char> bytes(reinterpret_cast<const char *>(values.data()),
                       values.size() * sizeof(float));
  AsmResourceBlob blob =
      HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignof(float));
  DenseResourceElementsHandle handle =
      DenseResourceElementsHandle::getManagerInterface(type.getContext())
          .insert(getResourceKey(name), std::move(blob));
  return DenseResourceElementsAttr::get(type, handle);
}

mav::WeightOp mav::resolveTiedWeight(WeightOp weight,
                                SymbolTableCollection &symbols) {
  if (!weight || !weight.getTiedToAttr())
    return weight;
  auto target =
      symbols.lookupNearestSymbolFrom<WeightOp>(weight, weight.getTiedToAttr());
  return target ? target : weight;
}
