//===- ValueConversion.cpp - TorchScript types and constants in mav -------===//

#include "ImporterInternals.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mav;
using namespace mav::detail;

Type mav::detail::convertType(const c10::TypePtr &type, MLIRContext *context) {
  switch (type->kind()) {
  case c10::TypeKind::TensorType:
    return UnknownTensorType::get(context);
  case c10::TypeKind::IntType:
  case c10::TypeKind::ScalarTypeType:
  case c10::TypeKind::LayoutType:
  case c10::TypeKind::MemoryFormatType:
    return mav::IntType::get(context);
  case c10::TypeKind::FloatType:
    return mav::FloatType::get(context);
  case c10::TypeKind::BoolType:
    return mav::BoolType::get(context);
  case c10::TypeKind::NumberType:
    return mav::NumberType::get(context);
  case c10::TypeKind::StringType:
    return mav::StrType::get(context);
  case c10::TypeKind::NoneType:
    return mav::NoneType::get(context);
  case c10::TypeKind::DeviceObjType:
    return mav::DeviceType::get(context);
  case c10::TypeKind::ListType:
    return mav::ListType::get(
        context, convertType(type->expectRef<c10::ListType>().getElementType(),
                             context));
  case c10::TypeKind::TupleType: {
    SmallVector<Type> elements;
    for (const c10::TypePtr &element : type->containedTypes())
      elements.push_back(convertType(element, context));
    return mav::TupleType::get(context, elements);
  }
  default:
    return mav::AnyType::get(context);
  }
}

/// The schema type with Optional[...] removed.
static c10::TypePtr unwrapOptional(const c10::TypePtr &type) {
  if (type && type->kind() == c10::TypeKind::OptionalType)
    return type->expectRef<c10::OptionalType>().getElementType();
  return type;
}

static FailureOr<Attribute>
convertInt(int64_t value, const c10::TypePtr &argType, MLIRContext *context) {
  c10::TypeKind kind = argType ? argType->kind() : c10::TypeKind::IntType;
  if (kind == c10::TypeKind::ScalarTypeType)
    if (auto dtype = symbolizeScalarType(value))
      return Attribute(ScalarTypeAttr::get(context, *dtype));
  if (kind == c10::TypeKind::LayoutType)
    if (auto layout = symbolizeLayout(value))
      return Attribute(LayoutAttr::get(context, *layout));
  if (kind == c10::TypeKind::MemoryFormatType)
    if (auto format = symbolizeMemoryFormat(value))
      return Attribute(MemoryFormatAttr::get(context, *format));
  return Attribute(IntegerAttr::get(IntegerType::get(context, 64), value));
}

FailureOr<Attribute> mav::detail::convertConstant(const c10::IValue &value,
                                                  const c10::TypePtr &declared,
                                                  MLIRContext *context) {
  c10::TypePtr argType = unwrapOptional(declared);
  Builder builder(context);
  if (value.isNone())
    return Attribute(NoneAttr::get(context));
  if (value.isBool())
    return Attribute(builder.getBoolAttr(value.toBool()));
  if (value.isInt())
    return convertInt(value.toInt(), argType, context);
  if (value.isDouble())
    return Attribute(builder.getF64FloatAttr(value.toDouble()));
  if (value.isString())
    return Attribute(builder.getStringAttr(value.toStringRef()));
  if (value.isDevice())
    return Attribute(DeviceAttr::get(context, value.toDevice().str()));
  if (value.isList()) {
    c10::TypePtr elementType;
    if (argType && argType->kind() == c10::TypeKind::ListType)
      elementType = argType->expectRef<c10::ListType>().getElementType();
    SmallVector<Attribute> elements;
    for (const c10::IValue &element : value.toListRef()) {
      FailureOr<Attribute> converted =
          convertConstant(element, elementType, context);
      if (failed(converted))
        return failure();
      elements.push_back(*converted);
    }
    return Attribute(builder.getArrayAttr(elements));
  }
  if (value.isTuple()) {
    SmallVector<Attribute> elements;
    for (const c10::IValue &element : value.toTupleRef().elements()) {
      FailureOr<Attribute> converted = convertConstant(element, {}, context);
      if (failed(converted))
        return failure();
      elements.push_back(*converted);
    }
    return Attribute(TupleAttr::get(context, builder.getArrayAttr(elements)));
  }
  return failure();
}

std::string mav::detail::demangleClassName(const c10::ClassTypePtr &type) {
  if (!type || !type->name())
    return "<unknown>";
  SmallVector<StringRef> parts;
  std::string qualified = type->name()->qualifiedName();
  SmallVector<StringRef> kept;
  StringRef(qualified).split(parts, '.');
  for (StringRef part : parts)
    if (part != "__torch__" && !part.starts_with("___torch_mangle_"))
      kept.push_back(part);
  return llvm::join(kept, ".");
}
