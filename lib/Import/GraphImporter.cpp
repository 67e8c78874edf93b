//===- GraphImporter.cpp - TorchScript graphs as mav graphs ---------------===//
//
// Walks a TorchScript method graph node by node. Calls into leaf modules
// become `call_module` nodes whose body is imported once as a private graph;
// calls into other modules are inlined with their scope recorded. Constants,
// lists and tuples are folded into the arguments of their users; attributes
// become `get_attr` nodes or constants.
//
//===----------------------------------------------------------------------===//

#include "ImporterInternals.h"

#include "mav/IR/NodeArguments.h"
#include "mav/IR/NodeNamer.h"
#include "mav/Operators/OpRegistry.h"

#include "llvm/ADT/StringExtras.h"

#include <torch/csrc/jit/ir/constants.h>

using namespace mlir;
using namespace mav;
using namespace mav::detail;

namespace {

/// The module a part of a graph belongs to.
struct Scope {
  torch::jit::Module module;
  std::string path;
  std::string className;
};

/// What a TorchScript value became: a run time value, or a constant, module,
/// list, tuple or dict folded into the arguments of its users. A dict's
/// elements alternate key, value, in insertion order.
struct Imported {
  enum class Kind { Value, Constant, Module, List, Tuple, Dict };
  Kind kind = Kind::Value;
  Value value;
  c10::IValue constant;
  std::shared_ptr<Scope> module;
  std::vector<Imported> elements;

  static Imported ofValue(Value value) {
    Imported imported;
    imported.value = value;
    return imported;
  }
  static Imported ofConstant(c10::IValue constant) {
    Imported imported;
    imported.kind = Kind::Constant;
    imported.constant = std::move(constant);
    return imported;
  }
  static Imported ofModule(Scope scope) {
    Imported imported;
    imported.kind = Kind::Module;
    imported.module = std::make_shared<Scope>(std::move(scope));
    return imported;
  }
};

using Frame = llvm::DenseMap<const torch::jit::Value *, Imported>;

std::string joinPath(StringRef prefix, StringRef name) {
  return prefix.empty() ? name.str() : (prefix + "." + name).str();
}

/// FX names placeholders after the forward's parameters; TorchScript adds a
/// `.N` suffix to debug names.
std::string placeholderName(const torch::jit::Value *value) {
  std::string debugName = value->debugName();
  StringRef name = debugName;
  auto [base, suffix] = name.rsplit('.');
  if (!suffix.empty() &&
      llvm::all_of(suffix, [](char c) { return llvm::isDigit(c); }))
    name = base;
  if (name.empty() || llvm::isDigit(name.front()))
    return "input";
  return name.str();
}

bool callsOtherModules(const torch::jit::Block *block) {
  for (const torch::jit::Node *node : block->nodes()) {
    if (node->kind() == c10::prim::CallMethod)
      return true;
    for (const torch::jit::Block *inner : node->blocks())
      if (callsOtherModules(inner))
        return true;
  }
  return false;
}

bool isControlFlow(c10::Symbol kind) {
  return kind == c10::prim::If || kind == c10::prim::Loop ||
         kind == c10::prim::CallFunction || kind == c10::prim::Closure ||
         kind == c10::prim::fork || kind == c10::prim::Enter ||
         kind == c10::prim::Exit;
}

class GraphImporter {
public:
  GraphImporter(ImportContext &ctx, GraphOp graph, bool inlineEverything)
      : ctx(ctx), graph(graph), builder(graph.getBody()),
        inlineEverything(inlineEverything) {}

  /// Creates the placeholders of the graph from TorchScript inputs.
  void addPlaceholders(ArrayRef<const torch::jit::Value *> inputs,
                       ArrayRef<Type> types, Frame &frame);

  /// Imports the nodes of `block`, whose inputs `frame` holds, and collects
  /// what the block returns.
  LogicalResult importBlock(const torch::jit::Block *block, Frame &frame,
                            const Scope &scope,
                            SmallVectorImpl<Imported> &outputs);

  /// Ends the graph with mav.output and sets its signature.
  LogicalResult finish(ArrayRef<Imported> outputs, const Scope &scope);

