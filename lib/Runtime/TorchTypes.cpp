//===- TorchTypes.cpp - torch dtypes, tensors and mav types ---------------===//

#include "mav/Runtime/TorchTypes.h"
#include "mav/IR/ScalarTypes.h"
#include "mav/IR/WeightData.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mav;

Type mav::convertScalarType(c10::ScalarType type, MLIRContext *context) {
  return getElementType(static_cast<ScalarType>(type), context);
}

std::optional<c10::ScalarType> mav::convertElementType(Type type) {
  std::optional<ScalarType> scalar = getScalarType(type);
  if (!scalar)
    return std::nullopt;
  return static_cast<c10::ScalarType>(*scalar);
}

FailureOr<at::Tensor> mav::viewWeight(WeightOp weight) {
  ShapedType type = weight.getWeightType();
  std::optional<c10::ScalarType> dtype =
      convertElementType(type.getElementType());
  bool isSplat;
  std::optional<ArrayRef<char>> data =
      dtype ? getElementsData(weight.getValue(), isSplat) : std::nullopt;
  if (!data || isSplat ||
      static_cast<int64_t>(data->size()) !=
          type.getNumElements() * c10::elementSize(*dtype))
    return materializeWeight(weight, c10::kCPU);
  std::vector<int64_t> sizes(type.getShape().begin(), type.getShape().end());
  return at::from_blob(const_cast<char *>(data->data()), sizes,
                       at::TensorOptions().dtype(*dtype));
}

FailureOr<at::Tensor> mav::materializeWeight(WeightOp weight,
                                             c10::Device device) {
  ShapedType type = weight.getWeightType();
  std::optional<c10::ScalarType> dtype =
      convertElementType(type.getElementType());
  if (!dtype)
    return weight.emitError()
           << "weight '" << weight.getSymName() << "' has element type "
           << type.getElementType() << ", which has no torch dtype";
  std::vector<int64_t> sizes(type.getShape().begin(), type.getShape().end());
  auto options = at::TensorOptions().dtype(*dtype).device(device);
  // Scalar weights (traced constants such as a patch size) feed shape
  // arithmetic, so they keep their value: a cpu scalar mixes with any device.
  if (device.is_meta() && type.getRank() > 0)
    return at::empty(sizes, options);
  if (device.is_meta())
    device = c10::kCPU;

  bool isSplat;
  std::optional<ArrayRef<char>> data =
      getElementsData(weight.getValue(), isSplat);
  if (!data)
    return weight.emitError()
           << "weight '" << weight.getSymName()
           << "' carries no data (elided, or an unsupported attribute)";
  auto cpu = at::TensorOptions().dtype(*dtype);
  int64_t elementSize = c10::elementSize(*dtype);
  if (isSplat) {
    at::Tensor one = at::from_blob(const_cast<char *>(data->data()), {1}, cpu);
    return one.expand({type.getNumElements()})
        .reshape(sizes)
        .clone()
        .to(device);
  }
  if (static_cast<int64_t>(data->size()) != type.getNumElements() * elementSize)
    return weight.emitError()
           << "weight '" << weight.getSymName() << "' holds " << data->size()
           << " bytes, its type needs " << type.getNumElements() * elementSize;
  return at::from_blob(const_cast<char *>(data->data()), sizes, cpu)
      .clone()
      .to(device);
}

void mav::flattenValue(const c10::IValue &value,
                       std::vector<c10::IValue> &leaves) {
  if (value.isTuple()) {
    for (const c10::IValue &element : value.toTupleRef().elements())
      flattenValue(element, leaves);
  } else if (value.isList()) {
    for (const c10::IValue &element : value.toListRef())
      flattenValue(element, leaves);
  } else if (value.isGenericDict()) {
    for (const auto &entry : value.toGenericDict())
      flattenValue(entry.value(), leaves);
  } else {
    leaves.push_back(value);
  }
}
