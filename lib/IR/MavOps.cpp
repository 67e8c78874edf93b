//===- MavOps.cpp - Ops of the mav dialect --------------------------------===//

#include "mav/IR/MavOps.h"
#include "mav/IR/MavDialect.h"
#include "mav/IR/MavTypes.h"
#include "mav/IR/NodeArguments.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mav;

//===----------------------------------------------------------------------===//
// Inherent attributes without a dictionary
//===----------------------------------------------------------------------===//

/// Moves the inherent attributes that `parse` collected in
/// `result.attributes` into the op's properties, after checking their kinds
/// as MLIR's parser would. Creating the op then builds no dictionary of them:
/// MLIR would unique one per op and keep it for the context's lifetime.
template <typename OpT>
static ParseResult moveInherentAttrsToProperties(OpAsmParser &parser,
                                                 OperationState &result) {
  if (failed(OpT::verifyInherentAttrs(result.name, result.attributes, [&] {
        return parser.emitError(parser.getNameLoc());
      })))
    return failure();
  auto &properties = result.getOrAddProperties<typename OpT::Properties>();
  ArrayRef<StringRef> inherent = OpT::getAttributeNames();
  NamedAttrList discardable;
  for (NamedAttribute attribute : result.attributes) {
    if (llvm::is_contained(inherent, attribute.getName().getValue()))
      OpT::setInherentAttr(properties, attribute.getName().getValue(),
                           attribute.getValue());
    else
      discardable.push_back(attribute);
  }
  result.attributes = std::move(discardable);
  return success();
}

/// The attributes an op prints in its dictionary, without building one as
/// Operation::getAttrs() does: its discardable attributes and the inherent
/// ones that are set.
template <typename OpT> static NamedAttrList getPrintedAttrs(OpT op) {
  NamedAttrList attributes(op->getDiscardableAttrDictionary());
  OpT::populateInherentAttrs(op->getContext(), op.getProperties(), attributes);
  return attributes;
}

//===----------------------------------------------------------------------===//
// Node helpers
//===----------------------------------------------------------------------===//

/// [a-zA-Z_][a-zA-Z0-9_]*, with `alsoAllowed` after the first character:
/// Python's identifiers, or with "$." MLIR's bare identifiers (the only
/// resource keys its parser reads).
static bool isIdentifier(StringRef name, StringRef alsoAllowed = "") {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name, [&](char c) {
    return llvm::isAlnum(c) || c == '_' || alsoAllowed.contains(c);
  });
}

/// FX names are Python identifiers.
static bool isValidNodeName(StringRef name) { return isIdentifier(name); }

static StringRef getNodeNameOrEmpty(Operation *op) {
  if (auto name = op->getAttrOfType<StringAttr>("name"))
    return name.getValue();
  return {};
}

/// Starts an error naming the node, e.g. "node 'conv1': ...".
static InFlightDiagnostic emitNodeError(Operation *op) {
  return op->emitError() << "node '" << getNodeNameOrEmpty(op) << "' ("
                         << op->getName() << "): ";
}

template <typename AttrT>
static LogicalResult checkMetadataKind(Operation *op, Attribute value,
                                       StringRef key, StringRef expected) {
  if (!value || value.isa<AttrT>())
    return success();
  return emitNodeError(op) << "'" << key << "' must be a " << expected
                           << " attribute, got " << value;
}

/// "[1, 64, 56, 56]"; a dynamic extent as "?".
static std::string shapeText(ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + (ShapedType::isDynamic(shape[i])
                                   ? std::string("?")
                                   : std::to_string(shape[i]));
  return text + "]";
}

