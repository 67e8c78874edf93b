//===- MavTypes.cpp - Types of mav values ---------------------------------===//

#include "mav/IR/MavTypes.h"
#include "mav/IR/MavDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mav;

#define GET_TYPEDEF_CLASSES
#include "mav/IR/MavTypes.cpp.inc"

void MavDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "mav/IR/MavTypes.cpp.inc"
      >();
}

bool mav::isTensorType(Type type) {
  if (type.isa<UnknownTensorType>())
    return true;
  // Bytecode can carry a builtin tensor of any element type, one that text
  // would not parse (`tensor<8xtensor<4xf32>>`); such a value is no tensor.
  auto tensor = type.dyn_cast<TensorType>();
  return tensor && TensorType::isValidElementType(tensor.getElementType());
}

bool mav::isValueType(Type type) {
  return isTensorType(type) || type.getDialect().getNamespace() == "mav";
}

Type mav::TupleType::parse(AsmParser &parser) {
  SmallVector<Type> elementTypes;
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    if (parser.parseTypeList(elementTypes) || parser.parseGreater())
      return {};
  }
  return mav::TupleType::get(parser.getContext(), elementTypes);
}

void mav::TupleType::print(AsmPrinter &printer) const {
  printer << '<';
  llvm::interleaveComma(getElementTypes(), printer);
  printer << '>';
}

FailureOr<RankedTensorType> mav::parseShapeSpec(StringRef spec,
                                                MLIRContext *context) {
  // The element type follows the last `x`, except `complex<f32>`, which
  // holds one of its own.
  size_t split = spec.find("complex<");
  if (split == StringRef::npos)
    split = spec.rfind('x') == StringRef::npos ? 0 : spec.rfind('x') + 1;
  StringRef dimsText = spec.take_front(split);
  if (!dimsText.empty() && !dimsText.consume_back("x"))
    return failure();
  Builder builder(context);
  Type elementType =
      llvm::StringSwitch<Type>(spec.drop_front(split))
          .Case("f32", builder.getF32Type())
          .Case("f64", builder.getF64Type())
          .Case("f16", builder.getF16Type())
          .Case("bf16", builder.getBF16Type())
          .Cases("si64", "i64", builder.getIntegerType(64, true))
          .Cases("si32", "i32", builder.getIntegerType(32, true))
          .Cases("si16", "i16", builder.getIntegerType(16, true))
          .Cases("si8", "i8", builder.getIntegerType(8, true))
          .Case("ui8", builder.getIntegerType(8, false))
          .Case("i1", builder.getI1Type())
          .Case("complex<f32>", ComplexType::get(builder.getF32Type()))
          .Case("complex<f64>", ComplexType::get(builder.getF64Type()))
          .Default(Type());
  if (!elementType)
    return failure();
  SmallVector<StringRef> parts;
  if (!dimsText.empty())
    dimsText.split(parts, 'x');
  SmallVector<int64_t> dims;
  for (StringRef dim : parts) {
    int64_t size;
    if (dim.getAsInteger(10, size) || size < 0)
      return failure();
    dims.push_back(size);
  }
  return RankedTensorType::get(dims, elementType);
}

StringRef mav::getTorchDtypeName(Type type) {
  if (type.isF32())
    return "torch.float32";
  if (type.isF64())
    return "torch.float64";
  if (type.isF16())
    return "torch.float16";
  if (type.isBF16())
    return "torch.bfloat16";
  if (type.isInteger(1))
    return "torch.bool";
  if (type.isUnsignedInteger(8))
    return "torch.uint8";
  if (auto complex = type.dyn_cast<ComplexType>()) {
    if (complex.getElementType().isF32())
      return "torch.complex64";
    if (complex.getElementType().isF64())
      return "torch.complex128";
    return "";
  }
  auto integer = type.dyn_cast<IntegerType>();
  if (!integer || integer.isUnsigned())
    return "";
  switch (integer.getWidth()) {
  case 8:
    return "torch.int8";
  case 16:
    return "torch.int16";
  case 32:
    return "torch.int32";
  case 64:
    return "torch.int64";
  default:
    return "";
  }
}
