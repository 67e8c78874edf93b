//===- MavAttrs.cpp - Attributes of the mav dialect -----------------------===//

#include "mav/IR/MavAttrs.h"
#include "mav/IR/MaseType.h"
#include "mav/IR/MavDialect.h"

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
mav::checkDictionaryKeys(DictionaryAttr dictionary, StringRef what,
                         function_ref<InFlightDiagnostic()> emitError) {
  ArrayRef<NamedAttribute> entries = dictionary.getValue();
  for (size_t i = 1; i < entries.size(); ++i)
    if (entries[i - 1].getName().getValue() >= entries[i].getName().getValue())
      return emitError() << what << ": key '" << entries[i].getName().getValue()
                         << "' is repeated or out of order";
  return success();
}

LogicalResult
SoftwareMetaAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         DictionaryAttr entries) {
  return checkDictionaryKeys(entries, "software", emitError);
}

LogicalResult
PassOutputAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       StringRef pass, DictionaryAttr outputs) {
  return checkDictionaryKeys(outputs, "pass output of '" + pass.str() + "'",
                             emitError);
}

LogicalResult
HardwareMetaAttr::verify(function_ref<InFlightDiagnostic()> emitError, BoolAttr,
                         StringRef toolchain, StringRef, IntegerAttr deviceId,
                         DictionaryAttr interface, DictionaryAttr verilogParam,
                         ArrayAttr dependenceFiles,
                         DenseI64ArrayAttr maxParallelism) {
  if (!toolchain.empty() && toolchain != "INTERNAL_RTL" &&
      toolchain != "UNSUPPORTED")
    return emitError() << "hardware.toolchain must be INTERNAL_RTL or "
                          "UNSUPPORTED, got '"
                       << toolchain << "'";
  if (deviceId && !deviceId.getType().isSignlessInteger(64))
    return emitError() << "hardware.device_id must be an i64";
  if ((interface && failed(checkDictionaryKeys(interface, "hardware.interface",
                                               emitError))) ||
      (verilogParam && failed(checkDictionaryKeys(
                           verilogParam, "hardware.verilog_param", emitError))))
    return failure();
  if (interface)
    for (NamedAttribute entry : interface) {
      auto port = entry.getValue().dyn_cast<DictionaryAttr>();
      if (!port || !port.getAs<StringAttr>("storage") ||
          !port.getAs<BoolAttr>("transpose"))
        return emitError() << "hardware.interface."
                           << entry.getName().getValue()
                           << " must be {storage = string, transpose = bool}";
    }
  if (verilogParam)
    for (NamedAttribute entry : verilogParam) {
      auto value = entry.getValue().dyn_cast<IntegerAttr>();
      if (!value || !value.getType().isSignlessInteger(64))
        return emitError() << "hardware.verilog_param."
                           << entry.getName().getValue()
                           << " must be an i64, got " << entry.getValue();
    }
  if (dependenceFiles)
    for (Attribute file : dependenceFiles)
      if (!file.isa<StringAttr>())
        return emitError()
               << "hardware.dependence_files entries must be strings, got "
               << file;
  if (maxParallelism && llvm::any_of(maxParallelism.asArrayRef(),
                                     [](int64_t value) { return value < 1; }))
    return emitError() << "hardware.max_parallelism entries must be at "
                          "least 1";
  return success();
}
