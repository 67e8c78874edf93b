//===- NativeShapes.cpp - Shape propagation without libtorch --------------===//
//
// A graph walk that mirrors the interpreter on the meta device (Interpreter.cpp
// and ShapePropagation.cpp): it binds each call to its schema as
// OperatorCall.cpp does, computes its results with the schema's shape rule,
// and describes arguments and results as the meta device's tensors would be.
//
//===----------------------------------------------------------------------===//

#include "mav/Operators/NativeShapes.h"

#include "mav/IR/MavAttrs.h"
#include "mav/IR/ScalarTypes.h"
#include "mav/IR/WeightData.h"
#include "mav/Operators/AtenSchemas.h"
#include "mav/Operators/OpRegistry.h"
#include "mav/Operators/OperatorInference.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SaveAndRestore.h"

#include <cstring>
#include <deque>
#include <limits>
#include <memory>

using namespace mlir;
using namespace mav;

namespace {

/// A value of the walk: a tensor's shape, strides and dtype; a constant; or
/// a list or tuple of values.
struct NativeValue {
  enum class Kind { Tensor, Undefined, Constant, List, Tuple };
  Kind kind = Kind::Constant;
  SmallVector<int64_t, 4> sizes, strides;
  ScalarType dtype = ScalarType::float32;
  /// A Constant's value as the interpreter's IValue would describe it:
  /// BoolAttr, i64 IntegerAttr, f64 FloatAttr, StringAttr, NoneAttr. For a
  /// 0-dim tensor made from a number (prim::NumToTensor), the number.
  Attribute constant;
  std::vector<NativeValue> elements;

  static NativeValue tensor(ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides,
                            ScalarType dtype) {
    NativeValue value;
    value.kind = Kind::Tensor;
    value.sizes.assign(sizes.begin(), sizes.end());
    value.strides.assign(strides.begin(), strides.end());
    value.dtype = dtype;
    return value;
  }
  bool isTensor() const { return kind == Kind::Tensor; }
  bool isNone() const {
    return kind == Kind::Undefined ||
           (kind == Kind::Constant && constant.isa<NoneAttr>());
  }
  TensorRef ref() const { return TensorRef{sizes, strides, dtype}; }
};

using Environment = llvm::DenseMap<Value, NativeValue>;

/// A node that has no rule: the walk stops with a reason.
struct Unsupported {
  Operation *node;
  std::string reason;
};

/// A call bound to its schema: every parameter's value (null when absent
/// and defaulted), and the given ones in schema order with their names.
struct BoundCall {
  const AtenSchema *schema = nullptr;
  std::vector<const NativeValue *> parameters;
  std::vector<std::pair<StringRef, const NativeValue *>> given;
};

/// A bound call as shape rules read it.
class NativeArguments : public CallArguments {
public:
  explicit NativeArguments(const BoundCall &call) : call(call) {}

  std::optional<ArrayRef<int64_t>> getShape(unsigned position,
                                            StringRef keyword) const override {
    const NativeValue *value = get(position, keyword);
    if (!value || !value->isTensor())
      return std::nullopt;
    return ArrayRef<int64_t>(value->sizes);
  }

  std::optional<TensorRef> getTensor(unsigned position,
                                     StringRef keyword) const override {
    const NativeValue *value = get(position, keyword);
    if (!value || !value->isTensor())
      return std::nullopt;
    return value->ref();
  }

  std::optional<SmallVector<TensorRef>>
  getTensorList(unsigned position, StringRef keyword) const override {
    const NativeValue *value = get(position, keyword);
    if (!value || value->kind != NativeValue::Kind::List)
      return std::nullopt;
    SmallVector<TensorRef> tensors;
    for (const NativeValue &element : value->elements) {
      if (!element.isTensor())
        return std::nullopt;
      tensors.push_back(element.ref());
    }
    return tensors;
  }

  std::optional<double> getNumber(unsigned position,
                                  StringRef keyword) const override {
    const NativeValue *value = get(position, keyword);
    if (!value || value->kind != NativeValue::Kind::Constant)
      return std::nullopt;
    if (auto boolean = value->constant.dyn_cast<BoolAttr>())
      return boolean.getValue() ? 1.0 : 0.0;
    if (auto integer = value->constant.dyn_cast<IntegerAttr>())
      return double(integer.getInt());
    if (auto number = value->constant.dyn_cast<FloatAttr>())
      return number.getValueAsDouble();
    return std::nullopt;
  }

  bool has(unsigned position, StringRef keyword) const override {
    return get(position, keyword) != nullptr;
  }

