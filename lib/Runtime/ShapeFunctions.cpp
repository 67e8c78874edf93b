//===- ShapeFunctions.cpp - Result shapes without arithmetic --------------===//

#include "ShapeFunctions.h"

#include "mav/IR/MavAttrs.h"
#include "mav/Operators/AtenSchemas.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <ATen/ATen.h>
#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/runtime/symbolic_shape_registry.h>

#include <map>
#include <mutex>

using namespace mav;

/// Compiled shape functions by schema; null where there is none.
static torch::jit::GraphFunction *
getShapeFunction(const c10::FunctionSchema &schema) {
  static std::mutex mutex;
  static std::map<const c10::FunctionSchema *,
                  std::unique_ptr<torch::jit::GraphFunction>>
      cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(&schema);
  if (it != cache.end())
    return it->second.get();
  std::unique_ptr<torch::jit::GraphFunction> function;
  if (auto graph = torch::jit::shapeComputeGraphForSchema(schema))
    function = std::make_unique<torch::jit::GraphFunction>("mav_shape_function",
                                                           *graph, nullptr);
  return (cache[&schema] = std::move(function)).get();
}

/// Operators without a meta kernel or a shape function in 1.13 whose result
/// has the shape of their first tensor argument.
static bool preservesShape(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases("aten::layer_norm", "aten::group_norm", "aten::instance_norm",
             "aten::batch_norm", true)
      .Cases("aten::dropout", "aten::feature_dropout", "aten::alpha_dropout",
             "aten::feature_alpha_dropout", true)
      .Cases("aten::_transformer_encoder_layer_fwd", "aten::gelu", "aten::silu",
             "aten::hardswish", "aten::hardsigmoid", true)
      .Case("aten::roll", true)
      .Default(false);
}

/// The result of a shape-preserving operator, from its first tensor.
static std::optional<std::vector<c10::IValue>>
sameShapeAsInput(const c10::FunctionSchema &schema,
                 const torch::jit::Stack &stack) {
  if (schema.returns().size() != 1 || !preservesShape(schema.name()))
    return std::nullopt;
  for (const c10::IValue &value : stack)
    if (value.isTensor()) {
      const at::Tensor &input = value.toTensor();
      return std::vector<c10::IValue>{
          at::empty_strided(input.sizes(), input.strides(), input.options())};
    }
  return std::nullopt;
}

/// A shape function sees tensors as their sizes.
static c10::IValue asShapeInput(const c10::IValue &value) {
  if (value.isTensor())
    return c10::List<int64_t>(value.toTensor().sizes().vec());
  if (value.isTensorList()) {
    c10::impl::GenericList sizes(c10::ListType::ofInts());
    for (const at::Tensor &tensor : value.toTensorList())
      sizes.push_back(c10::List<int64_t>(tensor.sizes().vec()));
    return sizes;
  }
  return value;
}

std::optional<std::vector<c10::IValue>>
runtime::runShapeFunction(const torch::jit::Operator &op,
                          const torch::jit::Stack &stack) {
  const c10::FunctionSchema &schema = op.schema();
  if (llvm::any_of(schema.returns(), [](const c10::Argument &result) {
        return result.type()->kind() != c10::TypeKind::TensorType;
      }))
    return std::nullopt;
  torch::jit::GraphFunction *function = getShapeFunction(schema);
  size_t arity = stack.size();
  if (!function && schema.name() == "aten::_convolution") {
    // Traces record every convolution as _convolution, whose first nine
    // arguments are those of aten::convolution.
    static const c10::FunctionSchema &convolution =
        torch::jit::getAllOperatorsFor(
            c10::Symbol::fromQualString("aten::convolution"))
            .front()
            ->schema();
    function = getShapeFunction(convolution);
    arity = convolution.arguments().size();
  }
  if (!function || arity > stack.size())
    return sameShapeAsInput(schema, stack);
  std::optional<at::Tensor> first;
  torch::jit::Stack shapeStack;
  for (const c10::IValue &value :
       llvm::ArrayRef<c10::IValue>(stack).take_front(arity)) {
    if (!first && value.isTensor())
      first = value.toTensor();
    shapeStack.push_back(asShapeInput(value));
  }
  if (!first)
    return std::nullopt;
  try {
    function->run(shapeStack);
  } catch (const std::exception &) {
    return sameShapeAsInput(schema, stack);
  }
  std::vector<c10::IValue> shapes;
  if (shapeStack.size() == 1 && shapeStack[0].isTuple()) {
    const auto &elements = shapeStack[0].toTupleRef().elements();
    shapes.assign(elements.begin(), elements.end());
  } else {
    shapes.assign(shapeStack.begin(), shapeStack.end());
  }
  if (shapes.size() != schema.returns().size())
    return std::nullopt;
  std::vector<c10::IValue> results;
  for (const c10::IValue &shape : shapes) {
    if (!shape.isIntList())
      return std::nullopt;
    results.push_back(
        at::empty(shape.toIntVector(), first->options().device(c10::kMeta)));
  }
  return results;
}

namespace {
/// A bound call's arguments, by schema position (the stack holds every
/// argument, defaults included) or name.
class StackArguments : public CallArguments {
public:
  StackArguments(const c10::FunctionSchema &schema,
                 const torch::jit::Stack &stack)
      : schema(schema), stack(stack) {}

  std::optional<llvm::ArrayRef<int64_t>>
  getShape(unsigned position, llvm::StringRef keyword) const override {
    if (std::optional<TensorRef> tensor = getTensor(position, keyword))
      return tensor->sizes;
    return std::nullopt;
  }

