//===- ShapePropagation.cpp - Metadata from running a graph ---------------===//

#include "mav/Runtime/ShapePropagation.h"
#include "DynamicDims.h"
#include "RuntimeServices.h"

#include "mav/IR/ScalarTypes.h"
#include "mav/Operators/OpRegistry.h"
#include "mav/Operators/OperatorInference.h"
#include "mav/Runtime/Interpreter.h"
#include "mav/Runtime/TorchTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"

#include <ATen/ATen.h>

using namespace mlir;
using namespace mav;

/// torch's Python spelling of a dtype, as MASE records it.
static std::string pythonDTypeName(c10::ScalarType type) {
  return getTorchDTypeName(static_cast<ScalarType>(type));
}

/// MASE's `type` and `precision` of a dtype.
static std::pair<StringRef, int64_t> maseType(c10::ScalarType type) {
  return getMasePrecision(static_cast<ScalarType>(type));
}

namespace {
class Describer {
public:
  Describer(MLIRContext *context, bool addValue)
      : context(context), builder(context), addValue(addValue) {}

  /// The constant of a non-tensor value, or null.
  Attribute constantOf(const c10::IValue &value) {
    if (value.isNone())
      return NoneAttr::get(context);
    if (value.isBool())
      return builder.getBoolAttr(value.toBool());
    if (value.isInt())
      return builder.getI64IntegerAttr(value.toInt());
    if (value.isDouble())
      return builder.getF64FloatAttr(value.toDouble());
    if (value.isString())
      return builder.getStringAttr(value.toStringRef());
    if (value.isDevice())
      return DeviceAttr::get(context, value.toDevice().str());
    if (value.isList() || value.isTuple()) {
      SmallVector<Attribute> elements;
      auto add = [&](const c10::IValue &element) {
        Attribute constant = constantOf(element);
        elements.push_back(constant);
        return bool(constant);
      };
      bool all = true;
      if (value.isList())
        for (const c10::IValue &element : value.toListRef())
          all &= add(element);
      else
        for (const c10::IValue &element : value.toTupleRef().elements())
          all &= add(element);
      if (!all)
        return {};
      ArrayAttr array = builder.getArrayAttr(elements);
      return value.isList() ? Attribute(array)
                            : Attribute(TupleAttr::get(context, array));
    }
    return {};
  }

  ValueMetaAttr describe(StringRef name, const c10::IValue &value) {
    if (isUndefinedTensor(value))
      return describe(name, c10::IValue());
    if (!value.isTensor()) {
      StringRef kind = value.isInt()      ? "int"
                       : value.isDouble() ? "float"
                       : value.isBool()   ? "bool"
                       : value.isNone()   ? "NoneType"
                       : value.isList()   ? "list"
                       : value.isTuple()  ? "tuple"
                       : value.isString() ? "str"
                                          : "object";
      return ValueMetaAttr::get(context, name, {}, "", kind, {}, {},
                                constantOf(value));
    }
    const at::Tensor &tensor = value.toTensor();
    auto [type, bits] = maseType(tensor.scalar_type());
    Attribute tensorValue;
    if (addValue && !tensor.is_meta())
      tensorValue = valueOf(tensor);
    return ValueMetaAttr::get(
        context, name, builder.getDenseI64ArrayAttr(tensor.sizes().vec()),
        pythonDTypeName(tensor.scalar_type()), type,
        builder.getDenseI64ArrayAttr({bits}),
        builder.getDenseI64ArrayAttr(tensor.strides().vec()), tensorValue);
  }

  static bool isUndefinedTensor(const c10::IValue &value) {
    return value.isTensor() && !value.toTensor().defined();
  }

  Type refinedType(const c10::IValue &value) {
    if (value.isTuple()) {
      SmallVector<Type> elements;
      for (const c10::IValue &element : value.toTupleRef().elements()) {
        Type type = element.isNone() || isUndefinedTensor(element)
                        ? mav::NoneType::get(context)
                        : refinedType(element);
        if (!type)
          return {};
        elements.push_back(type);
      }
      return mav::TupleType::get(context, elements);
    }
    if (!value.isTensor() || isUndefinedTensor(value))
      return {};
    const at::Tensor &tensor = value.toTensor();
    Type element = convertScalarType(tensor.scalar_type(), context);
    if (!element)
      return {};
    return RankedTensorType::get(tensor.sizes().vec(), element);
  }

private:
  Attribute valueOf(const at::Tensor &tensor) {
    auto type =
        refinedType(c10::IValue(tensor)).dyn_cast_or_null<RankedTensorType>();
    if (!type || tensor.scalar_type() == c10::ScalarType::Bool)
      return {};
    at::Tensor dense = tensor.contiguous();
    ArrayRef<char> bytes(static_cast<const char *>(dense.data_ptr()),
                         dense.nbytes());
    bool detectedSplat = false;
    if (!DenseElementsAttr::isValidRawBuffer(type, bytes, detectedSplat))
      return {};
    return DenseElementsAttr::getFromRawBuffer(type, bytes);
  }

  MLIRContext *context;
  Builder builder;
  bool addValue;
};
} // namespace

