//===- WeightData.cpp - Typed access to weight values ---------------------===//

#include "mav/IR/WeightData.h"

#include "llvm/ADT/SetVector.h"

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

DenseMap<Operation *, unsigned> mav::getWeightRanks(ModuleOp module) {
  DenseMap<Operation *, unsigned> rank;
  for (WeightOp weight : module.getOps<WeightOp>())
    rank[weight] = rank.size();
  return rank;
}

SmallVector<mav::WeightOp>
mav::getNodeParameters(Operation *node, SymbolTableCollection &symbols,
                       const DenseMap<Operation *, unsigned> &rank) {
  llvm::SetVector<WeightOp> found;
  auto addRead = [&](GetAttrOp read) {
    auto weight =
        symbols.lookupNearestSymbolFrom<WeightOp>(read, read.getTargetAttr());
    weight = resolveTiedWeight(weight, symbols);
    if (weight && weight.getKind() == WeightKind::parameter &&
        !weight.getFrozen())
      found.insert(weight);
  };
  for (Value operand : node->getOperands())
    if (auto read = operand.getDefiningOp<GetAttrOp>())
      addRead(read);
  if (auto call = dyn_cast<CallModuleOp>(node))
    if (call.getBodyAttr())
      if (auto body = symbols.lookupNearestSymbolFrom<GraphOp>(
              call, call.getBodyAttr()))
        body.walk(addRead);
  SmallVector<WeightOp> ordered(found.begin(), found.end());
  llvm::sort(ordered, [&](WeightOp a, WeightOp b) {
    return rank.lookup(a) < rank.lookup(b);
  });
  return ordered;
}