/// Checks one `#mav.value` against the type of the value it describes:
/// shape (where the type's extent is static) and torch dtype.
static LogicalResult checkValueMeta(Operation *op, ValueMetaAttr meta,
                                    Type type, StringRef what) {
  auto tensor = type.dyn_cast<RankedTensorType>();
  if (!tensor)
    return success();
  auto stale = [&]() {
    return emitNodeError(op) << "common metadata is stale: " << what << " '"
                             << meta.getName() << "' ";
  };
  if (DenseI64ArrayAttr shape = meta.getShape()) {
    ArrayRef<int64_t> recorded = shape.asArrayRef();
    bool matches = recorded.size() == tensor.getShape().size();
    for (size_t i = 0; matches && i < recorded.size(); ++i)
      matches = ShapedType::isDynamic(tensor.getDimSize(i)) ||
                recorded[i] == tensor.getDimSize(i);
    if (!matches)
      return stale() << "has shape " << shapeText(recorded) << ", its value "
                     << tensor << " (run -mav-raise again)";
  }
  StringRef dtype = meta.getTorchDtype();
  StringRef expected = getTorchDtypeName(tensor.getElementType());
  if (!dtype.empty() && !expected.empty() && dtype != expected)
    return stale() << "has torch_dtype " << dtype << ", its value " << tensor
                   << " (run -mav-raise again)";
  return success();
}

/// Common metadata describes the node as its types do: each result
/// (data_out_N), and each argument that is a value of the graph. A transform
/// that changes a node's types without recomputing its metadata is caught here.
static LogicalResult verifyCommonAgainstTypes(Operation *op,
                                              CommonMetaAttr common) {
  if (!common)
    return success();
  if (ArrayAttr results = common.getResults()) {
    if (results.size() != op->getNumResults())
      return emitNodeError(op)
             << "common metadata is stale: it describes " << results.size()
             << " results, the node has " << op->getNumResults()
             << " (run -mav-raise again)";
    for (auto [meta, result] :
         llvm::zip(results.getAsRange<ValueMetaAttr>(), op->getResults()))
      if (failed(checkValueMeta(op, meta, result.getType(), "result")))
        return failure();
  }
  ArrayAttr recorded = common.getArgs();
  if (!recorded)
    return success();
  for (auto [meta, value] :
       llvm::zip(recorded.getAsRange<ValueMetaAttr>(),
                 getDescribedArguments(op, recorded.getValue())))
    if (value && meta.getShape() &&
        failed(checkValueMeta(op, meta, value.getType(), "argument")))
      return failure();
  return success();
}

/// What every node checks: its name and the kinds of its metadata. The
/// attributes are read through the op's accessors, by interned name, since
/// this runs on every node after every transform.
template <typename OpT> static LogicalResult verifyNode(OpT op) {
  StringRef name = op.getNameAttr() ? op.getNameAttr().getValue() : "";
  if (!isValidNodeName(name))
    return emitNodeError(op)
           << "name '" << name << "' is not a Python identifier";
  if (op->getNumResults() == 0)
    return emitNodeError(op) << "a node must produce a value";
  return failure(
      failed(checkMetadataKind<ScopeAttr>(op, op.getScopeAttr(), "scope",
                                          "#mav.scope")) ||
      failed(checkMetadataKind<CommonMetaAttr>(op, op.getCommonAttr(), "common",
                                               "#mav.common")) ||
      failed(checkMetadataKind<HardwareMetaAttr>(
          op, op.getHardwareAttr(), "hardware", "#mav.hardware")) ||
      failed(checkMetadataKind<SoftwareMetaAttr>(
          op, op.getSoftwareAttr(), "software", "#mav.software")) ||
      failed(verifyCommonAgainstTypes(
          op, op.getCommonAttr().template dyn_cast_or_null<CommonMetaAttr>())));
}

static void setNodeResultNames(Operation *op, OpAsmSetValueNameFn setNameFn) {
  StringRef name = getNodeNameOrEmpty(op);
  if (!name.empty() && op->getNumResults() > 0)
    setNameFn(op->getResult(0), name);
}

/// The node's name is its SSA name: `%relu = ...` names the node "relu".
static ParseResult parseNodeName(OpAsmParser &parser, OperationState &result) {
  StringRef name = parser.getResultName(0).first;
  if (name.empty())
    return parser.emitError(parser.getNameLoc(),
                            "a node is named by its result, as in "
                            "'%relu = mav.call_module ...'");
  result.attributes.set("name", parser.getBuilder().getStringAttr(name));
  return success();
}

//===----------------------------------------------------------------------===//
// call_function, call_method, call_module
//===----------------------------------------------------------------------===//

