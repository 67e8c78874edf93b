//===- WeightData.cpp - Typed access to weight values ---------------------===//

#include "mav/IR/WeightData.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>

using namespace mlir;
using namespace mav;

std::optional<ArrayRef<char>> mav::getElementsData(ElementsAttr value,
                                                   bool &isSplat) {
  isSplat = false;
  if (auto resource = value.dyn_cast<DenseResourceElementsAttr>()) {
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
    return std::nullopt;
  }
  if (auto dense = value.dyn_cast<DenseElementsAttr>()) {
    isSplat = dense.isSplat();
    return dense.getRawData();
  }
  return std::nullopt;
}

std::optional<std::vector<float>> mav::readF32Elements(ElementsAttr value) {
  auto type = value.getType().dyn_cast<ShapedType>();
  bool isSplat;
  std::optional<ArrayRef<char>> bytes = getElementsData(value, isSplat);
  if (!type || !type.hasStaticShape() || !type.getElementType().isF32() ||
      !bytes)
    return std::nullopt;
  size_t count = type.getNumElements();
  if (isSplat && bytes->size() == sizeof(float)) {
    float splat;
    std::memcpy(&splat, bytes->data(), sizeof(float));
    return std::vector<float>(count, splat);
  }
  if (bytes->size() != count * sizeof(float))
    return std::nullopt;
  std::vector<float> values(count);
  std::memcpy(values.data(), bytes->data(), bytes->size());
  return values;
}

std::optional<double> mav::readScalarElement(ElementsAttr value) {
  auto type = value.getType().dyn_cast<ShapedType>();
  bool isSplat;
  std::optional<ArrayRef<char>> bytes = getElementsData(value, isSplat);
  if (!type || !type.hasStaticShape() || type.getNumElements() != 1 || !bytes)
    return std::nullopt;
  Type element = type.getElementType();
  if (element.isF32() && bytes->size() == sizeof(float)) {
    float scalar;
    std::memcpy(&scalar, bytes->data(), sizeof(float));
    return scalar;
  }
  if (element.isF64() && bytes->size() == sizeof(double)) {
    double scalar;
    std::memcpy(&scalar, bytes->data(), sizeof(double));
    return scalar;
  }
  return std::nullopt;
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

/// A `dense_resource` of `type` holding a copy of `bytes`, keyed after `name`.
static ElementsAttr makeResource(ShapedType type, ArrayRef<char> bytes,
                                 size_t alignment, StringRef name) {
  AsmResourceBlob blob =
      HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignment);
  DenseResourceElementsHandle handle =
      DenseResourceElementsHandle::getManagerInterface(type.getContext())
          .insert(mav::getResourceKey(name), std::move(blob));
  return DenseResourceElementsAttr::get(type, handle);
}