/// Runs the graph again with the variant fill (see Interpreter) and makes
/// dynamic every dimension that differs from the first run.
static LogicalResult findDynamicDims(
    GraphOp graph, Interpreter &interpreter,
    function_ref<LogicalResult(SmallVectorImpl<Attribute> &)> runOnce,
    std::vector<std::pair<Operation *, NodeShapes>> &described,
    SmallVectorImpl<Attribute> &outputs) {
  std::vector<std::pair<Operation *, NodeShapes>> first = std::move(described);
  SmallVector<Attribute> variantOutputs;
  LogicalResult ran = failure();
  {
    // The second run repeats the first one's remarks; a failure is reported
    // below, once.
    ScopedDiagnosticHandler quiet(graph.getContext(),
                                  [](Diagnostic &) { return success(); });
    interpreter.setVariantFill(true);
    ran = runOnce(variantOutputs);
    interpreter.setVariantFill(false);
  }
  if (failed(ran) || described.size() != first.size())
    return graph.emitError()
           << "graph '" << graph.getSymName()
           << "' has data-dependent shapes, and propagating them with a "
              "second fill failed; propagate on cpu (device=cpu)";
  for (auto [mine, theirs] : llvm::zip(first, described))
    mergeDynamicDims(mine.second, theirs.second);
  for (auto [output, other] : llvm::zip(outputs, variantOutputs))
    output = mergeDynamicDims(output, other);
  described = std::move(first);
  return success();
}

LogicalResult mav::torch_runtime::propagateShapes(
    GraphOp graph, ArrayRef<RankedTensorType> inputTypes,
    const ShapePropagationOptions &options,
    function_ref<void(Operation *, const NodeShapes &)> onNode,
    SmallVectorImpl<Attribute> &outputs) {
  c10::Device device =
      options.onMeta ? c10::Device(c10::kMeta) : c10::Device(c10::kCPU);
  MLIRContext *context = graph.getContext();
  Describer describer(context, options.addValue && !options.onMeta);
  auto module = graph->getParentOfType<ModuleOp>();

  // Module weights by module path, for call_module's weight metadata.
  llvm::StringMap<SmallVector<WeightOp>> weightsByModule;
  for (auto weight : module.getOps<WeightOp>()) {
    auto [path, name] = weight.getSymName().rsplit('.');
    if (!name.empty())
      weightsByModule[path].push_back(weight);
  }

  try {
    at::manual_seed(options.seed);
    std::vector<c10::IValue> inputs;
    for (RankedTensorType type : inputTypes) {
      std::optional<c10::ScalarType> dtype =
          convertElementType(type.getElementType());
      if (!dtype)
        return graph.emitError()
               << "dummy input type " << type << " has no torch dtype";
      auto tensorOptions = at::TensorOptions().dtype(*dtype).device(device);
      std::vector<int64_t> sizes(type.getShape().begin(),
                                 type.getShape().end());
      inputs.push_back(at::isFloatingType(*dtype) || at::isComplexType(*dtype)
                           ? at::randn(sizes, tensorOptions)
                           : at::zeros(sizes, tensorOptions));
    }

    Interpreter interpreter(module, device);
    std::vector<std::pair<Operation *, NodeShapes>> described;
    auto observe = [&](Operation *op, ArrayRef<c10::IValue> args,
                       ArrayRef<std::string> argNames,
                       ArrayRef<c10::IValue> results) {
      NodeShapes shapes;
      const OpInfo *info = lookupNodeOperator(op);
      bool isModule = isa<CallModuleOp>(op);
      ArgumentNamer namer(info ? info->argRoles : ArrayRef<ArgRole>());
      for (auto [index, arg] : llvm::enumerate(args)) {
        std::string name =
            isModule ? namer.nextDataIn()
                     : namer.name(index, index < argNames.size()
                                             ? StringRef(argNames[index])
                                             : StringRef());
        shapes.args.push_back(describer.describe(name, arg));
      }
      if (auto call = dyn_cast<CallModuleOp>(op))
        for (WeightOp weight : weightsByModule.lookup(call.getTarget())) {
          ShapedType type = weight.getWeightType();
          std::optional<c10::ScalarType> dtype =
              convertElementType(type.getElementType());
          StringRef name = weight.getSymName().rsplit('.').second;
          if (!dtype)
            continue;
          auto [kind, bits] = maseType(*dtype);
          shapes.args.push_back(ValueMetaAttr::get(
              context, name, DenseI64ArrayAttr::get(context, type.getShape()),
              pythonDTypeName(*dtype), kind,
              DenseI64ArrayAttr::get(context, {bits}), {}, {}));
        }
      for (auto [index, result] : llvm::enumerate(results)) {
        shapes.results.push_back(
            describer.describe("data_out_" + std::to_string(index), result));
        shapes.resultTypes.push_back(describer.refinedType(result));
      }
      described.emplace_back(op, std::move(shapes));
    };
    auto runOnce = [&](SmallVectorImpl<Attribute> &graphOutputs) {
      described.clear();
      FailureOr<c10::IValue> output = interpreter.run(graph, inputs, observe);
      if (failed(output))
        return failure();
      std::vector<c10::IValue> flat;
      flattenValue(*output, flat);
      for (auto [index, value] : llvm::enumerate(flat))
        graphOutputs.push_back(
            describer.describe("data_out_" + std::to_string(index), value));
      return success();
    };
    if (failed(runOnce(outputs)))
      return failure();
    if (interpreter.hasDataDependentShapes() &&
        failed(
            findDynamicDims(graph, interpreter, runOnce, described, outputs)))
      return failure();
    for (auto &[op, shapes] : described)
      onNode(op, shapes);
  } catch (const c10::Error &error) {
    return graph.emitError()
           << "shape propagation failed: "
           << StringRef(error.what_without_backtrace()).split('\n').first;
  }
  return success();
}