static constexpr StringRef callElidedAttrs[] = {"name", "target", "args",
                                                "kwargs"};

template <typename OpT>
static ParseResult parseCallNode(OpAsmParser &parser, OperationState &result) {
  StringAttr target;
  ArrayAttr args;
  DictionaryAttr kwargs;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  FunctionType type;
  if (parseNodeName(parser, result) ||
      parser.parseAttribute(target, "target", result.attributes) ||
      parseNodeArguments(parser, args, kwargs, operands) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  SMLoc typeLoc = parser.getCurrentLocation();
  if (parser.parseType(type) ||
      parser.resolveOperands(operands, type.getInputs(), typeLoc,
                             result.operands))
    return failure();
  result.addTypes(type.getResults());
  result.addAttribute("args", args);
  result.addAttribute("kwargs", kwargs);
  return moveInherentAttrsToProperties<OpT>(parser, result);
}

template <typename OpT>
static void printCallNode(OpT op, OpAsmPrinter &printer) {
  printer << ' ';
  printer.printAttributeWithoutType(op.getTargetAttr());
  printer << ' ';
  printNodeArguments(printer, op.getArgs(), op.getKwargs(), op.getOperands());
  printer.printOptionalAttrDict(getPrintedAttrs(op), callElidedAttrs);
  printer << " : ";
  printer.printFunctionalType(op.getOperands().getTypes(),
                              op.getResults().getTypes());
}

template <typename OpT> static LogicalResult verifyCallNode(OpT op) {
  if (failed(verifyNode(op)))
    return failure();
  if (op.getTarget().empty())
    return emitNodeError(op) << "empty target";
  if (failed(checkDictionaryKeys(op.getKwargs(), "kwargs",
                                 [&] { return emitNodeError(op); })))
    return failure();
  SmallVector<Attribute> roots(op.getArgs().begin(), op.getArgs().end());
  for (NamedAttribute keyword : op.getKwargs())
    roots.push_back(keyword.getValue());
  return verifyArgumentTree(roots, op.getOperands().size(),
                            [&] { return emitNodeError(op); });
}

#define MAV_DEFINE_CALL_NODE(OpT)                                              \
  ParseResult OpT::parse(OpAsmParser &parser, OperationState &result) {        \
    return parseCallNode<OpT>(parser, result);                                 \
  }                                                                            \
  void OpT::print(OpAsmPrinter &printer) { printCallNode(*this, printer); }    \
  void OpT::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {                 \
    setNodeResultNames(*this, setNameFn);                                      \
  }                                                                            \
  ArrayRef<StringRef> OpT::getElidedAttrNames() { return callElidedAttrs; }

MAV_DEFINE_CALL_NODE(CallFunctionOp)
MAV_DEFINE_CALL_NODE(CallMethodOp)
MAV_DEFINE_CALL_NODE(CallModuleOp)
#undef MAV_DEFINE_CALL_NODE

LogicalResult CallFunctionOp::verify() { return verifyCallNode(*this); }
LogicalResult CallMethodOp::verify() { return verifyCallNode(*this); }

LogicalResult CallModuleOp::verify() {
  if (failed(verifyCallNode(*this)))
    return failure();
  if (getModuleClass().empty())
    return emitNodeError(*this) << "empty module_class";
  if (getConfigAttr() &&
      failed(checkDictionaryKeys(getConfigAttr(), "config",
                                 [&] { return emitNodeError(*this); })))
    return failure();
  return success();
}

LogicalResult
CallModuleOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  if (!getBodyAttr())
    return success();
  if (!symbolTable.lookupNearestSymbolFrom<GraphOp>(*this, getBodyAttr()))
    return emitNodeError(*this)
           << "body " << getBodyAttr() << " is not a mav.graph";
  return success();
}

//===----------------------------------------------------------------------===//
// get_attr
//===----------------------------------------------------------------------===//

ParseResult GetAttrOp::parse(OpAsmParser &parser, OperationState &result) {
  FlatSymbolRefAttr target;
  Type type;
  if (parseNodeName(parser, result) ||
      parser.parseAttribute(target, "target", result.attributes) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type))
    return failure();
  result.addTypes(type);
  return moveInherentAttrsToProperties<GetAttrOp>(parser, result);
}

void GetAttrOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printAttributeWithoutType(getTargetAttr());
  printer.printOptionalAttrDict(getPrintedAttrs(*this), {"name", "target"});
  printer << " : " << getResult().getType();
}

void GetAttrOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNodeResultNames(*this, setNameFn);
}

LogicalResult GetAttrOp::verify() { return verifyNode(*this); }

LogicalResult GetAttrOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto weight =
      symbolTable.lookupNearestSymbolFrom<WeightOp>(*this, getTargetAttr());
  if (!weight)
    return emitNodeError(*this) << "target " << getTargetAttr()
                                << " is not a mav.weight of this module";
  Type type = getResult().getType();
  if (type.isa<RankedTensorType>() && type != weight.getWeightType())
    return emitNodeError(*this)
           << "result type " << type << " differs from the type "
           << weight.getWeightType() << " of weight " << getTargetAttr();
  return success();
}

//===----------------------------------------------------------------------===//
// learnable
//===----------------------------------------------------------------------===//

ParseResult LearnableOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand input;
  Type type;
  if (parseNodeName(parser, result) || parser.parseOperand(input) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type) ||
      parser.resolveOperand(input, type, result.operands))
    return failure();
  result.addTypes(type);
  return moveInherentAttrsToProperties<LearnableOp>(parser, result);
}

void LearnableOp::print(OpAsmPrinter &printer) {
  printer << ' ' << getInput();
  printer.printOptionalAttrDict(getPrintedAttrs(*this), {"name"});
  printer << " : " << getResult().getType();
}

void LearnableOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNodeResultNames(*this, setNameFn);
}

LogicalResult LearnableOp::verify() {
  if (failed(verifyNode(*this)))
    return failure();
  if (getParamCountAttr().getInt() < 0)
    return emitNodeError(*this) << "param_count must not be negative";
  return success();
}

//===----------------------------------------------------------------------===//
// weight
//===----------------------------------------------------------------------===//

static constexpr StringLiteral elidedWeightKey = "__elided__";

ParseResult WeightOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  StringRef kindName;
  Attribute value;
  if (parser.parseSymbolName(name, "sym_name", result.attributes))
    return failure();
  SMLoc kindLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&kindName))
    return failure();
  std::optional<WeightKind> kind = symbolizeWeightKind(kindName);
  if (!kind)
    return parser.emitError(kindLoc,
                            "expected 'parameter', 'buffer' or 'constant'");
  SMLoc valueLoc = parser.getCurrentLocation();
  if (parser.parseEqual() || parser.parseAttribute(value) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  if (!value.isa<ElementsAttr>())
    return parser.emitError(valueLoc, "expected an elements attribute");
  result.addAttribute("kind", WeightKindAttr::get(parser.getContext(), *kind));
  result.addAttribute("value", value);
  return moveInherentAttrsToProperties<WeightOp>(parser, result);
}

void WeightOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printSymbolName(getSymName());
  printer << ' ' << stringifyWeightKind(getKind()) << " = ";
  auto *dialect = getContext()->getLoadedDialect<MavDialect>();
  auto resource = getValue().dyn_cast<DenseResourceElementsAttr>();
  if (resource && dialect->getElideWeights())
    printer << "dense_resource<" << elidedWeightKey
            << "> : " << getValue().getType();
  else if (resource && dialect->getWeightsByReference())
    printer << "dense_resource<" << resource.getRawHandle().getKey()
            << "> : " << getValue().getType();
  else
    printer.printAttribute(getValue());
  printer.printOptionalAttrDict(getPrintedAttrs(*this),
                                {"sym_name", "kind", "value"});
}