  std::optional<SmallVector<int64_t>>
  getInts(unsigned position, StringRef keyword, size_t count) const override {
    const NativeValue *value = get(position, keyword);
    if (!value)
      return std::nullopt;
    if (std::optional<int64_t> integer = asInt(*value))
      return SmallVector<int64_t>(count, *integer);
    if (value->kind != NativeValue::Kind::List)
      return std::nullopt;
    SmallVector<int64_t> ints;
    for (const NativeValue &element : value->elements) {
      std::optional<int64_t> integer = asInt(element);
      if (!integer)
        return std::nullopt;
      ints.push_back(*integer);
    }
    if (ints.size() == 1 && count > 1)
      return SmallVector<int64_t>(count, ints.front());
    return ints;
  }

  std::optional<StringRef> getString(unsigned position,
                                     StringRef keyword) const override {
    const NativeValue *value = get(position, keyword);
    if (!value || value->kind != NativeValue::Kind::Constant)
      return std::nullopt;
    if (auto string = value->constant.dyn_cast<StringAttr>())
      return string.getValue();
    return std::nullopt;
  }

private:
  static std::optional<int64_t> asInt(const NativeValue &value) {
    if (value.kind != NativeValue::Kind::Constant)
      return std::nullopt;
    if (auto boolean = value.constant.dyn_cast<BoolAttr>())
      return boolean.getValue() ? 1 : 0;
    if (auto integer = value.constant.dyn_cast<IntegerAttr>())
      return integer.getInt();
    return std::nullopt;
  }

  /// As StackArguments: at `position` if the schema names it `keyword`
  /// there, else by name; null when absent or None.
  const NativeValue *get(unsigned position, StringRef keyword) const {
    ArrayRef<AtenParameter> parameters = call.schema->parameters;
    size_t index = position;
    if (index >= parameters.size() ||
        (!keyword.empty() && parameters[index].name != keyword)) {
      index = parameters.size();
      for (size_t i = 0; i < parameters.size() && !keyword.empty(); ++i)
        if (parameters[i].name == keyword)
          index = i;
    }
    if (index >= parameters.size())
      return nullptr;
    const NativeValue *value = call.parameters[index];
    return value && !value->isNone() ? value : nullptr;
  }

  const BoundCall &call;
};

class NativePropagation {
public:
  NativePropagation(ModuleOp module)
      : context(module.getContext()), builder(context), module(module) {}

  /// Runs `graph`; `observe` sees each top-level node.
  FailureOr<NativeValue> runGraph(GraphOp graph, ArrayRef<NativeValue> inputs,
                                  bool observe);

  /// What each observed node showed, in order: shared by the nodes that
  /// computed the same thing (`outcomes`), else held in `ownShapes`.
  std::vector<std::pair<Operation *, const NodeShapes *>> described;
  std::optional<Unsupported> gap;

  ValueMetaAttr describe(StringRef name, const NativeValue &value);
  Type refinedType(const NativeValue &value);

private:
  /// What a node computed: its results and, when observed, what it showed.
  struct Outcome {
    SmallVector<NativeValue, 1> results;
    NodeShapes shapes;
  };

  LogicalResult runNode(Operation *op, Environment &env, bool observe);
  FailureOr<NativeValue> convert(Attribute argument, Environment &env,
                                 Operation *op);
  FailureOr<SmallVector<NativeValue>>
  callOperator(Operation *op, StringRef target, bool isMethod, ArrayAttr args,
               DictionaryAttr kwargs, Environment &env, NodeShapes *shapes);
  void describeArguments(Operation *op, const BoundCall &bound,
                         NodeShapes &shapes);
  FailureOr<NativeValue> computeValue(const BoundCall &call);
  void foldIntegerArithmetic(const BoundCall &call, NativeValue &result);
  LogicalResult unsupported(Operation *op, const Twine &reason) {
    if (!gap)
      gap = Unsupported{op, reason.str()};
    return failure();
  }
  Attribute constantOf(const NativeValue &value);
  ArrayRef<WeightOp> getModuleWeights(StringRef path);
  /// What a node of the graph being run finds under `name`.
  Operation *lookupSymbol(SymbolRefAttr name) {
    return symbolTable ? symbols.lookupSymbolIn(symbolTable, name) : nullptr;
  }

  MLIRContext *context;
  Builder builder;
  ModuleOp module;
  SymbolTableCollection symbols;
  /// The symbol table that the nodes of the graph being run look up their
  /// weights and bodies in: the same for all of them.
  Operation *symbolTable = nullptr;
  /// The weights of each module path, gathered on the first call_module.
  std::optional<llvm::StringMap<SmallVector<WeightOp>>> weightsByModule;
  /// The description of each tensor already described, by name, dtype,
  /// sizes and strides: most values of a graph repeat a few of them.
  llvm::StringMap<ValueMetaAttr> tensorDescriptions;
  /// What each node computed, by what its outcome depends on (runNode):
  /// most nodes of a graph repeat a few calls on a few shapes, which are
  /// bound to their schema and computed once.
  llvm::StringMap<Outcome> outcomes;
  /// The shapes of the observed nodes that `outcomes` does not hold.
  std::deque<NodeShapes> ownShapes;
};

} // namespace

