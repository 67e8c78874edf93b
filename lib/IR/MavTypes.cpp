//===- MavTypes.cpp - Types of mav values ---------------------------------===//

#include "mav/IR/MavTypes.h"
#include "mav/IR/MavDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
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
  return type.isa<UnknownTensorType, TensorType>();
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
