//===- NodeArguments.cpp - FX-style node arguments ------------------------===//

#include "mav/IR/NodeArguments.h"
#include "mav/IR/MavAttrs.h"

#include "mlir/IR/Builders.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace mav;

using UnresolvedOperands = SmallVectorImpl<OpAsmParser::UnresolvedOperand>;

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

static bool isDictKey(Attribute key) {
  if (auto integer = key.dyn_cast<IntegerAttr>())
    return integer.getType().isSignlessInteger(64);
  return key.isa<StringAttr>();
}

static ParseResult parseValueSequence(OpAsmParser &parser,
                                      SmallVectorImpl<Attribute> &elements,
                                      UnresolvedOperands &operands,
                                      AsmParser::Delimiter delimiter) {
  return parser.parseCommaSeparatedList(delimiter, [&]() -> ParseResult {
    Attribute element;
    if (parseArgumentValue(parser, element, operands))
      return failure();
    elements.push_back(element);
    return success();
  });
}

/// Parses the rest of `( ... )` after the `(`, Python style: `()`, `(a,)`,
/// `(a, b)` and `(a, b,)`.
static ParseResult parseTupleTail(OpAsmParser &parser,
                                  SmallVectorImpl<Attribute> &elements,
                                  UnresolvedOperands &operands) {
  if (succeeded(parser.parseOptionalRParen()))
    return success();
  while (true) {
    Attribute element;
    if (parseArgumentValue(parser, element, operands))
      return failure();
    elements.push_back(element);
    if (failed(parser.parseOptionalComma()))
      return parser.parseRParen();
    if (succeeded(parser.parseOptionalRParen()))
      return success();
  }
}

/// Parses the rest of `{key: value, ...}` after the `{`. Keys are string or
/// integer constants.
static ParseResult parseDictTail(OpAsmParser &parser, Attribute &value,
                                 UnresolvedOperands &operands) {
  SmallVector<Attribute> keys, values;
  if (failed(parser.parseOptionalRBrace())) {
    do {
      Attribute key, element;
      std::string text;
      int64_t number;
      if (succeeded(parser.parseOptionalString(&text)))
        key = parser.getBuilder().getStringAttr(text);
      else if (parser.parseInteger(number))
        return failure();
      else
        key = parser.getBuilder().getI64IntegerAttr(number);
      if (parser.parseColon() || parseArgumentValue(parser, element, operands))
        return failure();
      keys.push_back(key);
      values.push_back(element);
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseRBrace())
      return failure();
  }
  MLIRContext *context = parser.getContext();
  value = DictAttr::get(context, ArrayAttr::get(context, keys),
                        ArrayAttr::get(context, values));
  return success();
}

ParseResult mav::parseArgumentValue(
    OpAsmParser &parser, Attribute &value,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands) {
  MLIRContext *context = parser.getContext();
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult isOperand = parser.parseOptionalOperand(operand);
  if (isOperand.has_value()) {
    if (failed(*isOperand))
      return failure();
    value = OperandRefAttr::get(context, operands.size());
    operands.push_back(operand);
    return success();
  }
  SmallVector<Attribute> elements;
  if (succeeded(parser.parseOptionalLSquare())) {
    if (failed(parser.parseOptionalRSquare())) {
      if (parseValueSequence(parser, elements, operands,
                             AsmParser::Delimiter::None) ||
          parser.parseRSquare())
        return failure();
    }
    value = ArrayAttr::get(context, elements);
    return success();
  }
  if (succeeded(parser.parseOptionalLParen())) {
    if (parseTupleTail(parser, elements, operands))
      return failure();
    value = TupleAttr::get(context, ArrayAttr::get(context, elements));
    return success();
  }
  if (succeeded(parser.parseOptionalLBrace()))
    return parseDictTail(parser, value, operands);
  if (succeeded(parser.parseOptionalKeyword("None"))) {
    value = NoneAttr::get(context);
    return success();
  }
  return parser.parseAttribute(value);
}

Attribute mav::replaceOperandRefs(Attribute value,
                                  function_ref<Attribute(unsigned)> replace) {
  MLIRContext *context = value.getContext();
  if (auto ref = value.dyn_cast<OperandRefAttr>()) {
    Attribute replacement = replace(ref.getIndex());
    return replacement ? replacement : value;
  }
  auto replaceAll = [&](ArrayAttr array) {
    return ArrayAttr::get(
        context, llvm::to_vector(llvm::map_range(array, [&](Attribute a) {
          return replaceOperandRefs(a, replace);
        })));
  };
  if (auto list = value.dyn_cast<ArrayAttr>())
    return replaceAll(list);
  if (auto tuple = value.dyn_cast<TupleAttr>())
    return TupleAttr::get(context, replaceAll(tuple.getElements()));
  if (auto dict = value.dyn_cast<DictAttr>())
    return DictAttr::get(context, dict.getKeys(), replaceAll(dict.getValues()));
  return value;
}