  /// Leaf bodies: the operator of the leaf class, the configuration read off
  /// the first node computing it, and that of every operator node (the
  /// fallback is the node producing the body's result).
  const OpInfo *leafOp = nullptr;
  DictionaryAttr leafConfig;
  llvm::DenseMap<Operation *, DictionaryAttr> nodeConfigs;

private:
  LogicalResult importNode(const torch::jit::Node *node, Frame &frame,
                           const Scope &scope);
  LogicalResult importConstant(const torch::jit::Node *node, Frame &frame,
                               const Scope &scope);
  LogicalResult importGetAttr(const torch::jit::Node *node, Frame &frame,
                              const Scope &scope);
  LogicalResult importCallMethod(const torch::jit::Node *node, Frame &frame,
                                 const Scope &scope);
  LogicalResult importOperator(const torch::jit::Node *node, Frame &frame,
                               const Scope &scope);
  Value createGetAttr(WeightOp weight, const torch::jit::Node *node,
                      const Scope &scope);

  FailureOr<Attribute> buildArgument(const Imported &value,
                                     const c10::TypePtr &argType,
                                     ArgumentTreeBuilder &args,
                                     const torch::jit::Node *user,
                                     const Scope &scope);
  bool isLeaf(const Scope &callee, const torch::jit::Graph &method);
  FailureOr<GraphOp> getOrImportBody(const Scope &callee,
                                     const std::string &method);
  DictionaryAttr readConfig(const torch::jit::Node *node, Frame &frame);

  InFlightDiagnostic emitNodeError(const torch::jit::Node *node,
                                   const Scope &scope);
  Location locationOf(const torch::jit::Node *node);
  ScopeAttr scopeAttr(const Scope &scope) {
    return ScopeAttr::get(ctx.context, scope.path, scope.className);
  }
  SmallVector<Type> resultTypes(const torch::jit::Node *node);
  void mapResults(const torch::jit::Node *node, Operation *op, Frame &frame);

  ImportContext &ctx;
  GraphOp graph;
  OpBuilder builder;
  NodeNamer namer;
  bool inlineEverything;
};

} // namespace

//===----------------------------------------------------------------------===//
// Diagnostics and locations
//===----------------------------------------------------------------------===//

InFlightDiagnostic GraphImporter::emitNodeError(const torch::jit::Node *node,
                                                const Scope &scope) {
  std::string nodeName =
      node->outputs().empty() ? "" : "%" + node->output(0)->debugName() + " ";
  std::string module =
      scope.path.empty() ? "the root module" : "module '" + scope.path + "'";
  InFlightDiagnostic diagnostic = ctx.emitError()
                                  << "node " << nodeName << "("
                                  << node->kind().toQualString() << ") in "
                                  << module << " (" << scope.className << "): ";
  // Where in the model's Python source the node was traced.
  Location source = locationOf(node);
  if (auto fileLineCol = dyn_cast<FileLineColLoc>(source);
      fileLineCol && fileLineCol.getLine())
    diagnostic.attachNote(source) << "traced from here";
  return diagnostic;
}

/// The Python source a node came from: a saved archive's node points into
/// its serialized code, and the archive's debug records say what range of
/// the original source generated that code.
Location GraphImporter::locationOf(const torch::jit::Node *node) {
  torch::jit::SourceRange range = node->sourceRange();
  if (auto original = range.findSourceRangeThatGenerated())
    range = *original;
  if (auto fileLineCol = range.file_line_col())
    return FileLineColLoc::get(ctx.context, std::get<0>(*fileLineCol),
                               std::get<1>(*fileLineCol),
                               std::get<2>(*fileLineCol));
  return FileLineColLoc::get(ctx.context, ctx.fileName, 0, 0);
}

//===----------------------------------------------------------------------===//
// Blocks and graphs
//===----------------------------------------------------------------------===//

void GraphImporter::addPlaceholders(ArrayRef<const torch::jit::Value *> inputs,
                                    ArrayRef<Type> types, Frame &frame) {
  Block &block = graph.getBodyBlock();
  SmallVector<Attribute> names;
  for (auto [input, type] : llvm::zip(inputs, types)) {
    BlockArgument argument = block.addArgument(type, graph.getLoc());
    names.push_back(builder.getStringAttr(namer.claim(placeholderName(input))));
    frame[input] = Imported::ofValue(argument);
  }
  graph.setArgNamesAttr(builder.getArrayAttr(names));
}

