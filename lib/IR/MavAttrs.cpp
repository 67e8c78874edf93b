//===- MavAttrs.cpp - Attributes of the mav dialect -----------------------===//

#include "mav/IR/MavAttrs.h"
#include "mav/IR/MavDialect.h"
#include "mav/IR/OpRegistry.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mav;

#include "mav/IR/MavEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "mav/IR/MavAttrs.cpp.inc"

void MavDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mav/IR/MavAttrs.cpp.inc"
      >();
}

FailureOr<DenseI64ArrayAttr> mav::parseIndexList(AsmParser &parser) {
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            return parser.parseInteger(values.emplace_back());
          }))
    return failure();
  return DenseI64ArrayAttr::get(parser.getContext(), values);
}

void mav::printIndexList(AsmPrinter &printer, DenseI64ArrayAttr list) {
  printer << '[';
  llvm::interleaveComma(list.asArrayRef(), printer);
  printer << ']';
}

void mav::printQuotedString(AsmPrinter &printer, StringRef value) {
  printer << '"';
  llvm::printEscapedString(value, printer.getStream());
  printer << '"';
}

LogicalResult
CommonMetaAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       StringRef maseType, StringRef maseOp, ArrayAttr args,
                       ArrayAttr results) {
  if (!maseType.empty() && !symbolizeMaseType(maseType))
    return emitError() << "unknown mase_type '" << maseType
                       << "': expected module_related_func, module, "
                          "builtin_func, implicit_func, placeholder, "
                          "get_attr or output";
  for (auto [field, entries] :
       {std::make_pair("args", args), std::make_pair("results", results)}) {
    if (!entries)
      continue;
    for (Attribute entry : entries)
      if (!entry.isa<ValueMetaAttr>())
        return emitError() << "common." << field
                           << " entries must be #mav.value, got " << entry;
  }
  return success();
}

LogicalResult
HardwareMetaAttr::verify(function_ref<InFlightDiagnostic()> emitError, BoolAttr,
                         StringRef, StringRef, IntegerAttr deviceId,
                         DictionaryAttr, DictionaryAttr,
                         ArrayAttr dependenceFiles, DenseI64ArrayAttr) {
  if (deviceId && !deviceId.getType().isSignlessInteger(64))
    return emitError() << "hardware.device_id must be an i64";
  if (dependenceFiles)
    for (Attribute file : dependenceFiles)
      if (!file.isa<StringAttr>())
        return emitError()
               << "hardware.dependence_files entries must be strings, got "
               << file;
  return success();
}