ElementsAttr mav::makeF32Resource(RankedTensorType type, ArrayRef<float> values,
                                  StringRef name) {
  assert(type.getElementType().isF32() &&
         type.getNumElements() == static_cast<int64_t>(values.size()) &&
         "values must fill an f32 tensor type");
  return makeResource(type, detail::asBytes(values), alignof(float), name);
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
    if (weight && weight.getKind() == WeightKind::parameter)
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

FailureOr<ArrayRef<char>>
mav::detail::getWeightBytes(WeightOp weight, bool (*isElementType)(Type),
                            size_t elementSize, StringRef cppType) {
  ShapedType type = weight.getWeightType();
  if (!isElementType(type.getElementType()))
    return weight.emitError()
           << "weight '" << weight.getSymName() << "' holds "
           << type.getElementType() << " elements, not " << cppType;
  bool isSplat;
  std::optional<ArrayRef<char>> data =
      getElementsData(weight.getValue(), isSplat);
  if (!data && weight.getValue().isa<DenseResourceElementsAttr>())
    return weight.emitError() << "weight '" << weight.getSymName()
                              << "' carries no data (its resource was elided)";
  if (!data)
    return weight.emitError() << "weight '" << weight.getSymName()
                              << "' holds an unsupported attribute";
  if (isSplat)
    return weight.emitError() << "weight '" << weight.getSymName()
                              << "' is a splat: read it with readWeightData";
  ArrayRef<char> bytes = *data;
  if (bytes.size() != type.getNumElements() * elementSize)
    return weight.emitError()
           << "weight '" << weight.getSymName() << "' holds " << bytes.size()
           << " bytes of data, not the " << type.getNumElements() * elementSize
           << " its type needs";
  if (reinterpret_cast<uintptr_t>(bytes.data()) % elementSize != 0)
    return weight.emitError()
           << "weight '" << weight.getSymName() << "' holds misaligned data";
  return bytes;
}

LogicalResult mav::detail::setWeightBytes(WeightOp weight, ShapedType type,
                                          ArrayRef<char> bytes,
                                          size_t alignment) {
  if (weight.getTiedToAttr())
    return weight.emitError()
           << "weight '" << weight.getSymName() << "' is tied to "
           << weight.getTiedToAttr() << ": write that weight instead";
  size_t elementSize =
      type.getNumElements() ? bytes.size() / type.getNumElements() : 0;
  if (!type.hasStaticShape() ||
      bytes.size() != type.getNumElements() * elementSize ||
      elementSize * 8 < type.getElementTypeBitWidth())
    return weight.emitError()
           << "weight '" << weight.getSymName() << "': " << bytes.size()
           << " bytes do not fill " << type;
  // A blob of the same type is replaced in place, under its key: the
  // weights tied to this one hold the same attribute (the verifier requires
  // it), so they see it too. Anything else becomes a new attribute, which
  // they are given.
  auto resource = weight.getValue().dyn_cast<DenseResourceElementsAttr>();
  if (resource && resource.getType() == type &&
      resource.getRawHandle().getResource()) {
    resource.getRawHandle().getResource()->setBlob(
        HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignment));
    return success();
  }
  ElementsAttr value =
      makeResource(type, bytes, alignment, weight.getSymName());
  weight.setValueAttr(value);
  auto module = weight->getParentOfType<ModuleOp>();
  StringAttr name = weight.getSymNameAttr();
  for (WeightOp tied : module.getOps<WeightOp>())
    if (tied.getTiedToAttr() && tied.getTiedToAttr().getAttr() == name)
      tied.setValueAttr(value);
  return success();
}

mav::WeightOp mav::detail::createWeightFromBytes(
    ModuleOp module, StringRef name, WeightKind kind, ShapedType type,
    ArrayRef<char> bytes, size_t alignment, WeightOp after,
    SymbolTableCollection *symbols) {
  OpBuilder builder(module.getContext());
  auto weight = builder.create<WeightOp>(
      module.getLoc(), name, kind, makeResource(type, bytes, alignment, name),
      /*frozen=*/false, FlatSymbolRefAttr());
  // By default after the last weight: weights come first, in state_dict
  // order.
  Block &body = module.getBodyRegion().front();
  Block::iterator position = body.begin();
  if (after)
    position = std::next(Block::iterator(after));
  else
    for (Operation &op : body)
      if (isa<WeightOp>(op))
        position = std::next(Block::iterator(&op));
  if (symbols) {
    symbols->getSymbolTable(module).insert(weight, position);
  } else {
    SymbolTable table(module);
    table.insert(weight, position);
  }
  return weight;
}

LogicalResult mav::eraseWeight(WeightOp weight) {
  auto module = weight->getParentOfType<ModuleOp>();
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(weight, module))
    for (const SymbolTable::SymbolUse &use : *uses) {
      InFlightDiagnostic diagnostic = weight.emitError()
                                      << "weight '" << weight.getSymName()
                                      << "' is still used";
      Operation *user = use.getUser();
      if (auto node = dyn_cast<NodeOpInterface>(user))
        diagnostic.attachNote(user->getLoc())
            << "read by node '" << node.getNodeName() << "'";
      else
        diagnostic.attachNote(user->getLoc()) << "used here";
      return diagnostic;
    }
  weight.erase();
  return success();
}