ArrayRef<WeightOp> NativePropagation::getModuleWeights(StringRef path) {
  if (!weightsByModule) {
    weightsByModule.emplace();
    for (auto weight : module.getOps<WeightOp>()) {
      auto [prefix, name] = weight.getSymName().rsplit('.');
      if (!name.empty())
        (*weightsByModule)[prefix].push_back(weight);
    }
  }
  auto it = weightsByModule->find(path);
  return it == weightsByModule->end() ? ArrayRef<WeightOp>() : it->second;
}

/// Names arguments as shape propagation on libtorch does.
static ArgumentNamer getNamer(Operation *op) {
  const OpInfo *info = lookupNodeOperator(op);
  return ArgumentNamer(info ? info->argRoles : ArrayRef<ArgRole>());
}

/// Whether `value` fits a parameter of `type` (OperatorCall.cpp binds with
/// libtorch's subtype check; this is the part of it the known schemas need).
static bool fits(const NativeValue &value, const AtenParameter &parameter) {
  if (value.isNone())
    return parameter.isOptional() || parameter.type == "Scalar";
  StringRef type = parameter.type.rtrim('?');
  if (parameter.isTensorList()) {
    return value.kind == NativeValue::Kind::List &&
           llvm::all_of(value.elements, [](const NativeValue &element) {
             return element.isTensor();
           });
  }
  if (parameter.isTensor())
    return value.isTensor();
  if (parameter.isList()) {
    if (value.kind != NativeValue::Kind::List)
      return false;
    return llvm::all_of(value.elements, [](const NativeValue &element) {
      return element.kind == NativeValue::Kind::Constant &&
             element.constant.isa<IntegerAttr>() &&
             !element.constant.isa<BoolAttr>();
    });
  }
  if (value.kind != NativeValue::Kind::Constant)
    return false;
  Attribute constant = value.constant;
  bool isBool = constant.isa<BoolAttr>();
  bool isInt = !isBool && constant.isa<IntegerAttr>();
  bool isFloat = constant.isa<FloatAttr>();
  if (type == "Scalar")
    return isBool || isInt || isFloat;
  if (type == "int" || type == "SymInt" || type == "ScalarType" ||
      type == "MemoryFormat")
    return isInt;
  if (type == "float")
    return isFloat;
  if (type == "bool")
    return isBool;
  if (type == "str")
    return constant.isa<StringAttr>();
  return false;
}

/// Binds positional `args` and `kwargs` to `schema`, or fails.
static std::optional<BoundCall>
bindArguments(const AtenSchema &schema, ArrayRef<NativeValue> args,
              ArrayRef<std::pair<StringRef, NativeValue>> kwargs) {
  BoundCall call;
  call.schema = &schema;
  if (args.size() > schema.parameters.size())
    return std::nullopt;
  size_t keywordsUsed = 0;
  for (auto [index, parameter] : llvm::enumerate(schema.parameters)) {
    const NativeValue *value = nullptr;
    if (index < args.size()) {
      value = &args[index];
    } else {
      for (const auto &[name, keyword] : kwargs)
        if (name == parameter.name) {
          value = &keyword;
          ++keywordsUsed;
        }
    }
    if (!value && !parameter.hasDefault)
      return std::nullopt;
    if (value && !fits(*value, parameter))
      return std::nullopt;
    call.parameters.push_back(value);
    if (value)
      call.given.emplace_back(parameter.name, value);
  }
  if (keywordsUsed != kwargs.size())
    return std::nullopt;
  return call;
}

FailureOr<NativeValue> NativePropagation::convert(Attribute argument,
                                                  Environment &env,
                                                  Operation *op) {
  if (auto ref = argument.dyn_cast<OperandRefAttr>()) {
    auto it = env.find(op->getOperand(ref.getIndex()));
    if (it == env.end())
      return unsupported(op, "an operand has no value");
    return it->second;
  }
  NativeValue value;
  if (auto list = argument.dyn_cast<ArrayAttr>()) {
    value.kind = NativeValue::Kind::List;
    for (Attribute element : list) {
      FailureOr<NativeValue> converted = convert(element, env, op);
      if (failed(converted))
        return failure();
      value.elements.push_back(std::move(*converted));
    }
    return value;
  }
  if (auto tuple = argument.dyn_cast<TupleAttr>()) {
    value.kind = NativeValue::Kind::Tuple;
    for (Attribute element : tuple.getElements()) {
      FailureOr<NativeValue> converted = convert(element, env, op);
      if (failed(converted))
        return failure();
      value.elements.push_back(std::move(*converted));
    }
    return value;
  }
  // Constants as the interpreter's IValues would hold them.
  if (argument.isa<BoolAttr>() || argument.isa<StringAttr>() ||
      argument.isa<NoneAttr>())
    value.constant = argument;
  else if (auto integer = argument.dyn_cast<IntegerAttr>())
    value.constant = builder.getI64IntegerAttr(integer.getInt());
  else if (auto number = argument.dyn_cast<FloatAttr>())
    value.constant = builder.getF64FloatAttr(number.getValueAsDouble());
  else if (auto dtype = argument.dyn_cast<ScalarTypeAttr>())
    value.constant =
        builder.getI64IntegerAttr(static_cast<int64_t>(dtype.getValue()));
  else if (auto format = argument.dyn_cast<MemoryFormatAttr>())
    value.constant =
        builder.getI64IntegerAttr(static_cast<int64_t>(format.getValue()));
  else if (auto layout = argument.dyn_cast<LayoutAttr>())
    value.constant =
        builder.getI64IntegerAttr(static_cast<int64_t>(layout.getValue()));
  else
    return unsupported(op, "an argument of a kind native propagation does "
                           "not model");
  return value;
}

