//===- Interpreter.cpp - Run mav graphs on libtorch -----------------------===//

#include "mav/Runtime/Interpreter.h"
#include "OperatorCall.h"
#include "ShapeFunctions.h"
#include "mav/IR/WeightData.h"

#include "mav/IR/NodeArguments.h"
#include "mav/Runtime/TorchTypes.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Error.h"

#include <ATen/ATen.h>

using namespace mlir;
using namespace mav;
using namespace mav::runtime;

using Environment = llvm::DenseMap<Value, c10::IValue>;

struct Interpreter::Impl {
  Impl(ModuleOp module, c10::Device device) : module(module), device(device) {}

  FailureOr<c10::IValue> runGraph(GraphOp graph, ArrayRef<c10::IValue> inputs,
                                  const Observer *observer);
  LogicalResult runNode(Operation *op, Environment &env,
                        const Observer *observer);
  FailureOr<std::vector<c10::IValue>>
  callOperator(Operation *op, StringRef target, bool isMethod, ArrayAttr args,
               DictionaryAttr kwargs, ArrayRef<c10::IValue> operands,
               const Observer *observer);
  FailureOr<c10::IValue> getWeight(GetAttrOp op);
  FailureOr<std::vector<c10::IValue>>
  runWithoutMetaKernel(Operation *op, StringRef target,
                       const runtime::BoundCall &call, StringRef reason,
                       bool useShapeFunctions = true);
  std::vector<c10::IValue> operandValues(Operation *op, Environment &env);

  ModuleOp module;
  c10::Device device;
  SymbolTableCollection symbols;
  llvm::DenseMap<Operation *, at::Tensor> weights;
  llvm::DenseMap<Operation *, std::shared_ptr<torch::jit::Operator>> resolved;
  llvm::DenseSet<const torch::jit::Operator *> withoutMetaKernel;
  /// The last node that ran, for failure diagnostics.
  Operation *lastSucceeded = nullptr;
  /// Nodes run without a meta kernel whose result shapes depend on values.
  llvm::SetVector<Operation *> dataDependentNodes;
  bool useVariantFill = false;
  /// Float parameters become autograd leaves (Interpreter::trackGradients).
  bool trackGradients = false;
};

Interpreter::Interpreter(ModuleOp module, c10::Device device)
    : impl(std::make_unique<Impl>(module, device)) {}
Interpreter::~Interpreter() = default;
c10::Device Interpreter::getDevice() const { return impl->device; }

void Interpreter::setVariantFill(bool variant) {
  impl->useVariantFill = variant;
}

bool Interpreter::hasDataDependentShapes() const {
  return !impl->dataDependentNodes.empty();
}

void Interpreter::trackGradients() { impl->trackGradients = true; }

at::Tensor Interpreter::getWeightTensor(WeightOp weight) const {
  if (WeightOp tied = resolveTiedWeight(weight, impl->symbols))
    weight = tied;
  auto it = impl->weights.find(weight);
  return it == impl->weights.end() ? at::Tensor() : it->second;
}

FailureOr<c10::IValue> Interpreter::run(GraphOp graph,
                                        ArrayRef<c10::IValue> inputs,
                                        const Observer &observer) {
  impl->lastSucceeded = nullptr;
  return impl->runGraph(graph, inputs, observer ? &observer : nullptr);
}

static StringRef nodeName(Operation *op) {
  if (auto node = dyn_cast<NodeOpInterface>(op))
    return node.getNodeName();
  return op->getName().getStringRef();
}

/// "node 'x' failed: why (last node that succeeded: 'y')".
static InFlightDiagnostic emitNodeFailure(Operation *op,
                                          Operation *lastSucceeded) {
  InFlightDiagnostic diag = op->emitError() << "node '" << nodeName(op) << "' ";
  diag.attachNote() << "the last node that succeeded is "
                    << (lastSucceeded
                            ? "'" + nodeName(lastSucceeded).str() + "'"
                            : std::string("none: it is the first node"));
  return diag;
}

std::vector<c10::IValue> Interpreter::Impl::operandValues(Operation *op,
                                                          Environment &env) {
  std::vector<c10::IValue> values;
  values.reserve(op->getNumOperands());
  for (Value operand : op->getOperands())
    values.push_back(env.lookup(operand));
  return values;
}

