//===- NodeMetadata.cpp - Common metadata without what types say ----------===//

#include "mav/IR/NodeMetadata.h"
#include "mav/IR/TensorStrides.h"

#include "mav/IR/MavOps.h"
#include "mav/IR/ScalarTypes.h"

#include "llvm/ADT/SmallString.h"

using namespace mlir;
using namespace mav;

/// A call's `args`, by concrete op: this runs on every node that
/// AddCommonMetadata annotates, and a type check is cheaper than a look-up
/// by name.
static ArrayAttr getCallArgs(Operation *node) {
  if (auto call = dyn_cast<CallFunctionOp>(node))
    return call.getArgsAttr();
  if (auto call = dyn_cast<CallMethodOp>(node))
    return call.getArgsAttr();
  if (auto call = dyn_cast<CallModuleOp>(node))
    return call.getArgsAttr();
  if (isa<GetAttrOp>(node)) // `args` is not one of its own.
    return dyn_cast_or_null<ArrayAttr>(node->getDiscardableAttr("args"));
  return node->getAttrOfType<ArrayAttr>("args");
}

SmallVector<Value> mav::getDescribedArguments(Operation *node,
                                              ArrayRef<Attribute> entries) {
  SmallVector<Value> values(entries.size());
  if (isa<LearnableOp>(node)) {
    for (auto [index, entry] : llvm::enumerate(entries))
      if (auto meta = entry.dyn_cast<ValueMetaAttr>())
        if (meta.getName() == "data_in_0" && node->getNumOperands() == 1)
          values[index] = node->getOperand(0);
    return values;
  }
  ArrayAttr callArgs = getCallArgs(node);
  if (!callArgs)
    return values;
  bool byDataIn = isa<CallModuleOp>(node);
  unsigned dataIn = 0;
  for (auto [index, entry] : llvm::enumerate(entries)) {
    auto meta = entry.dyn_cast<ValueMetaAttr>();
    if (!meta)
      continue;
    size_t position = index;
    if (byDataIn) {
      if (!meta.getName().starts_with("data_in_"))
        continue;
      position = dataIn++;
    }
    if (position >= callArgs.size())
      break;
    if (auto ref = callArgs[position].dyn_cast<OperandRefAttr>())
      if (ref.getIndex() < node->getNumOperands())
        values[index] = node->getOperand(ref.getIndex());
  }
  return values;
}

/// The type of the graph value each entry describes, or null.
static SmallVector<Type> argumentTypes(Operation *node,
                                       ArrayRef<Attribute> entries) {
  SmallVector<Type> types;
  types.reserve(entries.size());
  for (Value value : getDescribedArguments(node, entries))
    types.push_back(value ? value.getType() : Type());
  return types;
}

/// What a value of `type` says of itself, as a `#mav.value` named `name`:
/// null unless it is a ranked tensor of a torch dtype.
static ValueMetaAttr describeType(StringRef name, Type type) {
  auto tensor = type ? type.dyn_cast<RankedTensorType>() : RankedTensorType();
  std::optional<ScalarType> dtype =
      tensor ? getScalarType(tensor.getElementType()) : std::nullopt;
  if (!dtype)
    return {};
  MLIRContext *context = type.getContext();
  auto [kind, bits] = getMasePrecision(*dtype);
  DenseI64ArrayAttr strides;
  if (tensor.hasStaticShape())
    strides = DenseI64ArrayAttr::get(
        context, layout::contiguousStrides(tensor.getShape()));
  return ValueMetaAttr::get(
      context, name, DenseI64ArrayAttr::get(context, tensor.getShape()),
      getTorchDTypeName(*dtype), kind, DenseI64ArrayAttr::get(context, {bits}),
      strides, Attribute());
}

/// `entry` with the fields it leaves out taken from `type`.
static Attribute completeEntry(Attribute entry, Type type) {
  auto meta = entry.dyn_cast_or_null<ValueMetaAttr>();
  ValueMetaAttr derived = meta ? describeType(meta.getName(), type) : nullptr;
  if (!derived)
    return entry;
  bool hasFormat = !meta.getType().empty() || meta.getPrecision();
  return ValueMetaAttr::get(
      entry.getContext(), meta.getName(),
      meta.getShape() ? meta.getShape() : derived.getShape(),
      meta.getTorchDtype().empty() ? derived.getTorchDtype()
                                   : meta.getTorchDtype(),
      hasFormat ? meta.getType() : derived.getType(),
      hasFormat ? meta.getPrecision() : derived.getPrecision(),
      meta.getStride() ? meta.getStride() : derived.getStride(),
      meta.getValue());
}

