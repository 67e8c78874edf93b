//===- OperatorCall.cpp - Boxed calls of TorchScript operators ------------===//

#include "OperatorCall.h"

#include "mav/IR/MavAttrs.h"

#include "llvm/Support/Error.h"

using namespace mlir;
using namespace mav;
using namespace mav::runtime;

static c10::TypePtr unwrapOptional(const c10::TypePtr &type) {
  if (type && type->kind() == c10::TypeKind::OptionalType)
    return type->expectRef<c10::OptionalType>().getElementType();
  return type;
}

/// The element type of a list whose schema type is unknown.
static c10::TypePtr inferElementType(llvm::ArrayRef<c10::IValue> elements) {
  if (elements.empty() ||
      llvm::all_of(elements, [](const c10::IValue &v) { return v.isInt(); }))
    return c10::IntType::get();
  if (llvm::all_of(elements, [](const c10::IValue &v) { return v.isDouble(); }))
    return c10::FloatType::get();
  if (llvm::all_of(elements, [](const c10::IValue &v) { return v.isBool(); }))
    return c10::BoolType::get();
  if (llvm::all_of(elements, [](const c10::IValue &v) { return v.isTensor(); }))
    return c10::TensorType::get();
  if (llvm::all_of(elements, [](const c10::IValue &v) { return v.isString(); }))
    return c10::StringType::get();
  return c10::AnyType::get();
}

c10::IValue runtime::convertArgument(Attribute value,
                                     const c10::TypePtr &expected,
                                     ArrayRef<c10::IValue> operands,
                                     c10::Device device) {
  if (auto ref = value.dyn_cast<OperandRefAttr>())
    return operands[ref.getIndex()];
  if (auto boolean = value.dyn_cast<BoolAttr>())
    return boolean.getValue();
  if (auto integer = value.dyn_cast<IntegerAttr>())
    return integer.getInt();
  if (auto number = value.dyn_cast<FloatAttr>())
    return number.getValueAsDouble();
  if (auto string = value.dyn_cast<StringAttr>())
    return string.str();
  if (value.isa<NoneAttr>())
    return c10::IValue();
  if (auto dtype = value.dyn_cast<ScalarTypeAttr>())
    return static_cast<int64_t>(dtype.getValue());
  if (auto layout = value.dyn_cast<LayoutAttr>())
    return static_cast<int64_t>(layout.getValue());
  if (auto format = value.dyn_cast<MemoryFormatAttr>())
    return static_cast<int64_t>(format.getValue());
  if (auto deviceAttr = value.dyn_cast<DeviceAttr>())
    return device.is_meta() ? device
                            : c10::Device(deviceAttr.getDevice().str());
  c10::TypePtr type = unwrapOptional(expected);
  if (auto tuple = value.dyn_cast<TupleAttr>()) {
    std::vector<c10::IValue> elements;
    for (auto [index, element] : llvm::enumerate(tuple.getElements())) {
      c10::TypePtr elementType;
      if (type && type->kind() == c10::TypeKind::TupleType &&
          index < type->containedTypes().size())
        elementType = type->containedTypes()[index];
      elements.push_back(
          convertArgument(element, elementType, operands, device));
    }
    return c10::ivalue::Tuple::create(std::move(elements));
  }
  if (auto dict = value.dyn_cast<DictAttr>()) {
    std::vector<c10::IValue> keys, values;
    for (auto [key, element] : llvm::zip(dict.getKeys(), dict.getValues())) {
      keys.push_back(convertArgument(key, nullptr, operands, device));
      values.push_back(convertArgument(element, nullptr, operands, device));
    }
    c10::impl::GenericDict result(inferElementType(keys),
                                  inferElementType(values));
    for (auto [key, element] : llvm::zip(keys, values))
      result.insert_or_assign(std::move(key), std::move(element));
    return result;
  }
  auto list = value.cast<ArrayAttr>();
  c10::TypePtr elementType;
  if (type && type->kind() == c10::TypeKind::ListType)
    elementType = type->expectRef<c10::ListType>().getElementType();
  std::vector<c10::IValue> elements;
  for (Attribute element : list)
    elements.push_back(convertArgument(element, elementType, operands, device));
  c10::impl::GenericList result(elementType ? elementType
                                            : inferElementType(elements));
  for (c10::IValue &element : elements)
    result.push_back(std::move(element));
  return result;
}