FailureOr<c10::IValue> Interpreter::Impl::runGraph(GraphOp graph,
                                                   ArrayRef<c10::IValue> inputs,
                                                   const Observer *observer) {
  Block &block = graph.getBodyBlock();
  if (inputs.size() != block.getNumArguments())
    return graph.emitError()
           << "graph '" << graph.getSymName() << "' takes "
           << block.getNumArguments() << " inputs, got " << inputs.size();
  Environment env;
  for (auto [argument, input] : llvm::zip(block.getArguments(), inputs))
    env[argument] = input;
  for (Operation &op : block) {
    if (auto output = dyn_cast<OutputOp>(op)) {
      std::vector<c10::IValue> operands = operandValues(&op, env);
      return convertArgument(output.getValue(), nullptr, operands, device);
    }
    if (failed(runNode(&op, env, observer)))
      return failure();
  }
  return graph.emitError() << "graph '" << graph.getSymName()
                           << "' has no mav.output";
}

LogicalResult Interpreter::Impl::runNode(Operation *op, Environment &env,
                                         const Observer *observer) {
  std::vector<c10::IValue> operands = operandValues(op, env);
  std::vector<c10::IValue> results;
  if (auto getAttr = dyn_cast<GetAttrOp>(op)) {
    FailureOr<c10::IValue> weight = getWeight(getAttr);
    if (failed(weight))
      return failure();
    results.push_back(*weight);
    if (observer)
      (*observer)(op, {}, {}, results);
  } else if (isa<LearnableOp>(op)) {
    results.push_back(operands.front());
    if (observer)
      (*observer)(op, operands, {}, results);
  } else if (auto call = dyn_cast<CallModuleOp>(op)) {
    GraphOp body;
    if (call.getBodyAttr())
      body = symbols.lookupNearestSymbolFrom<GraphOp>(op, call.getBodyAttr());
    if (!body)
      return emitNodeFailure(op, lastSucceeded)
             << "calls module '" << call.getTarget()
             << "' but has no body graph to run";
    std::vector<c10::IValue> args;
    for (Attribute arg : call.getArgs())
      args.push_back(convertArgument(arg, nullptr, operands, device));
    FailureOr<c10::IValue> result = runGraph(body, args, nullptr);
    if (failed(result))
      return emitNodeFailure(op, lastSucceeded)
             << "failed in the body of module '" << call.getTarget() << "'";
    results.push_back(*result);
    if (observer)
      (*observer)(op, args, {}, results);
  } else if (auto call = dyn_cast<CallFunctionOp>(op)) {
    FailureOr<std::vector<c10::IValue>> values =
        callOperator(op, call.getTarget(), /*isMethod=*/false, call.getArgs(),
                     call.getKwargs(), operands, observer);
    if (failed(values))
      return failure();
    results = std::move(*values);
  } else if (auto call = dyn_cast<CallMethodOp>(op)) {
    FailureOr<std::vector<c10::IValue>> values =
        callOperator(op, call.getTarget(), /*isMethod=*/true, call.getArgs(),
                     call.getKwargs(), operands, observer);
    if (failed(values))
      return failure();
    results = std::move(*values);
  } else {
    return op->emitError() << "is not a node the interpreter can run";
  }
  if (results.size() != op->getNumResults())
    return emitNodeFailure(op, lastSucceeded)
           << "produced " << results.size() << " values for "
           << op->getNumResults() << " results";
  for (auto [result, value] : llvm::zip(op->getResults(), results))
    env[result] = std::move(value);
  lastSucceeded = op;
  return success();
}

FailureOr<c10::IValue> Interpreter::Impl::getWeight(GetAttrOp op) {
  auto weight =
      symbols.lookupNearestSymbolFrom<WeightOp>(op, op.getTargetAttr());
  if (!weight)
    return emitNodeFailure(op, lastSucceeded)
           << "reads " << op.getTargetAttr() << ", which is not a weight";
  // A tied weight is its target's tensor, as in PyTorch: one parameter.
  weight = resolveTiedWeight(weight, symbols);
  auto it = weights.find(weight);
  if (it != weights.end())
    return c10::IValue(it->second);
  // On meta, integer weights (indices, lengths) keep their values on cpu:
  // they are small, and sizes may depend on them.
  bool keepValues =
      device.is_meta() &&
      weight.getWeightType().getElementType().isa<IntegerType>() &&
      !weight.getWeightType().getElementType().isInteger(1);
  FailureOr<at::Tensor> tensor =
      materializeWeight(weight, keepValues ? c10::Device(c10::kCPU) : device);
  if (failed(tensor))
    return failure();
  if (trackGradients && weight.getKind() == WeightKind::parameter &&
      !weight.getFrozen() && tensor->is_floating_point())
    tensor->set_requires_grad(true);
  weights[weight] = *tensor;
  return c10::IValue(*tensor);
}

