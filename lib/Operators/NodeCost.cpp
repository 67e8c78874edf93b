//===- NodeCost.cpp - FLOPs and MACs of one node --------------------------===//

#include "mav/Operators/NodeCost.h"
#include "mav/IR/AtenCall.h"
#include "mav/IR/MavAttrs.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mav;

namespace {

using Shape = ArrayRef<int64_t>;

std::optional<Shape> staticShape(Type type) {
  auto tensor = type.dyn_cast<RankedTensorType>();
  if (!tensor || !tensor.hasStaticShape())
    return std::nullopt;
  return tensor.getShape();
}

/// The shapes an evaluation of `call` sees. When `module` is set, `call` is
/// in its body, whose placeholders take the types of the module's operands;
/// `bodyTypes`, when set, types the body's values for one call.
class ShapeView {
public:
  ShapeView(Operation *call, CallModuleOp module,
            const BodyTypes *bodyTypes = nullptr)
      : module(module), bodyTypes(bodyTypes) {
    for (Value operand : call->getOperands())
      operands.push_back(shapeOf(operand));
  }

  std::optional<Shape> shapeOf(Value value) const {
    if (bodyTypes)
      if (auto typed = bodyTypes->find(value); typed != bodyTypes->end())
        return staticShape(typed->second);
    auto argument = value.dyn_cast<BlockArgument>();
    if (module && argument)
      return argument.getArgNumber() < module->getNumOperands()
                 ? staticShape(
                       module->getOperand(argument.getArgNumber()).getType())
                 : std::nullopt;
    return staticShape(value.getType());
  }

  SmallVector<std::optional<Shape>> operands;

private:
  CallModuleOp module;
  const BodyTypes *bodyTypes;
};

/// Arguments of an aten call, by schema position, else keyword.
class AtenCallConfig : public CallArguments {
public:
  AtenCallConfig(const AtenCall &call, const ShapeView &view)
      : call(call), view(view) {}

  std::optional<Shape> getShape(unsigned position,
                                StringRef keyword) const override {
    Value value = call.operand(position, keyword);
    return value ? view.shapeOf(value) : std::nullopt;
  }

  std::optional<SmallVector<int64_t>>
  getInts(unsigned position, StringRef keyword, size_t count) const override {
    return intsOf(call.get(position, keyword), count);
  }
  std::optional<StringRef> getString(unsigned position,
                                     StringRef keyword) const override {
    return stringOf(call.get(position, keyword));
  }

  /// Bools read as 0 and 1, for flags such as `bidirectional`.
  static std::optional<SmallVector<int64_t>> intsOf(Attribute value,
                                                    size_t count) {
    if (auto flag = value.dyn_cast_or_null<BoolAttr>())
      return SmallVector<int64_t>(count, flag.getValue() ? 1 : 0);
    return getIntList(value, count);
  }
  static std::optional<StringRef> stringOf(Attribute value) {
    if (auto string = value.dyn_cast_or_null<StringAttr>())
      return string.getValue();
    return std::nullopt;
  }

private:
  const AtenCall &call;
  const ShapeView &view;
};

/// A module's `config` constants, by keyword only (positions belong to aten
/// schemas), and its call's tensors.
class ModuleConfig : public CallArguments {
public:
  ModuleConfig(CallModuleOp module, const ShapeView &view,
               SymbolTableCollection &symbols)
      : call{module, module.getTarget(), module.getArgs(), module.getKwargs()},
        config(module.getConfigAttr()), view(view), symbols(symbols) {}

  /// Tensors are the call's own arguments, positional or keyword, else the
  /// module's weights by name (`weight_ih` is `<target>.weight_ih`).
  std::optional<Shape> getShape(unsigned position,
                                StringRef keyword) const override {
    if (Value value = call.operand(position, keyword))
      return view.shapeOf(value);
    auto module = cast<CallModuleOp>(call.call);
    auto weight = symbols.lookupNearestSymbolFrom<WeightOp>(
        module, StringAttr::get(module.getContext(),
                                module.getTarget() + "." + keyword));
    return weight ? staticShape(weight.getWeightType()) : std::nullopt;
  }