  std::optional<TensorRef> getTensor(unsigned position,
                                     llvm::StringRef keyword) const override {
    const c10::IValue *value = get(position, keyword);
    if (!value || !value->isTensor())
      return std::nullopt;
    return describe(value->toTensor());
  }

  std::optional<llvm::SmallVector<TensorRef>>
  getTensorList(unsigned position, llvm::StringRef keyword) const override {
    const c10::IValue *value = get(position, keyword);
    if (!value || !value->isTensorList())
      return std::nullopt;
    llvm::SmallVector<TensorRef> tensors;
    for (const c10::IValue &element : value->toListRef()) {
      std::optional<TensorRef> tensor =
          element.isTensor() ? describe(element.toTensor()) : std::nullopt;
      if (!tensor)
        return std::nullopt;
      tensors.push_back(*tensor);
    }
    return tensors;
  }

  std::optional<double> getNumber(unsigned position,
                                  llvm::StringRef keyword) const override {
    const c10::IValue *value = get(position, keyword);
    if (!value)
      return std::nullopt;
    if (value->isDouble())
      return value->toDouble();
    if (value->isInt())
      return double(value->toInt());
    if (value->isBool())
      return value->toBool() ? 1.0 : 0.0;
    return std::nullopt;
  }

  bool has(unsigned position, llvm::StringRef keyword) const override {
    return get(position, keyword) != nullptr;
  }

  std::optional<llvm::SmallVector<int64_t>>
  getInts(unsigned position, llvm::StringRef keyword,
          size_t count) const override {
    const c10::IValue *value = get(position, keyword);
    if (!value)
      return std::nullopt;
    if (value->isBool())
      return llvm::SmallVector<int64_t>(count, value->toBool() ? 1 : 0);
    if (value->isInt())
      return llvm::SmallVector<int64_t>(count, value->toInt());
    if (!value->isIntList())
      return std::nullopt;
    std::vector<int64_t> ints = value->toIntVector();
    if (ints.size() == 1 && count > 1)
      return llvm::SmallVector<int64_t>(count, ints.front());
    return llvm::SmallVector<int64_t>(ints.begin(), ints.end());
  }

  std::optional<llvm::StringRef>
  getString(unsigned position, llvm::StringRef keyword) const override {
    const c10::IValue *value = get(position, keyword);
    if (!value || !value->isString())
      return std::nullopt;
    return llvm::StringRef(value->toStringRef());
  }

private:
  static std::optional<TensorRef> describe(const at::Tensor &tensor) {
    if (!tensor.defined())
      return std::nullopt;
    return TensorRef{
        llvm::ArrayRef<int64_t>(tensor.sizes().data(), tensor.sizes().size()),
        llvm::ArrayRef<int64_t>(tensor.strides().data(),
                                tensor.strides().size()),
        static_cast<ScalarType>(tensor.scalar_type())};
  }

  /// The argument at `position` if the schema names it `keyword` there (or
  /// `keyword` is empty), else the one named `keyword`; null when absent or
  /// None.
  const c10::IValue *get(unsigned position, llvm::StringRef keyword) const {
    const std::vector<c10::Argument> &arguments = schema.arguments();
    size_t index = position;
    if (index >= arguments.size() ||
        (!keyword.empty() && arguments[index].name() != keyword.str())) {
      index = arguments.size();
      for (size_t i = 0; i < arguments.size() && !keyword.empty(); ++i)
        if (arguments[i].name() == keyword.str())
          index = i;
    }
    if (index >= arguments.size() || index >= stack.size())
      return nullptr;
    const c10::IValue &value = stack[index];
    return value.isNone() ? nullptr : &value;
  }

  const c10::FunctionSchema &schema;
  const torch::jit::Stack &stack;
};
} // namespace

std::optional<std::vector<c10::IValue>>
runtime::runShapeRule(const torch::jit::Operator &op,
                      const torch::jit::Stack &stack) {
  const c10::FunctionSchema &schema = op.schema();
  std::string target = schema.name();
  if (!schema.overload_name().empty())
    target += "." + schema.overload_name();
  // A bare name ("aten::floor_divide") also names the other overloads.
  const AtenSchema *known = nullptr;
  for (const AtenSchema *candidate : lookupAtenSchemas(target))
    if (candidate->overload == schema.overload_name())
      known = candidate;
  if (!known || !known->shape)
    return std::nullopt;
  std::optional<llvm::SmallVector<ResultShape>> shapes =
      known->shape(StackArguments(schema, stack));
  if (!shapes || shapes->size() != schema.returns().size())
    return std::nullopt;
  std::optional<at::Tensor> first;
  for (const c10::IValue &value : stack)
    if (value.isTensor() && value.toTensor().defined()) {
      first = value.toTensor();
      break;
    }
  std::vector<c10::IValue> results;
  for (const ResultShape &shape : *shapes) {
    if (!shape) {
      results.push_back(at::Tensor());
      continue;
    }
    std::optional<c10::ScalarType> dtype;
    if (shape->dtype)
      dtype = static_cast<c10::ScalarType>(*shape->dtype);
    else if (first)
      dtype = first->scalar_type();
    if (!dtype)
      return std::nullopt;
    auto options = at::TensorOptions().dtype(*dtype).device(c10::kMeta);
    results.push_back(
        shape->strides.empty()
            ? at::empty(shape->sizes, options)
            : at::empty_strided(shape->sizes, shape->strides, options));
  }
  return results;
}