/// Unpacking a list or tuple needs the node, which TorchScript's registry
/// does not have here; it is simple enough to do directly.
static std::optional<std::vector<c10::IValue>>
unpack(StringRef target, ArrayRef<c10::IValue> args) {
  if ((target != "prim::ListUnpack" && target != "prim::TupleUnpack") ||
      args.size() != 1)
    return std::nullopt;
  if (args[0].isTuple()) {
    const auto &elements = args[0].toTupleRef().elements();
    return std::vector<c10::IValue>(elements.begin(), elements.end());
  }
  if (args[0].isList()) {
    c10::ArrayRef<c10::IValue> elements = args[0].toListRef();
    return std::vector<c10::IValue>(elements.begin(), elements.end());
  }
  return std::nullopt;
}

/// `value` with `fn` applied to every tensor inside it, lists (of optional
/// tensors too) and tuples included.
static c10::IValue
mapTensors(const c10::IValue &value,
           const std::function<at::Tensor(const at::Tensor &)> &fn) {
  // An undefined tensor (an optional result not computed) stays undefined.
  if (value.isTensor())
    return value.toTensor().defined() ? c10::IValue(fn(value.toTensor()))
                                      : value;
  if (value.isTensorList()) {
    c10::List<at::Tensor> mapped;
    for (const at::Tensor &tensor : value.toTensorList())
      mapped.push_back(fn(tensor));
    return mapped;
  }
  if (value.isList()) {
    c10::impl::GenericList mapped(value.toList().elementType());
    for (const c10::IValue &element : value.toListRef())
      mapped.push_back(mapTensors(element, fn));
    return mapped;
  }
  if (value.isTuple()) {
    std::vector<c10::IValue> elements;
    for (const c10::IValue &element : value.toTupleRef().elements())
      elements.push_back(mapTensors(element, fn));
    return c10::ivalue::Tuple::create(std::move(elements));
  }
  if (value.isDevice() && value.toDevice().is_meta())
    return c10::Device(c10::kCPU);
  return value;
}

/// Whether `operands` hold tensors and none of them is on meta.
static bool hasOnlyRealTensors(ArrayRef<c10::IValue> operands) {
  std::vector<c10::IValue> leaves;
  for (const c10::IValue &operand : operands)
    flattenValue(operand, leaves);
  bool anyTensor = false;
  for (const c10::IValue &leaf : leaves) {
    if (!leaf.isTensor() || !leaf.toTensor().defined())
      continue;
    if (leaf.toTensor().is_meta())
      return false;
    anyTensor = true;
  }
  return anyTensor;
}

/// Whether a node reads a complex meta tensor. libtorch 1.13's meta kernels
/// and TorchScript's shape functions do not keep complex dtypes right (the
/// abs of a complex tensor stays complex on meta), so such a node runs on
/// filled cpu tensors instead.
static bool readsComplexMetaTensor(ArrayRef<c10::IValue> operands) {
  std::vector<c10::IValue> leaves;
  for (const c10::IValue &operand : operands)
    flattenValue(operand, leaves);
  return llvm::any_of(leaves, [](const c10::IValue &leaf) {
    return leaf.isTensor() && leaf.toTensor().defined() &&
           leaf.toTensor().is_meta() && leaf.toTensor().is_complex();
  });
}

FailureOr<std::vector<c10::IValue>>
Interpreter::Impl::callOperator(Operation *op, StringRef target, bool isMethod,
                                ArrayAttr args, DictionaryAttr kwargs,
                                ArrayRef<c10::IValue> operands,
                                const Observer *observer) {
  if (auto unpacked = unpack(target, operands)) {
    if (observer)
      (*observer)(op, operands, {}, *unpacked);
    return std::move(*unpacked);
  }
  // On meta, a node whose tensors all hold real values (integer weights and
  // what is computed from them alone) runs on cpu, so that sizes which
  // depend on them (lengths of packed sequences) stay exact.
  c10::Device callDevice =
      device.is_meta() && hasOnlyRealTensors(operands) ? c10::kCPU : device;
  llvm::Expected<BoundCall> call = bindCall(target, isMethod, args, kwargs,
                                            operands, callDevice, resolved[op]);
  if (!call)
    return emitNodeFailure(op, lastSucceeded)
           << "(" << target << "): " << llvm::toString(call.takeError());
  std::vector<c10::IValue> results;
  torch::jit::Stack stack = call->stack;
  // Operators found without a meta kernel skip the attempt (and the
  // exception, which costs a backtrace) on later calls.
  bool complexOnMeta =
      callDevice.is_meta() && readsComplexMetaTensor(call->stack);
  bool tryKernel =
      !callDevice.is_meta() ||
      (!complexOnMeta && !withoutMetaKernel.contains(call->op.get()));
  std::string reason =
      complexOnMeta ? "none for complex tensors" : "no meta kernel";
  bool ran = false;
  if (tryKernel) {
    try {
      call->op->getOperation()(stack);
      results.assign(stack.begin(), stack.end());
      ran = true;
    } catch (const std::exception &error) {
      reason = StringRef(error.what()).split('\n').first.str();
      if (!callDevice.is_meta())
        return emitNodeFailure(op, lastSucceeded)
               << "(" << target << ") failed: " << reason;
      withoutMetaKernel.insert(call->op.get());
    }
  }
  if (!ran) {
    FailureOr<std::vector<c10::IValue>> shaped =
        runWithoutMetaKernel(op, target, *call, reason,
                             /*useShapeFunctions=*/!complexOnMeta);
    if (failed(shaped))
      return failure();
    results = std::move(*shaped);
  }
  if (observer)
    (*observer)(op, call->arguments, call->argumentNames, results);
  return results;
}

