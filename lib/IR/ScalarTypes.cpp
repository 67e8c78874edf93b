//===- ScalarTypes.cpp - torch dtypes without libtorch --------------------===//

#include "mav/IR/ScalarTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mav;

Type mav::getElementType(ScalarType type, MLIRContext *context) {
  Builder builder(context);
  switch (type) {
  case ScalarType::float32:
    return builder.getF32Type();
  case ScalarType::float64:
    return builder.getF64Type();
  case ScalarType::float16:
    return builder.getF16Type();
  case ScalarType::bfloat16:
    return builder.getBF16Type();
  case ScalarType::int64:
    return builder.getIntegerType(64, /*isSigned=*/true);
  case ScalarType::int32:
    return builder.getIntegerType(32, /*isSigned=*/true);
  case ScalarType::int16:
    return builder.getIntegerType(16, /*isSigned=*/true);
  case ScalarType::int8:
    return builder.getIntegerType(8, /*isSigned=*/true);
  case ScalarType::uint8:
    return builder.getIntegerType(8, /*isSigned=*/false);
  case ScalarType::Bool:
    return builder.getI1Type();
  case ScalarType::complex64:
    return ComplexType::get(builder.getF32Type());
  case ScalarType::complex128:
    return ComplexType::get(builder.getF64Type());
  default:
    return {};
  }
}

std::optional<ScalarType> mav::getScalarType(Type type) {
  if (type.isF32())
    return ScalarType::float32;
  if (type.isF64())
    return ScalarType::float64;
  if (type.isF16())
    return ScalarType::float16;
  if (type.isBF16())
    return ScalarType::bfloat16;
  if (type.isInteger(1))
    return ScalarType::Bool;
  if (type.isUnsignedInteger(8))
    return ScalarType::uint8;
  if (auto integer = type.dyn_cast<IntegerType>()) {
    if (integer.isUnsigned())
      return std::nullopt;
    switch (integer.getWidth()) {
    case 8:
      return ScalarType::int8;
    case 16:
      return ScalarType::int16;
    case 32:
      return ScalarType::int32;
    case 64:
      return ScalarType::int64;
    default:
      return std::nullopt;
    }
  }
  if (auto complex = type.dyn_cast<ComplexType>()) {
    if (complex.getElementType().isF32())
      return ScalarType::complex64;
    if (complex.getElementType().isF64())
      return ScalarType::complex128;
  }
  return std::nullopt;
}

int64_t mav::getElementSize(ScalarType type) {
  switch (type) {
  case ScalarType::Bool:
  case ScalarType::uint8:
  case ScalarType::int8:
  case ScalarType::qint8:
  case ScalarType::quint8:
    return 1;
  case ScalarType::int16:
  case ScalarType::float16:
  case ScalarType::bfloat16:
    return 2;
  case ScalarType::int32:
  case ScalarType::float32:
  case ScalarType::complex32:
  case ScalarType::qint32:
    return 4;
  case ScalarType::complex128:
    return 16;
  default:
    return 8;
  }
}

std::string mav::getTorchDTypeName(ScalarType type) {
  return ("torch." + stringifyScalarType(type)).str();
}

std::pair<llvm::StringRef, int64_t> mav::getMasePrecision(ScalarType type) {
  int64_t bits = getElementSize(type) * 8;
  switch (type) {
  case ScalarType::Bool:
    return {"bool", 1};
  case ScalarType::float16:
  case ScalarType::bfloat16:
  case ScalarType::float32:
  case ScalarType::float64:
    return {"float", bits};
  case ScalarType::complex32:
  case ScalarType::complex64:
  case ScalarType::complex128:
    return {"complex", bits};
  default:
    return {"integer", bits};
  }
}