LogicalResult GraphImporter::importBlock(const torch::jit::Block *block,
                                         Frame &frame, const Scope &scope,
                                         SmallVectorImpl<Imported> &outputs) {
  for (const torch::jit::Node *node : block->nodes())
    if (failed(importNode(node, frame, scope)))
      return failure();
  for (const torch::jit::Value *output : block->outputs())
    outputs.push_back(frame.lookup(output));
  return success();
}

LogicalResult GraphImporter::finish(ArrayRef<Imported> outputs,
                                    const Scope &scope) {
  ArgumentTreeBuilder tree(ctx.context);
  SmallVector<Attribute> values;
  for (const Imported &output : outputs) {
    FailureOr<Attribute> value =
        buildArgument(output, nullptr, tree, nullptr, scope);
    if (failed(value))
      return failure();
    values.push_back(*value);
  }
  Attribute value = values.size() == 1 ? values.front() : tree.tuple(values);
  builder.create<OutputOp>(graph.getLoc(), tree.getOperands(), value);
  graph.setFunctionTypeAttr(TypeAttr::get(
      builder.getFunctionType(graph.getBodyBlock().getArgumentTypes(),
                              ValueRange(tree.getOperands()).getTypes())));
  return success();
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

/// The element that `dict[key]` reads, when the dict was folded and the key
/// is a constant; null otherwise.
static const Imported *lookupDictItem(const torch::jit::Node *node,
                                      const Frame &frame) {
  if (node->kind() != c10::aten::__getitem__ || node->inputs().size() != 2)
    return nullptr;
  auto dict = frame.find(node->input(0));
  auto key = frame.find(node->input(1));
  if (dict == frame.end() || key == frame.end() ||
      dict->second.kind != Imported::Kind::Dict ||
      key->second.kind != Imported::Kind::Constant)
    return nullptr;
  const std::vector<Imported> &items = dict->second.elements;
  for (size_t index = 0; index + 1 < items.size(); index += 2)
    if (items[index].kind == Imported::Kind::Constant &&
        items[index].constant == key->second.constant)
      return &items[index + 1];
  return nullptr;
}

LogicalResult GraphImporter::importNode(const torch::jit::Node *node,
                                        Frame &frame, const Scope &scope) {
  c10::Symbol kind = node->kind();
  if (kind == c10::prim::Constant)
    return importConstant(node, frame, scope);
  if (kind == c10::prim::ListConstruct || kind == c10::prim::TupleConstruct) {
    Imported folded;
    folded.kind = kind == c10::prim::ListConstruct ? Imported::Kind::List
                                                   : Imported::Kind::Tuple;
    for (const torch::jit::Value *input : node->inputs())
      folded.elements.push_back(frame.lookup(input));
    frame[node->output()] = std::move(folded);
    return success();
  }
  if (kind == c10::prim::DictConstruct) {
    Imported folded;
    folded.kind = Imported::Kind::Dict;
    for (const torch::jit::Value *input : node->inputs())
      folded.elements.push_back(frame.lookup(input));
    frame[node->output()] = std::move(folded);
    return success();
  }
  if (const Imported *element = lookupDictItem(node, frame)) {
    Imported found = *element;
    frame[node->output()] = std::move(found);
    return success();
  }
  if (kind == c10::prim::ListUnpack || kind == c10::prim::TupleUnpack) {
    const Imported &packed = frame.lookup(node->input());
    if ((packed.kind == Imported::Kind::List ||
         packed.kind == Imported::Kind::Tuple) &&
        packed.elements.size() == node->outputs().size()) {
      for (auto [output, element] : llvm::zip(node->outputs(), packed.elements))
        frame[output] = element;
      return success();
    }
  }
  if (kind == c10::prim::GetAttr)
    return importGetAttr(node, frame, scope);
  if (kind == c10::prim::CallMethod)
    return importCallMethod(node, frame, scope);
  if (StringRef(kind.ns().toUnqualString()) == "quantized")
    return emitNodeError(node, scope)
           << "quantized models are not supported: import the float model";
  if (const UnsupportedOp *unsupported =
          lookupUnsupportedOp(kind.toQualString()))
    return emitNodeError(node, scope)
           << "operator '" << unsupported->atenOp
           << "' is not supported: " << unsupported->reason;
  if (isControlFlow(kind))
    return emitNodeError(node, scope)
           << "control flow and function calls are not supported; trace the "
              "model with torch.jit.trace";
  return importOperator(node, frame, scope);
}

LogicalResult GraphImporter::importConstant(const torch::jit::Node *node,
                                            Frame &frame, const Scope &scope) {
  std::optional<c10::IValue> constant = torch::jit::toIValue(node->output());
  if (!constant)
    return emitNodeError(node, scope) << "constant without a value";
  if (!constant->isTensor()) {
    frame[node->output()] = Imported::ofConstant(*constant);
    return success();
  }
  // A tensor constant is a buffer read by get_attr, as in torch.fx.
  std::string name =
      "_tensor_constant" + std::to_string(ctx.numTensorConstants);
  FailureOr<WeightOp> weight =
      getOrCreateWeight(ctx, constant->toTensor(), name, WeightKind::constant);
  if (failed(weight))
    return failure();
  if (weight->getSymName() == name)
    ++ctx.numTensorConstants;
  frame[node->output()] =
      Imported::ofValue(createGetAttr(*weight, node, scope));
  return success();
}

Value GraphImporter::createGetAttr(WeightOp weight,
                                   const torch::jit::Node *node,
                                   const Scope &scope) {
  std::string name = namer.claim(NodeNamer::fromPath(weight.getSymName()));
  auto op =
      builder.create<GetAttrOp>(locationOf(node), weight.getWeightType(),
                                FlatSymbolRefAttr::get(weight.getSymNameAttr()),
                                builder.getStringAttr(name), scopeAttr(scope),
                                Attribute(), Attribute(), Attribute());
  return op.getResult();
}

LogicalResult GraphImporter::importGetAttr(const torch::jit::Node *node,
                                           Frame &frame, const Scope &scope) {
  const Imported &owner = frame.lookup(node->input());
  if (owner.kind != Imported::Kind::Module)
    return emitNodeError(node, scope) << "attribute of a value that is not a "
                                         "module";
  const std::string &name = node->s(c10::attr::name);
  const Scope &ownerScope = *owner.module;
  c10::IValue attribute = ownerScope.module.attr(name);
  std::string path = joinPath(ownerScope.path, name);
  if (attribute.isModule()) {
    torch::jit::Module child = attribute.toModule();
    std::string className = demangleClassName(child.type());
    frame[node->output()] =
        Imported::ofModule({std::move(child), path, std::move(className)});
    return success();
  }
  if (!attribute.isTensor()) {
    frame[node->output()] = Imported::ofConstant(attribute);
    return success();
  }
  const c10::ClassTypePtr &ownerType = ownerScope.module.type();
  size_t slot = ownerType->getAttributeSlot(name);
  FailureOr<WeightOp> weight =
      getOrCreateWeight(ctx, attribute.toTensor(), path,
                        ownerType->is_parameter(slot) ? WeightKind::parameter
                                                      : WeightKind::buffer);
  if (failed(weight))
    return failure();
  frame[node->output()] =
      Imported::ofValue(createGetAttr(*weight, node, scope));
  return success();
}

bool GraphImporter::isLeaf(const Scope &callee,
                           const torch::jit::Graph &method) {
  if (inlineEverything)
    return false;
  StringRef className = callee.className;
  StringRef shortName = className.rsplit('.').second;
  for (const std::string &leaf : ctx.options.leafModules)
    if (leaf == className || (!shortName.empty() && leaf == shortName))
      return true;
  return className.starts_with("torch.nn.") &&
         !callsOtherModules(method.block());
}

LogicalResult GraphImporter::importCallMethod(const torch::jit::Node *node,
                                              Frame &frame,
                                              const Scope &scope) {
  const Imported &object = frame.lookup(node->inputs()[0]);
  if (object.kind != Imported::Kind::Module)
    return emitNodeError(node, scope) << "method call on a value that is not "
                                         "a module";
  const Scope &callee = *object.module;
  const std::string &methodName = node->s(c10::attr::name);
  std::shared_ptr<torch::jit::Graph> method =
      callee.module.get_method(methodName).graph();

  if (!isLeaf(callee, *method)) {
    Frame inner;
    inner[method->inputs()[0]] = object;
    for (size_t i = 1; i < node->inputs().size(); ++i)
      inner[method->inputs()[i]] = frame.lookup(node->inputs()[i]);
    SmallVector<Imported> outputs;
    if (failed(importBlock(method->block(), inner, callee, outputs)))
      return failure();
    for (auto [output, imported] : llvm::zip(node->outputs(), outputs))
      frame[output] = imported;
    return success();
  }

  FailureOr<GraphOp> body = getOrImportBody(callee, methodName);
  if (failed(body))
    return failure();
  ArgumentTreeBuilder tree(ctx.context);
  SmallVector<Attribute> args;
  for (const torch::jit::Value *input : node->inputs().slice(1)) {
    FailureOr<Attribute> arg =
        buildArgument(frame.lookup(input), nullptr, tree, node, scope);
    if (failed(arg))
      return failure();
    args.push_back(*arg);
  }
  std::string name = namer.claim(NodeNamer::fromPath(callee.path));
  auto op = builder.create<CallModuleOp>(
      locationOf(node), resultTypes(node), tree.getOperands(),
      builder.getStringAttr(callee.path), builder.getArrayAttr(args),
      builder.getDictionaryAttr({}), builder.getStringAttr(callee.className),
      ctx.bodyConfigs.lookup(body->getSymName()),
      FlatSymbolRefAttr::get(body->getSymNameAttr()),
      builder.getStringAttr(name), scopeAttr(callee), Attribute(), Attribute(),
      Attribute());
  mapResults(node, op, frame);
  return success();
}

FailureOr<GraphOp> GraphImporter::getOrImportBody(const Scope &callee,
                                                  const std::string &method) {
  std::string symbol = joinPath(callee.path, method);
  if (GraphOp existing = ctx.bodies.lookup(symbol))
    return existing;
  std::shared_ptr<torch::jit::Graph> graph =
      callee.module.get_method(method).graph();

  OpBuilder moduleBuilder = OpBuilder::atBlockEnd(ctx.module.getBody());
  auto body = moduleBuilder.create<GraphOp>(
      FileLineColLoc::get(ctx.context, ctx.fileName, 0, 0),
      moduleBuilder.getStringAttr(symbol),
      TypeAttr::get(moduleBuilder.getFunctionType({}, {})),
      moduleBuilder.getArrayAttr({}), moduleBuilder.getStringAttr("private"));
  body.getBody().emplaceBlock();
  ctx.bodies[symbol] = body;

  GraphImporter importer(ctx, body, /*inlineEverything=*/true);
  importer.leafOp = lookupModuleClass(callee.className);
  Frame frame;
  frame[graph->inputs()[0]] = Imported::ofModule(callee);
  SmallVector<const torch::jit::Value *> inputs(graph->inputs().begin() + 1,
                                                graph->inputs().end());
  SmallVector<Type> types = llvm::to_vector(
      llvm::map_range(inputs, [&](const torch::jit::Value *input) {
        return convertType(input->type(), ctx.context);
      }));
  importer.addPlaceholders(inputs, types, frame);
  SmallVector<Imported> outputs;
  if (failed(importer.importBlock(graph->block(), frame, callee, outputs)) ||
      failed(importer.finish(outputs, callee)))
    return failure();

  NamedAttrList config;
  DictionaryAttr principal = importer.leafConfig;
  if (!principal && !body.getOutput().getOperands().empty())
    if (Operation *producer =
            body.getOutput().getOperands().front().getDefiningOp())
      principal = importer.nodeConfigs.lookup(producer);
  if (principal)
    config.append(principal.getValue());
  config.set("training",
             moduleBuilder.getBoolAttr(callee.module.is_training()));
  ctx.bodyConfigs[symbol] = config.getDictionary(ctx.context);
  return body;
}

DictionaryAttr GraphImporter::readConfig(const torch::jit::Node *node,
                                         Frame &frame) {
  const c10::FunctionSchema *schema = node->maybeSchema();
  if (!schema)
    return {};
  NamedAttrList config;
  for (auto [input, argument] :
       llvm::zip(node->inputs(), schema->arguments())) {
    ArgumentTreeBuilder scratch(ctx.context);
    const Imported &value = frame.lookup(input);
    if (value.kind == Imported::Kind::Value)
      continue;
    FailureOr<Attribute> attr =
        buildArgument(value, argument.real_type(), scratch, nullptr, {});
    if (succeeded(attr) && scratch.getOperands().empty())
      config.set(argument.name(), *attr);
  }
  return config.getDictionary(ctx.context);
}

LogicalResult GraphImporter::importOperator(const torch::jit::Node *node,
                                            Frame &frame, const Scope &scope) {
  std::string qualified = node->kind().toQualString();
  std::string unqualified = node->kind().toUnqualString();
  const c10::FunctionSchema *schema = node->maybeSchema();
  const OpInfo *info = lookupAtenOp(qualified);
  bool isMethod =
      info && schema && !schema->arguments().empty() &&
      schema->arguments()[0].name() == "self" &&
      llvm::is_contained(info->tensorMethods, unqualified) &&
      !llvm::is_contained(info->functionals, "torch." + unqualified);

  ArgumentTreeBuilder tree(ctx.context);
  SmallVector<Attribute> args;
  SmallVector<std::pair<std::string, size_t>> keywords;
  for (auto [index, input] : llvm::enumerate(node->inputs())) {
    const c10::Argument *argument = schema && index < schema->arguments().size()
                                        ? &schema->arguments()[index]
                                        : nullptr;
    if (argument && argument->kwarg_only()) {
      keywords.emplace_back(argument->name(), index);
      continue;
    }
    FailureOr<Attribute> arg = buildArgument(
        frame.lookup(input), argument ? argument->real_type() : nullptr, tree,
        node, scope);
    if (failed(arg))
      return failure();
    args.push_back(*arg);
  }
  llvm::sort(keywords);
  SmallVector<NamedAttribute> kwargs;
  for (auto &[keyword, index] : keywords) {
    FailureOr<Attribute> arg = buildArgument(
        frame.lookup(node->inputs()[index]),
        schema->arguments()[index].real_type(), tree, node, scope);
    if (failed(arg))
      return failure();
    kwargs.emplace_back(builder.getStringAttr(keyword), *arg);
  }

  DictionaryAttr config;
  if (inlineEverything && (leafOp || !leafConfig))
    config = readConfig(node, frame);
  Location loc = locationOf(node);
  Operation *op;
  if (isMethod) {
    std::string name = namer.claim(NodeNamer::fromOperator(unqualified));
    op = builder.create<CallMethodOp>(
        loc, resultTypes(node), tree.getOperands(),
        builder.getStringAttr(unqualified), builder.getArrayAttr(args),
        builder.getDictionaryAttr(kwargs), builder.getStringAttr(name),
        scopeAttr(scope), Attribute(), Attribute(), Attribute());
  } else {
    std::string name = namer.claim(NodeNamer::fromOperator(qualified));
    // The overload TorchScript resolved makes the target exact.
    std::string target = qualified;
    if (schema && !schema->overload_name().empty())
      target += "." + schema->overload_name();
    op = builder.create<CallFunctionOp>(
        loc, resultTypes(node), tree.getOperands(),
        builder.getStringAttr(target), builder.getArrayAttr(args),
        builder.getDictionaryAttr(kwargs), builder.getStringAttr(name),
        scopeAttr(scope), Attribute(), Attribute(), Attribute());
  }
  mapResults(node, op, frame);
  if (config) {
    nodeConfigs[op] = config;
    if (!leafConfig && leafOp &&
        lookupAtenOp(node->kind().toQualString()) == leafOp)
      leafConfig = config;
  }
  return success();
}

SmallVector<Type> GraphImporter::resultTypes(const torch::jit::Node *node) {
  SmallVector<Type> types;
  for (const torch::jit::Value *output : node->outputs())
    types.push_back(convertType(output->type(), ctx.context));
  if (types.empty())
    types.push_back(mav::NoneType::get(ctx.context));
  return types;
}

void GraphImporter::mapResults(const torch::jit::Node *node, Operation *op,
                               Frame &frame) {
  for (auto [output, result] : llvm::zip(node->outputs(), op->getResults()))
    frame[output] = Imported::ofValue(result);
}

FailureOr<Attribute> GraphImporter::buildArgument(const Imported &value,
                                                  const c10::TypePtr &argType,
                                                  ArgumentTreeBuilder &tree,
                                                  const torch::jit::Node *user,
                                                  const Scope &scope) {
  auto fail = [&](StringRef what) -> FailureOr<Attribute> {
    if (user)
      emitNodeError(user, scope) << what;
    else
      ctx.emitError() << what;
    return failure();
  };
  switch (value.kind) {
  case Imported::Kind::Value:
    if (!value.value)
      return fail("uses a value the importer did not produce");
    return tree.use(value.value);
  case Imported::Kind::Constant: {
    FailureOr<Attribute> constant =
        convertConstant(value.constant, argType, ctx.context);
    if (failed(constant))
      return fail("constant of type " + value.constant.tagKind() +
                  " cannot be a node argument");
    return constant;
  }
  case Imported::Kind::Module:
    return fail("a module object cannot be a node argument");
  case Imported::Kind::List:
  case Imported::Kind::Tuple: {
    c10::TypePtr type = argType;
    if (type && type->kind() == c10::TypeKind::OptionalType)
      type = type->expectRef<c10::OptionalType>().getElementType();
    SmallVector<Attribute> elements;
    for (auto [index, element] : llvm::enumerate(value.elements)) {
      c10::TypePtr elementType;
      if (type && type->kind() == c10::TypeKind::ListType)
        elementType = type->expectRef<c10::ListType>().getElementType();
      else if (type && type->kind() == c10::TypeKind::TupleType &&
               index < type->containedTypes().size())
        elementType = type->containedTypes()[index];
      FailureOr<Attribute> converted =
          buildArgument(element, elementType, tree, user, scope);
      if (failed(converted))
        return failure();
      elements.push_back(*converted);
    }
    return value.kind == Imported::Kind::List ? tree.list(elements)
                                              : tree.tuple(elements);
  }
  case Imported::Kind::Dict: {
    SmallVector<Attribute> keys, values;
    for (size_t index = 0; index + 1 < value.elements.size(); index += 2) {
      FailureOr<Attribute> key =
          buildArgument(value.elements[index], nullptr, tree, user, scope);
      FailureOr<Attribute> element =
          buildArgument(value.elements[index + 1], nullptr, tree, user, scope);
      if (failed(key) || failed(element))
        return failure();
      if (!key->isa<StringAttr, IntegerAttr>())
        return fail("dict keys must be string or int constants");
      keys.push_back(*key);
      values.push_back(*element);
    }
    return tree.dict(keys, values);
  }
  }
  llvm_unreachable("unknown kind");
}

//===----------------------------------------------------------------------===//
// Entry
//===----------------------------------------------------------------------===//

LogicalResult mav::detail::importForward(ImportContext &ctx,
                                         const torch::jit::Module &root) {
  std::shared_ptr<torch::jit::Graph> method =
      root.get_method("forward").graph();
  SmallVector<const torch::jit::Value *> inputs(method->inputs().begin() + 1,
                                                method->inputs().end());
  SmallVector<Type> types;
  const std::vector<std::string> &shapes = ctx.options.inputShapes;
  if (!shapes.empty() && shapes.size() != inputs.size())
    return ctx.emitError() << shapes.size() << " --input-shape given but "
                           << "forward takes " << inputs.size() << " inputs";
  for (auto [index, input] : llvm::enumerate(inputs)) {
    if (shapes.empty()) {
      types.push_back(convertType(input->type(), ctx.context));
      continue;
    }
    FailureOr<RankedTensorType> type =
        parseShapeSpec(shapes[index], ctx.context);
    if (failed(type))
      return ctx.emitError() << "invalid --input-shape '" << shapes[index]
                             << "': expected dims then an element type, "
                                "e.g. 1x3x224x224xf32";
    types.push_back(*type);
  }

  OpBuilder moduleBuilder = OpBuilder::atBlockEnd(ctx.module.getBody());
  auto forward = moduleBuilder.create<GraphOp>(
      FileLineColLoc::get(ctx.context, ctx.fileName, 0, 0),
      moduleBuilder.getStringAttr("forward"),
      TypeAttr::get(moduleBuilder.getFunctionType({}, {})),
      moduleBuilder.getArrayAttr({}), StringAttr());
  forward.getBody().emplaceBlock();

  Scope scope{root, "", demangleClassName(root.type())};
  GraphImporter importer(ctx, forward, ctx.options.inlineAll);
  Frame frame;
  frame[method->inputs()[0]] = Imported::ofModule(scope);
  importer.addPlaceholders(inputs, types, frame);
  SmallVector<Imported> outputs;
  if (failed(importer.importBlock(method->block(), frame, scope, outputs)))
    return failure();
  return importer.finish(outputs, scope);
}