/// A cpu tensor shaped like the meta `tensor`, for running a node that has
/// no meta kernel. Floats are ones and bools true, so that masks select
/// everything and data-dependent sizes take their largest value; integers
/// (indices, lengths) are `intFill`. The variant flips the last element of
/// floats and bools to zero and adds one to integers, so that a size that
/// depends on the values differs between the two fills. A tensor that is
/// not on meta has real values and is kept.
static at::Tensor fillLike(const at::Tensor &tensor, int64_t intFill,
                           bool variant, bool &filledIntegers) {
  if (!tensor.is_meta())
    return tensor;
  at::TensorOptions options = tensor.options().device(c10::kCPU);
  if (!at::isFloatingType(tensor.scalar_type()) &&
      !at::isComplexType(tensor.scalar_type()) &&
      tensor.scalar_type() != c10::ScalarType::Bool) {
    filledIntegers = true;
    return at::full(tensor.sizes(), intFill + (variant ? 1 : 0), options);
  }
  at::Tensor filled = at::ones(tensor.sizes(), options);
  if (variant && filled.numel() > 0)
    filled.view({-1}).select(0, filled.numel() - 1).fill_(0);
  return filled;
}

static bool isIntegerTensor(const at::Tensor &tensor) {
  return !at::isFloatingType(tensor.scalar_type()) &&
         !at::isComplexType(tensor.scalar_type()) &&
         tensor.scalar_type() != c10::ScalarType::Bool;
}

/// Runs `call` on cpu tensors filled as fillLike says, with the integer
/// fills `intFills` tried in order: zero (safe indices), or one when zero is
/// refused (lengths of packed sequences); `usedFill` is the one that ran.
/// Returns the results as meta tensors, except integer results computed
/// from real integers only (batch sizes of a packed sequence), which keep
/// their values on cpu; or the error.
static llvm::Expected<std::vector<c10::IValue>>
runOnFilledTensors(const runtime::BoundCall &call, ArrayRef<int64_t> intFills,
                   bool variant, int64_t &usedFill) {
  std::string lastError;
  for (int64_t intFill : intFills) {
    usedFill = intFill;
    bool filledIntegers = false;
    torch::jit::Stack stack;
    for (const c10::IValue &value : call.stack)
      stack.push_back(mapTensors(value, [&](const at::Tensor &tensor) {
        return fillLike(tensor, intFill, variant, filledIntegers);
      }));
    try {
      call.op->getOperation()(stack);
    } catch (const std::exception &error) {
      lastError = StringRef(error.what()).split('\n').first.str();
      if (!filledIntegers)
        break;
      continue;
    }
    for (c10::IValue &value : stack)
      value = mapTensors(value, [&](const at::Tensor &tensor) {
        if (!filledIntegers && isIntegerTensor(tensor))
          return tensor;
        return at::empty_strided(tensor.sizes(), tensor.strides(),
                                 tensor.options().device(c10::kMeta));
      });
    return std::vector<c10::IValue>(stack.begin(), stack.end());
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(), lastError);
}