Attribute NativePropagation::constantOf(const NativeValue &value) {
  switch (value.kind) {
  case NativeValue::Kind::Constant:
    return value.constant;
  case NativeValue::Kind::List:
  case NativeValue::Kind::Tuple: {
    SmallVector<Attribute> elements;
    for (const NativeValue &element : value.elements) {
      Attribute constant = constantOf(element);
      if (!constant)
        return {};
      elements.push_back(constant);
    }
    ArrayAttr array = builder.getArrayAttr(elements);
    return value.kind == NativeValue::Kind::List
               ? Attribute(array)
               : Attribute(TupleAttr::get(context, array));
  }
  default:
    return {};
  }
}

ValueMetaAttr NativePropagation::describe(StringRef name,
                                          const NativeValue &value) {
  if (value.kind == NativeValue::Kind::Undefined)
    return ValueMetaAttr::get(context, name, {}, "", "NoneType", {}, {},
                              NoneAttr::get(context));
  if (!value.isTensor()) {
    StringRef kind = "object";
    if (value.kind == NativeValue::Kind::List)
      kind = "list";
    else if (value.kind == NativeValue::Kind::Tuple)
      kind = "tuple";
    else if (value.constant.isa<BoolAttr>())
      kind = "bool";
    else if (value.constant.isa<IntegerAttr>())
      kind = "int";
    else if (value.constant.isa<FloatAttr>())
      kind = "float";
    else if (value.constant.isa<NoneAttr>())
      kind = "NoneType";
    else if (value.constant.isa<StringAttr>())
      kind = "str";
    return ValueMetaAttr::get(context, name, {}, "", kind, {}, {},
                              constantOf(value));
  }
  SmallString<96> key(name);
  key.push_back('\0');
  key.push_back(static_cast<char>(value.dtype));
  auto appendInts = [&](ArrayRef<int64_t> ints) {
    key.push_back(static_cast<char>(ints.size()));
    key.append(reinterpret_cast<const char *>(ints.data()),
               reinterpret_cast<const char *>(ints.data() + ints.size()));
  };
  appendInts(value.sizes);
  appendInts(value.strides);
  ValueMetaAttr &description = tensorDescriptions[key];
  if (description)
    return description;
  auto [type, bits] = getMasePrecision(value.dtype);
  return description = ValueMetaAttr::get(
             context, name, builder.getDenseI64ArrayAttr(value.sizes),
             getTorchDTypeName(value.dtype), type,
             builder.getDenseI64ArrayAttr({bits}),
             builder.getDenseI64ArrayAttr(value.strides), {});
}

Type NativePropagation::refinedType(const NativeValue &value) {
  if (value.kind == NativeValue::Kind::Tuple) {
    SmallVector<Type> elements;
    for (const NativeValue &element : value.elements) {
      Type type =
          element.isNone() ? mav::NoneType::get(context) : refinedType(element);
      if (!type)
        return {};
      elements.push_back(type);
    }
    return mav::TupleType::get(context, elements);
  }
  if (!value.isTensor())
    return {};
  Type element = getElementType(value.dtype, context);
  if (!element)
    return {};
  return RankedTensorType::get(value.sizes, element);
}

static SmallVector<int64_t> contiguousStrides(ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> strides(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 1;)
    strides[i - 1] = strides[i] * std::max<int64_t>(sizes[i], 1);
  return strides;
}

static void flatten(const NativeValue &value,
                    std::vector<const NativeValue *> &leaves) {
  if (value.kind == NativeValue::Kind::List ||
      value.kind == NativeValue::Kind::Tuple) {
    for (const NativeValue &element : value.elements)
      flatten(element, leaves);
    return;
  }
  leaves.push_back(&value);
}