LogicalResult WeightOp::verify() {
  auto type = getValue().getType().dyn_cast<RankedTensorType>();
  if (!type || !type.hasStaticShape() || !isTensorType(type))
    return emitOpError() << "weight '" << getSymName()
                         << "' must be a statically shaped tensor, got "
                         << getValue().getType();
  if (auto resource = getValue().dyn_cast<DenseResourceElementsAttr>()) {
    StringRef key = resource.getRawHandle().getKey();
    if (!isIdentifier(key, "$."))
      return emitOpError() << "weight '" << getSymName() << "': resource key '"
                           << key
                           << "' is not an identifier, so its text would "
                              "not parse";
  }
  if (getFrozen() && getKind() != WeightKind::parameter)
    return emitOpError() << "weight '" << getSymName()
                         << "': only parameters can be frozen";
  return success();
}

LogicalResult WeightOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  if (!getTiedToAttr())
    return success();
  auto tied =
      symbolTable.lookupNearestSymbolFrom<WeightOp>(*this, getTiedToAttr());
  if (!tied || tied.getTiedToAttr())
    return emitOpError() << "weight '" << getSymName() << "' is tied to "
                         << getTiedToAttr()
                         << ", which is not an untied mav.weight";
  if (tied.getValue() != getValue())
    return emitOpError() << "weight '" << getSymName()
                         << "' must hold the same value as " << getTiedToAttr()
                         << ", the weight it is tied to";
  return success();
}

//===----------------------------------------------------------------------===//
// graph
//===----------------------------------------------------------------------===//

static constexpr StringRef graphElidedAttrs[] = {"sym_name", "function_type",
                                                 "arg_names", "sym_visibility"};

ParseResult GraphOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  StringRef visibility;
  if (succeeded(parser.parseOptionalKeyword(&visibility,
                                            {"private", "public", "nested"})))
    result.addAttribute("sym_visibility", builder.getStringAttr(visibility));
  StringAttr name;
  SmallVector<OpAsmParser::Argument> arguments;
  SmallVector<Type> resultTypes;
  if (parser.parseSymbolName(name, "sym_name", result.attributes) ||
      parser.parseArgumentList(arguments, AsmParser::Delimiter::Paren,
                               /*allowType=*/true) ||
      parser.parseOptionalArrowTypeList(resultTypes) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();

  SmallVector<Type> argumentTypes;
  SmallVector<Attribute> argumentNames;
  for (OpAsmParser::Argument &argument : arguments) {
    argumentTypes.push_back(argument.type);
    StringRef argName = argument.ssaName.name;
    argName.consume_front("%");
    argumentNames.push_back(builder.getStringAttr(argName));
  }
  result.addAttribute("function_type", TypeAttr::get(builder.getFunctionType(
                                           argumentTypes, resultTypes)));
  result.addAttribute("arg_names", builder.getArrayAttr(argumentNames));
  if (failed(moveInherentAttrsToProperties<GraphOp>(parser, result)))
    return failure();
  return parser.parseRegion(*result.addRegion(), arguments);
}

void GraphOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  if (auto visibility = getSymVisibility())
    printer << *visibility << ' ';
  printer.printSymbolName(getSymName());
  printer << '(';
  llvm::interleaveComma(
      getBodyBlock().getArguments(), printer,
      [&](BlockArgument argument) { printer.printRegionArgument(argument); });
  printer << ')';
  ArrayRef<Type> resultTypes = getFunctionType().getResults();
  if (!resultTypes.empty()) {
    printer << " -> ";
    if (resultTypes.size() == 1)
      printer << resultTypes.front();
    else
      printer << '(' << resultTypes << ')';
  }
  printer.printOptionalAttrDictWithKeyword(getPrintedAttrs(*this),
                                           graphElidedAttrs);
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

void GraphOp::getAsmBlockArgumentNames(Region &region,
                                       OpAsmSetValueNameFn setNameFn) {
  ArrayAttr names = getArgNames();
  for (BlockArgument argument : region.getArguments())
    if (argument.getArgNumber() < names.size())
      setNameFn(argument,
                names[argument.getArgNumber()].cast<StringAttr>().getValue());
}

OutputOp GraphOp::getOutput() {
  return dyn_cast<OutputOp>(getBodyBlock().getTerminator());
}

// Before the nested ops verify themselves: a graph in a graph would first
// fail as a symbol outside a symbol table.
LogicalResult GraphOp::verify() {
  for (Operation &op : getBody().getOps())
    if (!isa<NodeOpInterface, OutputOp>(op))
      return op.emitOpError()
             << "is not a mav node: a graph holds get_attr, call_module, "
                "call_function and call_method nodes and ends with "
                "mav.output";
  return success();
}