  std::optional<SmallVector<int64_t>> getInts(unsigned, StringRef keyword,
                                              size_t count) const override {
    return AtenCallConfig::intsOf(config ? config.get(keyword) : Attribute(),
                                  count);
  }
  std::optional<StringRef> getString(unsigned,
                                     StringRef keyword) const override {
    return AtenCallConfig::stringOf(config ? config.get(keyword) : Attribute());
  }

private:
  AtenCall call;
  DictionaryAttr config;
  const ShapeView &view;
  SymbolTableCollection &symbols;
};

SmallVector<std::optional<Shape>>
argumentShapes(ArrayAttr args, Operation *call, const ShapeView &view) {
  SmallVector<std::optional<Shape>> shapes;
  for (Attribute arg : args) {
    auto ref = arg.dyn_cast<OperandRefAttr>();
    shapes.push_back(ref ? view.shapeOf(call->getOperand(ref.getIndex()))
                         : std::nullopt);
  }
  return shapes;
}

const OpInfo *lookupCallTarget(Operation *call, StringRef target) {
  if (isa<CallMethodOp>(call))
    return lookupTensorMethod(target);
  return lookupAtenOp(target);
}

/// In a module body of several nodes, the one call computing the module's
/// own operator (nn.LSTM's aten::lstm among the size queries and zeros that
/// prepare its state), if there is exactly one.
std::optional<AtenCall> getRepresentativeCall(CallModuleOp module,
                                              const OpInfo *moduleInfo,
                                              SymbolTableCollection &symbols) {
  if (!moduleInfo || !module.getBodyAttr())
    return std::nullopt;
  auto body =
      symbols.lookupNearestSymbolFrom<GraphOp>(module, module.getBodyAttr());
  if (!body)
    return std::nullopt;
  std::optional<AtenCall> found;
  for (Operation &op : body.getBodyBlock().without_terminator()) {
    auto call = dyn_cast<CallFunctionOp>(op);
    if (!call || lookupAtenOp(call.getTarget()) != moduleInfo)
      continue;
    if (found)
      return std::nullopt;
    found = AtenCall{call, call.getTarget(), call.getArgs(), call.getKwargs()};
  }
  return found;
}

NodeCost evaluate(const OpInfo *info, const CostInputs &inputs) {
  if (!info)
    return {};
  if (!info->cost)
    return {CostStatus::NoArithmetic, {}};
  if (std::optional<OpCost> cost = info->cost(inputs))
    return {CostStatus::Counted, *cost};
  return {};
}

/// Evaluates `info`'s formula on the aten call `call`, which is in the body
/// of `module` when that is set.
NodeCost evaluateCall(const OpInfo *info, const AtenCall &call,
                      CallModuleOp module, ArrayRef<Shape> results,
                      const BodyTypes *bodyTypes = nullptr) {
  ShapeView view(call.call, module, bodyTypes);
  SmallVector<std::optional<Shape>> args =
      argumentShapes(call.args, call.call, view);
  AtenCallConfig config(call, view);
  return evaluate(info, CostInputs{args, results, view.operands, &config});
}

/// A module counted as the sum of its body's nodes, typed for this call
/// by `typeBody`: unknown when the body cannot be typed or one of its nodes
/// that computes cannot be counted.
NodeCost computeBodyCost(CallModuleOp module, SymbolTableCollection &symbols,
                         BodyTyper typeBody) {
  if (!typeBody || !module.getBodyAttr())
    return {};
  auto body =
      symbols.lookupNearestSymbolFrom<GraphOp>(module, module.getBodyAttr());
  if (!body)
    return {};
  const BodyTypes *types = typeBody(module, body);
  if (!types)
    return {};
  NodeCost total{CostStatus::NoArithmetic, {}};
  for (auto node : body.getBodyBlock().getOps<NodeOpInterface>()) {
    Operation *op = node;
    if (isa<GetAttrOp, LearnableOp>(op))
      continue;
    // Bodies are of leaf modules: a module inside one is not read here.
    if (isa<CallModuleOp>(op))
      return {};
    FailureOr<AtenCall> call = getAtenCall(node, symbols);
    const OpInfo *info =
        succeeded(call) ? lookupCallTarget(call->call, call->target) : nullptr;
    if (!info)
      return {};
    SmallVector<Shape> results;
    for (Value result : op->getResults())
      if (auto type = types->find(result); type != types->end())
        if (std::optional<Shape> shape = staticShape(type->second))
          results.push_back(*shape);
    NodeCost cost = evaluateCall(info, *call, module, results, types);
    if (cost.status == CostStatus::Unknown)
      return {};
    if (cost.status == CostStatus::Counted) {
      total.status = CostStatus::Counted;
      total.cost.flops += cost.cost.flops;
      total.cost.macs += cost.cost.macs;
    }
  }
  return total;
}

} // namespace

NodeCost mav::computeNodeCost(NodeOpInterface node,
                              SymbolTableCollection &symbols,
                              BodyTyper typeBody) {
  Operation *op = node;
  if (isa<GetAttrOp, LearnableOp>(op))
    return {CostStatus::NoArithmetic, {}};
  SmallVector<Shape> results;
  for (Value result : op->getResults())
    if (std::optional<Shape> shape = staticShape(result.getType()))
      results.push_back(*shape);
  auto module = dyn_cast<CallModuleOp>(op);

  FailureOr<AtenCall> call = getAtenCall(node, symbols);
  if (succeeded(call))
    if (const OpInfo *info = lookupCallTarget(call->call, call->target))
      return evaluateCall(info, *call, module, results);
  if (!module)
    return {};
  const OpInfo *moduleInfo = lookupModuleClass(module.getModuleClass());
  if (std::optional<AtenCall> representative =
          getRepresentativeCall(module, moduleInfo, symbols))
    return evaluateCall(moduleInfo, *representative, module, results);
  ShapeView view(op, CallModuleOp());
  SmallVector<std::optional<Shape>> args =
      argumentShapes(module.getArgs(), op, view);
  ModuleConfig config(module, view, symbols);
  NodeCost cost =
      evaluate(moduleInfo, CostInputs{args, results, view.operands, &config});
  if (cost.status != CostStatus::Unknown)
    return cost;
  return computeBodyCost(module, symbols, typeBody);
}