FailureOr<NativeValue> NativePropagation::runGraph(GraphOp graph,
                                                   ArrayRef<NativeValue> inputs,
                                                   bool observe) {
  Block &block = graph.getBodyBlock();
  if (inputs.size() != block.getNumArguments())
    return unsupported(graph, "the graph takes another number of inputs");
  llvm::SaveAndRestore<Operation *> scope(
      symbolTable, SymbolTable::getNearestSymbolTable(graph));
  // The environment holds only live values: each is dropped after the last
  // node that reads it, so memory follows the graph's width, not its length.
  // Each live value counts the reads still to come: every use is counted
  // once when the value is defined and once when it is read, so the walk
  // stays linear however many nodes read one value.
  Environment env;
  llvm::DenseMap<Value, size_t> readsLeft;
  auto define = [&](Value value) {
    size_t reads = std::distance(value.use_begin(), value.use_end());
    if (reads)
      readsLeft[value] = reads;
    else
      env.erase(value);
  };
  if (observe)
    described.reserve(described.size() + block.getOperations().size());
  for (auto [argument, input] : llvm::zip(block.getArguments(), inputs)) {
    env[argument] = input;
    define(argument);
  }
  for (Operation &op : block) {
    if (auto output = dyn_cast<OutputOp>(op))
      return convert(output.getValue(), env, &op);
    if (failed(runNode(&op, env, observe)))
      return failure();
    for (Value result : op.getResults())
      define(result);
    for (Value operand : op.getOperands()) {
      auto left = readsLeft.find(operand);
      if (left != readsLeft.end() && --left->second == 0) {
        readsLeft.erase(left);
        env.erase(operand);
      }
    }
  }
  return unsupported(graph, "the graph has no mav.output");
}

FailureOr<SmallVector<NativeValue>>
NativePropagation::callOperator(Operation *op, StringRef target, bool isMethod,
                                ArrayAttr argTree, DictionaryAttr kwargTree,
                                Environment &env, NodeShapes *shapes) {
  SmallVector<NativeValue> args;
  for (Attribute arg : argTree) {
    FailureOr<NativeValue> value = convert(arg, env, op);
    if (failed(value))
      return failure();
    args.push_back(std::move(*value));
  }
  // The unpacking operators: their elements.
  if ((target == "prim::ListUnpack" || target == "prim::TupleUnpack") &&
      args.size() == 1 &&
      (args[0].kind == NativeValue::Kind::List ||
       args[0].kind == NativeValue::Kind::Tuple)) {
    if (shapes) {
      ArgumentNamer namer = getNamer(op);
      for (auto [index, arg] : llvm::enumerate(args))
        shapes->args.push_back(describe(namer.name(index, ""), arg));
    }
    return SmallVector<NativeValue>(args[0].elements.begin(),
                                    args[0].elements.end());
  }
  SmallVector<std::pair<StringRef, NativeValue>> kwargs;
  for (NamedAttribute keyword : kwargTree) {
    FailureOr<NativeValue> value = convert(keyword.getValue(), env, op);
    if (failed(value))
      return failure();
    kwargs.emplace_back(keyword.getName().getValue(), std::move(*value));
  }
  std::string qualified = isMethod ? ("aten::" + target).str() : target.str();
  std::optional<BoundCall> bound;
  for (const AtenSchema *schema : lookupAtenSchemas(qualified))
    if ((bound = bindArguments(*schema, args, kwargs)))
      break;
  if (!bound)
    return unsupported(op, "no native shape rule for " + qualified +
                               " with these arguments");
  if (!bound->schema->shape) {
    FailureOr<NativeValue> value = computeValue(*bound);
    if (failed(value))
      return unsupported(op, "no native value of " + qualified +
                                 " for these arguments");
    if (shapes)
      describeArguments(op, *bound, *shapes);
    return SmallVector<NativeValue>{std::move(*value)};
  }
  std::optional<SmallVector<ResultShape>> results =
      bound->schema->shape(NativeArguments(*bound));
  if (!results || results->size() != bound->schema->numResults)
    return unsupported(op, "the native shape rule of " + qualified +
                               " does not model these arguments");
  std::optional<ScalarType> firstDType;
  for (const NativeValue *value : bound->parameters)
    if (value && value->isTensor()) {
      firstDType = value->dtype;
      break;
    }
  SmallVector<NativeValue> values;
  for (const ResultShape &result : *results) {
    NativeValue value;
    if (!result) {
      value.kind = NativeValue::Kind::Undefined;
    } else {
      std::optional<ScalarType> dtype =
          result->dtype ? result->dtype : firstDType;
      if (!dtype)
        return unsupported(op, "a result without a dtype");
      value = NativeValue::tensor(result->sizes, result->strides, *dtype);
      if (value.strides.empty())
        value.strides = contiguousStrides(value.sizes);
    }
    values.push_back(std::move(value));
  }
  if (values.size() == 1)
    foldIntegerArithmetic(*bound, values.front());
  if (shapes)
    describeArguments(op, *bound, *shapes);
  return values;
}