/// Binds the node's arguments to `schema`. With `checkTypes`, fails when a
/// value does not fit its parameter (overload resolution).
static llvm::Expected<BoundCall>
bindToSchema(const c10::FunctionSchema &schema, ArrayAttr args,
             DictionaryAttr kwargs, ArrayRef<c10::IValue> operands,
             c10::Device device, bool checkTypes) {
  BoundCall call;
  const std::vector<c10::Argument> &parameters = schema.arguments();
  if (schema.is_vararg()) {
    for (Attribute arg : args) {
      call.stack.push_back(convertArgument(arg, nullptr, operands, device));
      call.arguments.push_back(call.stack.back());
      call.argumentNames.emplace_back();
    }
    return std::move(call);
  }
  if (args.size() > parameters.size())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%zu positional arguments, %s takes %zu",
                                   (size_t)args.size(), schema.name().c_str(),
                                   parameters.size());
  size_t keywordsUsed = 0;
  for (auto [index, parameter] : llvm::enumerate(parameters)) {
    c10::IValue value;
    bool given = true;
    if (index < args.size()) {
      value = convertArgument(args[index], parameter.type(), operands, device);
    } else if (Attribute keyword = kwargs.get(parameter.name())) {
      value = convertArgument(keyword, parameter.type(), operands, device);
      ++keywordsUsed;
    } else if (parameter.default_value()) {
      value = *parameter.default_value();
      given = false;
    } else {
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "missing argument '%s'",
                                     parameter.name().c_str());
    }
    if (checkTypes && !value.type()->isSubtypeOf(*parameter.type()))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(), "argument '%s' is %s, not %s",
          parameter.name().c_str(), value.type()->repr_str().c_str(),
          parameter.type()->repr_str().c_str());
    if (given) {
      call.arguments.push_back(value);
      call.argumentNames.push_back(parameter.name());
    }
    call.stack.push_back(std::move(value));
  }
  if (keywordsUsed != kwargs.size())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unknown keyword argument for %s",
                                   schema.name().c_str());
  return std::move(call);
}

llvm::Expected<BoundCall>
runtime::bindCall(StringRef target, bool isMethod, ArrayAttr args,
                  DictionaryAttr kwargs, ArrayRef<c10::IValue> operands,
                  c10::Device device,
                  std::shared_ptr<torch::jit::Operator> &resolved) {
  if (resolved) {
    llvm::Expected<BoundCall> call =
        bindToSchema(resolved->schema(), args, kwargs, operands, device,
                     /*checkTypes=*/false);
    if (call)
      call->op = resolved;
    return call;
  }
  std::string qualified = isMethod ? ("aten::" + target).str() : target.str();
  auto [name, overload] = StringRef(qualified).split('.');
  std::vector<std::shared_ptr<torch::jit::Operator>> candidates;
  try {
    candidates =
        torch::jit::getAllOperatorsFor(c10::Symbol::fromQualString(name.str()));
  } catch (const std::exception &error) {
    // fromQualString throws on a name without a namespace ("add").
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "no TorchScript operator named %s: %s",
        name.str().c_str(),
        StringRef(error.what()).split('\n').first.str().c_str());
  }
  if (candidates.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no TorchScript operator named %s",
                                   name.str().c_str());
  std::string reasons;
  for (const std::shared_ptr<torch::jit::Operator> &candidate : candidates) {
    const c10::FunctionSchema &schema = candidate->schema();
    if (!overload.empty() && schema.overload_name() != overload)
      continue;
    llvm::Expected<BoundCall> call = bindToSchema(
        schema, args, kwargs, operands, device, /*checkTypes=*/true);
    if (call) {
      resolved = candidate;
      call->op = candidate;
      return call;
    }
    reasons +=
        "; " + c10::toString(schema) + ": " + llvm::toString(call.takeError());
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "no overload of %s fits the arguments%s",
                                 qualified.c_str(), reasons.c_str());
}