LogicalResult GraphOp::verifyRegions() {
  Block &block = getBodyBlock();
  FunctionType type = getFunctionType();
  if (block.getArgumentTypes() != type.getInputs())
    return emitOpError() << "graph '" << getSymName()
                         << "': placeholder types do not match "
                         << getFunctionTypeAttr();
  for (StringRef key : {"inputs", "outputs"}) {
    Attribute metadata = (*this)->getAttr(key);
    auto entries = metadata.dyn_cast_or_null<ArrayAttr>();
    if (metadata && (!entries || !llvm::all_of(entries, [](Attribute entry) {
          return entry.isa<ValueMetaAttr>();
        })))
      return emitOpError() << "graph '" << getSymName() << "': '" << key
                           << "' metadata must be a list of #mav.value, got "
                           << metadata;
  }
  ArrayAttr argNames = getArgNames();
  if (argNames.size() != block.getNumArguments())
    return emitOpError() << "graph '" << getSymName() << "' has "
                         << block.getNumArguments() << " placeholders but "
                         << argNames.size() << " arg_names";

  llvm::DenseSet<StringAttr> definedNames;
  definedNames.reserve(block.getNumArguments() + block.getOperations().size());
  auto claimName = [&](StringAttr name, Location loc) -> LogicalResult {
    if (definedNames.insert(name).second)
      return success();
    return mlir::emitError(loc)
           << "node name '" << name.getValue() << "' is already used in graph '"
           << getSymName() << "'";
  };
  for (auto [argument, nameAttr] : llvm::zip(block.getArguments(), argNames)) {
    auto name = nameAttr.dyn_cast<StringAttr>();
    if (!name || !isValidNodeName(name.getValue()))
      return emitOpError() << "graph '" << getSymName() << "': placeholder "
                           << nameAttr << " is not a Python identifier";
    if (failed(claimName(name, getLoc())))
      return failure();
  }

  for (Operation &op : block) {
    if (auto node = dyn_cast<NodeOpInterface>(op))
      if (failed(claimName(node.getNodeNameAttr(), op.getLoc())))
        return failure();
    for (Value operand : op.getOperands()) {
      // Operands from outside the graph are left to the region verifier.
      Operation *producer = operand.getDefiningOp();
      if (producer && producer->getBlock() == &block &&
          !producer->isBeforeInBlock(&op))
        return (isa<OutputOp>(op) ? op.emitError() << "output: "
                                  : emitNodeError(&op))
               << "uses '" << getNodeNameOrEmpty(producer)
               << "' before it is defined";
    }
  }
  OutputOp output = getOutput();
  if (!output)
    return emitOpError() << "graph '" << getSymName()
                         << "' must end with mav.output";
  if (output.getOperands().getTypes() != type.getResults())
    return output.emitError()
           << "output types (" << output.getOperands().getTypes()
           << ") do not match the results of graph '" << getSymName() << "' ("
           << type.getResults() << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// output
//===----------------------------------------------------------------------===//

ParseResult OutputOp::parse(OpAsmParser &parser, OperationState &result) {
  Attribute value;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> types;
  if (parseArgumentValue(parser, value, operands))
    return failure();
  if (!operands.empty() && (parser.parseColon() || parser.parseTypeList(types)))
    return failure();
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.resolveOperands(operands, types, parser.getCurrentLocation(),
                             result.operands))
    return failure();
  result.addAttribute("value", value);
  return moveInherentAttrsToProperties<OutputOp>(parser, result);
}

void OutputOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printArgumentValue(printer, getValue(), getOperands());
  if (!getOperands().empty())
    printer << " : " << getOperands().getTypes();
  printer.printOptionalAttrDict(getPrintedAttrs(*this), {"value"});
}

LogicalResult OutputOp::verify() {
  return verifyArgumentTree(getValue(), getOperands().size(),
                            [&] { return emitError() << "output: "; });
}

#include "mav/IR/MavOpsInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "mav/IR/MavOps.cpp.inc"