/// The value of a 0-dim int64 weight (a traced constant such as the divisor
/// of a size), when its data is at hand.
static std::optional<int64_t> readScalarInteger(WeightOp weight) {
  auto type = weight.getWeightType().dyn_cast<RankedTensorType>();
  auto value = weight.getValue().dyn_cast<ElementsAttr>();
  if (!type || !value || type.getRank() != 0 ||
      !type.getElementType().isSignedInteger(64))
    return std::nullopt;
  bool isSplat;
  std::optional<ArrayRef<char>> bytes = getElementsData(value, isSplat);
  if (!bytes || bytes->size() != sizeof(int64_t))
    return std::nullopt;
  int64_t number;
  std::memcpy(&number, bytes->data(), sizeof(number));
  return number;
}

/// The integer a parameter carries: an int constant, or a 0-dim int64
/// tensor made from one; std::nullopt otherwise or when absent.
static std::optional<int64_t> integerOf(const NativeValue *value) {
  if (!value || (value->isTensor() &&
                 (!value->sizes.empty() || value->dtype != ScalarType::int64)))
    return std::nullopt;
  auto integer = value->constant.dyn_cast_or_null<IntegerAttr>();
  if (!integer || integer.getValue().getBitWidth() != 64)
    return std::nullopt;
  return integer.getInt();
}

/// Size arithmetic on 0-dim int64 tensors (`prim::NumToTensor` of a size,
/// then `//`, `*`, `+`, `-`, as traced code computes head sizes), folded as
/// libtorch computes it, so that `aten::Int` of the result has its value.
/// Anything else (floats, a division by zero, an overflow) is not folded.
void NativePropagation::foldIntegerArithmetic(const BoundCall &call,
                                              NativeValue &result) {
  if (!result.isTensor() || !result.sizes.empty() ||
      result.dtype != ScalarType::int64 || call.parameters.size() < 2)
    return;
  std::optional<int64_t> lhs = integerOf(call.parameters[0]),
                         rhs = integerOf(call.parameters[1]);
  if (!lhs || !rhs || !call.parameters[0]->isTensor())
    return;
  StringRef name = call.schema->name;
  std::optional<int64_t> alpha = 1;
  if ((name == "aten::add" || name == "aten::sub") &&
      call.parameters.size() > 2 && call.parameters[2])
    alpha = integerOf(call.parameters[2]);
  std::optional<StringRef> rounding;
  if (name == "aten::div" && call.parameters.size() > 2 && call.parameters[2])
    if (auto mode = call.parameters[2]->constant.dyn_cast_or_null<StringAttr>())
      rounding = mode.getValue();
  int64_t value, scaled;
  bool overflow = false;
  if (name == "aten::mul") {
    overflow = llvm::MulOverflow(*lhs, *rhs, value);
  } else if ((name == "aten::add" || name == "aten::sub") && alpha) {
    overflow = llvm::MulOverflow(*alpha, *rhs, scaled) ||
               (name == "aten::add" ? llvm::AddOverflow(*lhs, scaled, value)
                                    : llvm::SubOverflow(*lhs, scaled, value));
  } else if ((name == "aten::floor_divide" ||
              (name == "aten::div" && rounding &&
               (*rounding == "floor" || *rounding == "trunc"))) &&
             *rhs != 0 &&
             !(*lhs == std::numeric_limits<int64_t>::min() && *rhs == -1)) {
    value = *lhs / *rhs;
    bool floor = name == "aten::floor_divide" || *rounding == "floor";
    if (floor && (*lhs % *rhs != 0) && ((*lhs < 0) != (*rhs < 0)))
      --value;
  } else {
    return;
  }
  if (!overflow)
    result.constant = builder.getI64IntegerAttr(value);
}

void NativePropagation::describeArguments(Operation *op, const BoundCall &bound,
                                          NodeShapes &shapes) {
  ArgumentNamer namer = getNamer(op);
  for (auto [index, given] : llvm::enumerate(bound.given))
    shapes.args.push_back(
        describe(namer.name(index, given.first), *given.second));
}

/// The operators on sizes and scalars: their values, as libtorch computes
/// them (a 0-dim tensor made from a number keeps the number).
FailureOr<NativeValue> NativePropagation::computeValue(const BoundCall &call) {
  StringRef name = call.schema->name, overload = call.schema->overload;
  const NativeValue *first = call.parameters.front();
  NativeValue value;
  if (name == "aten::size" && first->isTensor()) {
    auto rank = int64_t(first->sizes.size());
    if (overload.empty()) {
      value.kind = NativeValue::Kind::List;
      for (int64_t size : first->sizes) {
        NativeValue element;
        element.constant = builder.getI64IntegerAttr(size);
        value.elements.push_back(element);
      }
      return value;
    }
    auto dim = call.parameters[1]->constant.dyn_cast<IntegerAttr>();
    if (!dim || rank == 0 || dim.getInt() < -rank || dim.getInt() >= rank)
      return failure();
    int64_t index = dim.getInt() < 0 ? dim.getInt() + rank : dim.getInt();
    value.constant = builder.getI64IntegerAttr(first->sizes[index]);
    return value;
  }
  if (name == "prim::NumToTensor" &&
      first->kind == NativeValue::Kind::Constant) {
    Attribute number = first->constant;
    ScalarType dtype = number.isa<BoolAttr>()      ? ScalarType::Bool
                       : number.isa<IntegerAttr>() ? ScalarType::int64
                       : number.isa<FloatAttr>()   ? ScalarType::float64
                                                   : ScalarType::complex128;
    if (dtype == ScalarType::complex128)
      return failure();
    value = NativeValue::tensor({}, {}, dtype);
    value.constant = number;
    return value;
  }
  if (name == "aten::Int" && first->isTensor() && first->sizes.empty()) {
    if (auto integer = first->constant.dyn_cast_or_null<IntegerAttr>()) {
      value.constant = builder.getI64IntegerAttr(integer.getInt());
      return value;
    }
  }
  return failure();
}