Attribute mav::mapOperandRefs(Attribute value,
                              function_ref<unsigned(unsigned)> map) {
  MLIRContext *context = value.getContext();
  return replaceOperandRefs(value, [&](unsigned index) -> Attribute {
    return OperandRefAttr::get(context, map(index));
  });
}

static Attribute shiftOperandRefs(Attribute value, unsigned offset) {
  return mav::mapOperandRefs(value,
                             [&](unsigned index) { return index + offset; });
}

namespace {
struct ParsedKeyword {
  StringAttr name;
  Attribute value;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
};
} // namespace

ParseResult mav::parseNodeArguments(
    OpAsmParser &parser, ArrayAttr &args, DictionaryAttr &kwargs,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands) {
  MLIRContext *context = parser.getContext();
  SmallVector<Attribute> positional;
  SmallVector<ParsedKeyword> keywords;

  auto parseOne = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    Attribute value;
    if (succeeded(parser.parseOptionalKeyword(&keyword))) {
      if (succeeded(parser.parseOptionalEqual())) {
        ParsedKeyword parsed{StringAttr::get(context, keyword), {}, {}};
        if (parseArgumentValue(parser, parsed.value, parsed.operands))
          return failure();
        if (llvm::any_of(keywords, [&](const ParsedKeyword &k) {
              return k.name == parsed.name;
            }))
          return parser.emitError(loc, "keyword argument '")
                 << keyword << "' given twice";
        keywords.push_back(std::move(parsed));
        return success();
      }
      if (keyword == "None")
        value = NoneAttr::get(context);
      else if (keyword == "true" || keyword == "false")
        value = BoolAttr::get(context, keyword == "true");
      else
        return parser.emitError(loc, "expected '=' after keyword argument '")
               << keyword << "'";
    } else if (parseArgumentValue(parser, value, operands)) {
      return failure();
    }
    if (!keywords.empty())
      return parser.emitError(loc,
                              "positional argument follows keyword argument");
    positional.push_back(value);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Paren, parseOne))
    return failure();

  llvm::sort(keywords, [](const ParsedKeyword &a, const ParsedKeyword &b) {
    return a.name.getValue() < b.name.getValue();
  });
  SmallVector<NamedAttribute> named;
  for (ParsedKeyword &keyword : keywords) {
    named.emplace_back(keyword.name,
                       shiftOperandRefs(keyword.value, operands.size()));
    operands.append(keyword.operands.begin(), keyword.operands.end());
  }
  args = ArrayAttr::get(context, positional);
  kwargs = DictionaryAttr::getWithSorted(context, named);
  return success();
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

void mav::printArgumentValue(OpAsmPrinter &printer, Attribute value,
                             OperandRange operands) {
  auto printAll = [&](ArrayAttr elements) {
    llvm::interleaveComma(elements, printer, [&](Attribute element) {
      printArgumentValue(printer, element, operands);
    });
  };
  if (auto ref = value.dyn_cast<OperandRefAttr>()) {
    if (ref.getIndex() < operands.size())
      printer.printOperand(operands[ref.getIndex()]);
    else
      printer.printAttribute(ref);
  } else if (auto list = value.dyn_cast<ArrayAttr>()) {
    printer << '[';
    printAll(list);
    printer << ']';
  } else if (auto tuple = value.dyn_cast<TupleAttr>()) {
    printer << '(';
    printAll(tuple.getElements());
    if (tuple.getElements().size() == 1)
      printer << ',';
    printer << ')';
  } else if (auto dict = value.dyn_cast<DictAttr>()) {
    printer << '{';
    llvm::interleaveComma(
        llvm::zip(dict.getKeys(), dict.getValues()), printer, [&](auto entry) {
          printArgumentValue(printer, std::get<0>(entry), operands);
          printer << ": ";
          printArgumentValue(printer, std::get<1>(entry), operands);
        });
    printer << '}';
  } else if (value.isa<NoneAttr>()) {
    printer << "None";
  } else if (auto number = value.dyn_cast<FloatAttr>();
             number && number.getType().isF64()) {
    printer.printAttributeWithoutType(number);
    // Non-finite floats print in hex, which only parses back with its type.
    if (!number.getValue().isFinite())
      printer << " : f64";
  } else if (auto integer = value.dyn_cast<IntegerAttr>();
             integer && integer.getType().isSignlessInteger(64)) {
    printer.printAttributeWithoutType(integer);
  } else {
    printer.printAttribute(value);
  }
}