/// `entry` without the fields `type` says. Completing the result restores
/// each field left out to the value it had, so what readers see does not
/// change. Compared in place: this runs on every entry of every node that
/// AddCommonMetadata annotates.
static Attribute leanEntry(Attribute entry, Type type) {
  auto meta = entry.dyn_cast_or_null<ValueMetaAttr>();
  auto tensor = type ? type.dyn_cast<RankedTensorType>() : RankedTensorType();
  std::optional<ScalarType> dtype =
      meta && tensor ? getScalarType(tensor.getElementType()) : std::nullopt;
  if (!dtype)
    return entry;
  auto [kind, bits] = getMasePrecision(*dtype);
  DenseI64ArrayAttr shape = meta.getShape();
  bool sameShape = shape && shape.asArrayRef() == tensor.getShape();
  DenseI64ArrayAttr precision = meta.getPrecision();
  bool sameFormat = meta.getType() == kind && precision &&
                    precision.asArrayRef() == ArrayRef<int64_t>(bits);
  DenseI64ArrayAttr stride = meta.getStride();
  bool contiguous =
      stride && tensor.hasStaticShape() &&
      stride.asArrayRef() ==
          ArrayRef<int64_t>(layout::contiguousStrides(tensor.getShape()));
  StringRef torchDtype = meta.getTorchDtype();
  bool sameDtype = torchDtype == getTorchDtypeName(tensor.getElementType());
  if (!sameShape && !sameFormat && !contiguous && !sameDtype)
    return entry;
  return ValueMetaAttr::get(entry.getContext(), meta.getName(),
                            sameShape ? nullptr : shape,
                            sameDtype ? StringRef() : torchDtype,
                            sameFormat ? StringRef() : meta.getType(),
                            sameFormat ? nullptr : precision,
                            contiguous ? nullptr : stride, meta.getValue());
}

static std::string resultName(unsigned index) {
  return "data_out_" + std::to_string(index);
}

/// Whether `entry` says no more than that it is result `index`.
static bool isBareResult(Attribute entry, unsigned index) {
  auto meta = entry.dyn_cast<ValueMetaAttr>();
  if (!meta || meta.getShape() || !meta.getTorchDtype().empty() ||
      !meta.getType().empty() || meta.getPrecision() || meta.getStride() ||
      meta.getValue())
    return false;
  StringRef name = meta.getName();
  unsigned number;
  return name.consume_front("data_out_") && !name.getAsInteger(10, number) &&
         number == index;
}

CommonMetaAttr mav::completeCommonMeta(Operation *node, CommonMetaAttr stored) {
  if (!stored)
    return stored;
  MLIRContext *context = stored.getContext();
  ArrayAttr args = stored.getArgs();
  if (args) {
    SmallVector<Type> types = argumentTypes(node, args.getValue());
    SmallVector<Attribute> completed;
    for (auto [entry, type] : llvm::zip(args, types))
      completed.push_back(completeEntry(entry, type));
    args = ArrayAttr::get(context, completed);
  }
  SmallVector<Attribute> results;
  ArrayAttr storedResults = stored.getResults();
  for (unsigned index = 0, e = node->getNumResults(); index < e; ++index) {
    Attribute entry = storedResults
                          ? (index < storedResults.size() ? storedResults[index]
                                                          : Attribute())
                          : ValueMetaAttr::get(context, resultName(index), {},
                                               "", "", {}, {}, {});
    if (entry)
      results.push_back(completeEntry(entry, node->getResult(index).getType()));
  }
  if (storedResults)
    for (size_t index = results.size(); index < storedResults.size(); ++index)
      results.push_back(storedResults[index]);
  return CommonMetaAttr::get(context, stored.getMaseType(), stored.getMaseOp(),
                             args, ArrayAttr::get(context, results));
}

/// leanEntry, remembered in `cache` when there is one.
static Attribute leanEntry(Attribute entry, Type type, LeanCache *cache) {
  if (!cache)
    return leanEntry(entry, type);
  auto [slot, inserted] =
      cache->entries.try_emplace({entry, type}, Attribute());
  if (inserted)
    slot->second = leanEntry(entry, type);
  return slot->second;
}