template <typename T>
static void appendBytes(const T &data, SmallVectorImpl<char> &key) {
  const char *bytes = reinterpret_cast<const char *>(&data);
  key.append(bytes, bytes + sizeof(T));
}

static void appendInts(ArrayRef<int64_t> ints, SmallVectorImpl<char> &key) {
  appendBytes(uint32_t(ints.size()), key);
  key.append(reinterpret_cast<const char *>(ints.data()),
             reinterpret_cast<const char *>(ints.data() + ints.size()));
}

/// Appends all that `value` holds to `key`, so that two values append the
/// same bytes only when they are equal.
static void appendValue(const NativeValue &value, SmallVectorImpl<char> &key) {
  appendBytes(value.kind, key);
  appendBytes(value.dtype, key);
  appendInts(value.sizes, key);
  appendInts(value.strides, key);
  appendBytes(value.constant.getAsOpaquePointer(), key);
  appendBytes(uint32_t(value.elements.size()), key);
  for (const NativeValue &element : value.elements)
    appendValue(element, key);
}

/// A call's results and what it shows depend on its operator, on the form of
/// its arguments (the constants, and which operand each refers to) and on
/// the values of its operands, and on nothing else of the node: `key` says
/// all of that. Empty when the call cannot be remembered.
static void callKey(Operation *op, Environment &env, bool observe,
                    SmallVectorImpl<char> &key) {
  key.clear();
  Attribute target, args, kwargs;
  if (auto call = dyn_cast<CallFunctionOp>(op)) {
    key.push_back('f');
    target = call.getTargetAttr();
    args = call.getArgsAttr();
    kwargs = call.getKwargsAttr();
  } else if (auto call = dyn_cast<CallMethodOp>(op)) {
    key.push_back('m');
    target = call.getTargetAttr();
    args = call.getArgsAttr();
    kwargs = call.getKwargsAttr();
  } else {
    return;
  }
  key.push_back(observe);
  appendBytes(target.getAsOpaquePointer(), key);
  appendBytes(args.getAsOpaquePointer(), key);
  appendBytes(kwargs.getAsOpaquePointer(), key);
  for (Value operand : op->getOperands()) {
    auto it = env.find(operand);
    if (it == env.end()) {
      key.clear();
      return;
    }
    appendValue(it->second, key);
  }
}