/// Whether two runs on different fills gave results of the same shapes and
/// the same numbers.
static bool haveSameShapesAndNumbers(ArrayRef<c10::IValue> lhs,
                                     ArrayRef<c10::IValue> rhs) {
  std::vector<c10::IValue> left, right;
  for (const c10::IValue &value : lhs)
    flattenValue(value, left);
  for (const c10::IValue &value : rhs)
    flattenValue(value, right);
  if (left.size() != right.size())
    return false;
  for (auto [a, b] : llvm::zip(left, right)) {
    if (a.isTensor() != b.isTensor() ||
        (a.isTensor() && a.toTensor().defined() && b.toTensor().defined() &&
         a.toTensor().sizes() != b.toTensor().sizes()))
      return false;
    // A number read from the values (aten::Int of a tensor) that the fills
    // change is data-dependent too: a size computed from it would be.
    if ((a.isInt() && b.isInt() && a.toInt() != b.toInt()) ||
        (a.isDouble() && b.isDouble() && a.toDouble() != b.toDouble()))
      return false;
  }
  return true;
}

FailureOr<std::vector<c10::IValue>> Interpreter::Impl::runWithoutMetaKernel(
    Operation *op, StringRef target, const runtime::BoundCall &call,
    StringRef reason, bool useShapeFunctions) {
  // mav's shape rule, else TorchScript's shape function, when there is one,
  // gives the shapes without arithmetic.
  std::optional<std::vector<c10::IValue>> shaped;
  try {
    if (useShapeFunctions)
      shaped = runShapeRule(*call.op, call.stack);
    if (!shaped && useShapeFunctions)
      shaped = runShapeFunction(*call.op, call.stack);
  } catch (const std::exception &) {
    shaped.reset();
  }
  if (shaped)
    return std::move(*shaped);
  // Last resort: compute on filled cpu tensors of the same shapes, twice,
  // and keep only the shapes of the results. Where the two fills give
  // different shapes, the shapes depend on the values.
  int64_t primaryFill = 0, variantFill = 0;
  llvm::Expected<std::vector<c10::IValue>> primary =
      runOnFilledTensors(call, {0, 1}, /*variant=*/false, primaryFill);
  if (!primary)
    return emitNodeFailure(op, lastSucceeded)
           << "(" << target
           << ") failed: " << llvm::toString(primary.takeError());
  // The variant's integers are one more than those the primary ran with.
  llvm::Expected<std::vector<c10::IValue>> variant =
      runOnFilledTensors(call, {primaryFill}, /*variant=*/true, variantFill);
  if (!variant) {
    llvm::consumeError(variant.takeError());
    variant = *primary;
  }
  bool dataDependent = !haveSameShapesAndNumbers(*primary, *variant);
  if (dataDependent)
    dataDependentNodes.insert(op);
  if (useVariantFill)
    return dataDependent ? std::move(*variant) : std::move(*primary);
  if (dataDependent)
    op->emitRemark() << "node '" << nodeName(op) << "' (" << target
                     << "): the shape of its result depends on the values of "
                        "its inputs; the dimensions that vary are dynamic "
                        "('?' in types, -1 in metadata); propagate on cpu for "
                        "the sizes of one input";
  else
    op->emitRemark() << "node '" << nodeName(op) << "' (" << target
                     << ") has no meta kernel (" << reason
                     << "): its shapes were computed on filled cpu tensors";
  return std::move(*primary);
}

FailureOr<std::vector<c10::IValue>>
mav::makeRandomInputs(GraphOp graph, uint64_t seed, int64_t intHigh,
                      c10::Device device, bool uniform, double scale) {
  at::manual_seed(seed);
  std::vector<c10::IValue> inputs;
  for (auto [argument, name] :
       llvm::zip(graph.getBodyBlock().getArguments(), graph.getArgNames())) {
    auto type = argument.getType().dyn_cast<RankedTensorType>();
    std::optional<c10::ScalarType> dtype =
        type ? convertElementType(type.getElementType()) : std::nullopt;
    if (!type || !type.hasStaticShape() || !dtype)
      return graph.emitError()
             << "placeholder '" << name.cast<StringAttr>().getValue()
             << "' has type " << argument.getType()
             << ": random inputs need a static shape and a torch dtype "
                "(import with --input-shape)";
    std::vector<int64_t> sizes(type.getShape().begin(), type.getShape().end());
    auto options = at::TensorOptions().dtype(*dtype);
    at::Tensor tensor;
    if (at::isFloatingType(*dtype) || at::isComplexType(*dtype)) {
      tensor = uniform ? at::rand(sizes, options) : at::randn(sizes, options);
      if (scale != 1.0)
        tensor = tensor * scale;
    } else if (*dtype == c10::ScalarType::Bool)
      tensor = at::randint(0, 2, sizes, options);
    else
      tensor = at::randint(0, intHigh, sizes, options);
    inputs.push_back(tensor.to(device));
  }
  return inputs;
}