static ArrayAttr leanArgs(Operation *node, ArrayRef<Attribute> args,
                          LeanCache *cache = nullptr) {
  SmallVector<Type> types = argumentTypes(node, args);
  SmallVector<Attribute> leaned;
  leaned.reserve(args.size());
  for (auto [entry, type] : llvm::zip(args, types))
    leaned.push_back(leanEntry(entry, type, cache));
  return ArrayAttr::get(node->getContext(), leaned);
}

/// Null when every entry is then a bare data_out_N.
static ArrayAttr leanResults(Operation *node, ArrayRef<Attribute> results,
                             LeanCache *cache = nullptr) {
  if (results.size() != node->getNumResults())
    return ArrayAttr::get(node->getContext(), results);
  SmallVector<Attribute> leaned;
  leaned.reserve(results.size());
  bool bare = true;
  for (auto [index, entry] : llvm::enumerate(results)) {
    leaned.push_back(leanEntry(entry, node->getResult(index).getType(), cache));
    bare &= isBareResult(leaned.back(), index);
  }
  return bare ? ArrayAttr() : ArrayAttr::get(node->getContext(), leaned);
}

CommonMetaAttr mav::leanCommonMeta(Operation *node, CommonMetaAttr complete) {
  if (!complete)
    return complete;
  ArrayAttr args = complete.getArgs(), results = complete.getResults();
  return CommonMetaAttr::get(
      complete.getContext(), complete.getMaseType(), complete.getMaseOp(),
      args ? leanArgs(node, args.getValue()) : args,
      results ? leanResults(node, results.getValue()) : results);
}

void mav::setCommonMeta(Operation *node, CommonMetaAttr complete) {
  node->setAttr("common", leanCommonMeta(node, complete));
}

/// Sets the node's `common`, by concrete op where it is one (as
/// getCallArgs).
static void setStoredCommonMeta(Operation *node, CommonMetaAttr common) {
  if (auto call = dyn_cast<CallFunctionOp>(node))
    call.setCommonAttr(common);
  else if (auto call = dyn_cast<CallMethodOp>(node))
    call.setCommonAttr(common);
  else if (auto call = dyn_cast<CallModuleOp>(node))
    call.setCommonAttr(common);
  else if (auto getAttr = dyn_cast<GetAttrOp>(node))
    getAttr.setCommonAttr(common);
  else
    node->setAttr("common", common);
}

template <typename T>
static void appendBytes(const T &data, SmallVectorImpl<char> &key) {
  const char *bytes = reinterpret_cast<const char *>(&data);
  key.append(bytes, bytes + sizeof(T));
}

static void appendString(StringRef string, SmallVectorImpl<char> &key) {
  appendBytes(string.size(), key);
  key.append(string.begin(), string.end());
}

template <typename Range>
static void appendPointers(const Range &range, SmallVectorImpl<char> &key) {
  appendBytes(size_t(llvm::size(range)), key);
  for (auto element : range)
    appendBytes(element.getAsOpaquePointer(), key);
}

void mav::setCommonMeta(Operation *node, StringRef maseType, StringRef maseOp,
                        ArrayRef<Attribute> args, ArrayRef<Attribute> results,
                        LeanCache *cache) {
  if (!cache) {
    setStoredCommonMeta(node, CommonMetaAttr::get(node->getContext(), maseType,
                                                  maseOp, leanArgs(node, args),
                                                  leanResults(node, results)));
    return;
  }
  // All that leaning reads (getDescribedArguments, leanEntry,
  // isBareResult): nodes of equal keys lean to the same metadata.
  SmallString<256> key;
  appendBytes(node->getName().getAsOpaquePointer(), key);
  appendBytes(getCallArgs(node).getAsOpaquePointer(), key);
  appendPointers(node->getOperandTypes(), key);
  appendPointers(node->getResultTypes(), key);
  appendString(maseType, key);
  appendString(maseOp, key);
  appendPointers(args, key);
  appendPointers(results, key);
  auto [slot, inserted] = cache->nodes.try_emplace(key, CommonMetaAttr());
  if (inserted)
    slot->second = CommonMetaAttr::get(node->getContext(), maseType, maseOp,
                                       leanArgs(node, args, cache),
                                       leanResults(node, results, cache));
  setStoredCommonMeta(node, slot->second);
}