LogicalResult NativePropagation::runNode(Operation *op, Environment &env,
                                         bool observe) {
  // A node that computes what an earlier one computed takes its outcome.
  SmallString<128> key;
  auto reuse = [&](const Outcome &outcome) -> LogicalResult {
    if (outcome.results.size() != op->getNumResults())
      return unsupported(op, "another number of results than the node has");
    if (observe)
      described.emplace_back(op, &outcome.shapes);
    for (auto [result, value] : llvm::zip(op->getResults(), outcome.results))
      env[result] = value;
    return success();
  };
  callKey(op, env, observe, key);
  if (!key.empty()) {
    auto it = outcomes.find(key);
    if (it != outcomes.end())
      return reuse(it->second);
  }
  NodeShapes shapes;
  SmallVector<NativeValue> results;
  if (auto getAttr = dyn_cast<GetAttrOp>(op)) {
    auto weight =
        dyn_cast_or_null<WeightOp>(lookupSymbol(getAttr.getTargetAttr()));
    auto type = weight ? weight.getWeightType().dyn_cast<RankedTensorType>()
                       : RankedTensorType();
    std::optional<ScalarType> dtype =
        type ? getScalarType(type.getElementType()) : std::nullopt;
    if (!dtype || !type.hasStaticShape())
      return unsupported(op, "a weight without a static shape and dtype");
    // Only a 0-dim si64 weight's value is read (readScalarInteger): any
    // other weight's outcome depends on its type alone.
    if (type.getRank() != 0 || !type.getElementType().isSignedInteger(64)) {
      key.push_back('w');
      key.push_back(observe);
      appendBytes(type.getAsOpaquePointer(), key);
      auto it = outcomes.find(key);
      if (it != outcomes.end())
        return reuse(it->second);
    }
    results.push_back(NativeValue::tensor(
        type.getShape(), contiguousStrides(type.getShape()), *dtype));
    if (std::optional<int64_t> number = readScalarInteger(weight))
      results.back().constant = builder.getI64IntegerAttr(*number);
  } else if (isa<LearnableOp>(op)) {
    NativeValue input = env.lookup(op->getOperand(0));
    if (observe) {
      ArgumentNamer namer = getNamer(op);
      for (auto [index, operand] : llvm::enumerate(op->getOperands()))
        shapes.args.push_back(
            describe(namer.name(index, ""), env.lookup(operand)));
    }
    results.push_back(std::move(input));
  } else if (auto call = dyn_cast<CallModuleOp>(op)) {
    GraphOp body;
    if (call.getBodyAttr())
      body = dyn_cast_or_null<GraphOp>(lookupSymbol(call.getBodyAttr()));
    if (!body)
      return unsupported(op, "a module without a body graph");
    SmallVector<NativeValue> args;
    for (Attribute arg : call.getArgs()) {
      FailureOr<NativeValue> value = convert(arg, env, op);
      if (failed(value))
        return failure();
      args.push_back(std::move(*value));
    }
    FailureOr<NativeValue> result = runGraph(body, args, /*observe=*/false);
    if (failed(result))
      return failure();
    if (observe) {
      ArgumentNamer namer;
      for (const NativeValue &arg : args)
        shapes.args.push_back(describe(namer.nextDataIn(), arg));
      for (WeightOp weight : getModuleWeights(call.getTarget())) {
        ShapedType type = weight.getWeightType();
        std::optional<ScalarType> dtype = getScalarType(type.getElementType());
        if (!dtype)
          continue;
        auto [kind, bits] = getMasePrecision(*dtype);
        shapes.args.push_back(ValueMetaAttr::get(
            context, weight.getSymName().rsplit('.').second,
            DenseI64ArrayAttr::get(context, type.getShape()),
            getTorchDTypeName(*dtype), kind,
            DenseI64ArrayAttr::get(context, {bits}), {}, {}));
      }
    }
    results.push_back(std::move(*result));
  } else if (auto call = dyn_cast<CallFunctionOp>(op)) {
    FailureOr<SmallVector<NativeValue>> values =
        callOperator(op, call.getTarget(), /*isMethod=*/false, call.getArgs(),
                     call.getKwargs(), env, observe ? &shapes : nullptr);
    if (failed(values))
      return failure();
    results = std::move(*values);
  } else if (auto call = dyn_cast<CallMethodOp>(op)) {
    FailureOr<SmallVector<NativeValue>> values =
        callOperator(op, call.getTarget(), /*isMethod=*/true, call.getArgs(),
                     call.getKwargs(), env, observe ? &shapes : nullptr);
    if (failed(values))
      return failure();
    results = std::move(*values);
  } else {
    return unsupported(op, "not a node");
  }
  if (results.size() != op->getNumResults())
    return unsupported(op, "another number of results than the node has");
  if (observe) {
    for (auto [index, result] : llvm::enumerate(results)) {
      shapes.results.push_back(
          describe("data_out_" + std::to_string(index), result));
      shapes.resultTypes.push_back(refinedType(result));
    }
  }
  if (!key.empty()) {
    Outcome &outcome = outcomes[key];
    outcome.results.assign(results.begin(), results.end());
    outcome.shapes = std::move(shapes);
    return reuse(outcome);
  }
  if (observe) {
    ownShapes.push_back(std::move(shapes));
    described.emplace_back(op, &ownShapes.back());
  }
  for (auto [result, value] : llvm::zip(op->getResults(), results))
    env[result] = std::move(value);
  return success();
}

LogicalResult mav::propagateShapesNatively(
    GraphOp graph, ArrayRef<RankedTensorType> inputTypes,
    function_ref<void(Operation *, const NodeShapes &)> onNode,
    SmallVectorImpl<Attribute> &outputs, NativeShapeGap &gap) {
  NativePropagation propagation(graph->getParentOfType<ModuleOp>());
  SmallVector<NativeValue> inputs;
  for (RankedTensorType type : inputTypes) {
    std::optional<ScalarType> dtype = getScalarType(type.getElementType());
    if (!dtype) {
      gap = {graph, "an input without a torch dtype"};
      return failure();
    }
    inputs.push_back(NativeValue::tensor(
        type.getShape(), contiguousStrides(type.getShape()), *dtype));
  }
  FailureOr<NativeValue> output =
      propagation.runGraph(graph, inputs, /*observe=*/true);
  if (failed(output)) {
    gap = {propagation.gap->node, propagation.gap->reason};
    return failure();
  }
  std::vector<const NativeValue *> leaves;
  flatten(*output, leaves);
  for (auto [index, leaf] : llvm::enumerate(leaves))
    outputs.push_back(
        propagation.describe("data_out_" + std::to_string(index), *leaf));
  for (auto [op, shapes] : propagation.described)
    onNode(op, *shapes);
  return success();
}