void mav::printNodeArguments(OpAsmPrinter &printer, ArrayAttr args,
                             DictionaryAttr kwargs, OperandRange operands) {
  printer << '(';
  llvm::interleaveComma(args, printer, [&](Attribute value) {
    printArgumentValue(printer, value, operands);
  });
  for (auto [index, keyword] : llvm::enumerate(kwargs)) {
    if (index || !args.empty())
      printer << ", ";
    printer.printKeywordOrString(keyword.getName());
    printer << " = ";
    printArgumentValue(printer, keyword.getValue(), operands);
  }
  printer << ')';
}

//===----------------------------------------------------------------------===//
// Checking and building
//===----------------------------------------------------------------------===//

void mav::walkOperandRefs(Attribute value, function_ref<void(unsigned)> fn) {
  if (auto ref = value.dyn_cast<OperandRefAttr>())
    return fn(ref.getIndex());
  if (auto list = value.dyn_cast<ArrayAttr>())
    for (Attribute element : list)
      walkOperandRefs(element, fn);
  if (auto tuple = value.dyn_cast<TupleAttr>())
    for (Attribute element : tuple.getElements())
      walkOperandRefs(element, fn);
  if (auto dict = value.dyn_cast<DictAttr>())
    for (Attribute element : dict.getValues())
      walkOperandRefs(element, fn);
}

static bool isArgumentLeaf(Attribute value) {
  if (value.isa<BoolAttr, StringAttr, NoneAttr, ScalarTypeAttr, DeviceAttr,
                MemoryFormatAttr, LayoutAttr, OperandRefAttr>())
    return true;
  if (auto integer = value.dyn_cast<IntegerAttr>())
    return integer.getType().isSignlessInteger(64);
  if (auto number = value.dyn_cast<FloatAttr>())
    return number.getType().isF64();
  return false;
}

static LogicalResult verifyValue(Attribute value, unsigned &nextOperand,
                                 function_ref<InFlightDiagnostic()> emitError) {
  if (auto list = value.dyn_cast<ArrayAttr>()) {
    for (Attribute element : list)
      if (failed(verifyValue(element, nextOperand, emitError)))
        return failure();
    return success();
  }
  if (auto tuple = value.dyn_cast<TupleAttr>())
    return verifyValue(tuple.getElements(), nextOperand, emitError);
  if (auto dict = value.dyn_cast<DictAttr>())
    return verifyValue(dict.getValues(), nextOperand, emitError);
  if (!isArgumentLeaf(value))
    return emitError()
           << "argument " << value
           << " is not an int (i64), float (f64), bool, None, string, list, "
              "tuple, dict, dtype, device, memory format, layout or operand";
  if (auto ref = value.dyn_cast<OperandRefAttr>()) {
    if (ref.getIndex() != nextOperand)
      return emitError() << "operand reference #" << ref.getIndex()
                         << " is out of order: expected #" << nextOperand;
    ++nextOperand;
  }
  return success();
}

LogicalResult
mav::verifyArgumentTree(ArrayRef<Attribute> roots, unsigned numOperands,
                        function_ref<InFlightDiagnostic()> emitError) {
  unsigned nextOperand = 0;
  for (Attribute root : roots)
    if (failed(verifyValue(root, nextOperand, emitError)))
      return failure();
  if (nextOperand != numOperands)
    return emitError() << "arguments reference " << nextOperand
                       << " operands but the node has " << numOperands;
  return success();
}

Attribute ArgumentTreeBuilder::use(Value value) {
  operands.push_back(value);
  return OperandRefAttr::get(context, operands.size() - 1);
}

Attribute ArgumentTreeBuilder::none() { return NoneAttr::get(context); }

Attribute ArgumentTreeBuilder::tuple(ArrayRef<Attribute> elements) {
  return TupleAttr::get(context, ArrayAttr::get(context, elements));
}

Attribute ArgumentTreeBuilder::list(ArrayRef<Attribute> elements) {
  return ArrayAttr::get(context, elements);
}

Attribute ArgumentTreeBuilder::dict(ArrayRef<Attribute> keys,
                                    ArrayRef<Attribute> values) {
  return DictAttr::get(context, ArrayAttr::get(context, keys),
                       ArrayAttr::get(context, values));
}

LogicalResult DictAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayAttr keys, ArrayAttr values) {
  if (keys.size() != values.size())
    return emitError() << "dict has " << keys.size() << " keys but "
                       << values.size() << " values";
  if (!llvm::all_of(keys, isDictKey))
    return emitError() << "dict keys must be strings or ints (i64)";
  return success();
}
