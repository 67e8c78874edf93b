//===- ShapeRulesElementwise.cpp - Pointwise operators --------------------===//
//
// Results of pointwise operators: broadcast sizes, TensorIterator's layout,
// and at::result_type's dtype (TensorLayout.h).
//
//===----------------------------------------------------------------------===//

#include "ShapeRules.h"
#include "TensorLayout.h"

using namespace mav;
using namespace mav::shape_rules;
using llvm::SmallVector;

/// Whether a value of `from` may be written into a tensor of `to`
/// (c10::canCast).
static bool canCast(ScalarType from, ScalarType to) {
  if (layout::isFloatingDType(from) && layout::isIntegralDType(to, true))
    return false;
  return from == ScalarType::Bool || to != ScalarType::Bool;
}

Results shape_rules::unaryFloat(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  if (!self || !layout::isFloatingDType(self->dtype))
    return std::nullopt;
  return single(self->sizes, layout::elementwiseStrides({*self}, self->sizes),
                self->dtype);
}

Results shape_rules::isNan(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  if (!self)
    return std::nullopt;
  return single(self->sizes, layout::elementwiseStrides({*self}, self->sizes),
                ScalarType::Bool);
}

/// Whether writing into `tensor` in place is refused: some of its elements
/// share memory (a broadcast dimension; at::has_internal_overlap).
static bool overlapsItself(const TensorRef &tensor) {
  for (auto [size, stride] : llvm::zip(tensor.sizes, tensor.strides))
    if (size > 1 && stride == 0)
      return true;
  return false;
}

Results shape_rules::unaryLikeInput(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  // at::empty_like keeps the strides of a dense input only.
  if (!self || !layout::isFloatingDType(self->dtype) ||
      !layout::isNonOverlappingAndDense(self->sizes, self->strides))
    return std::nullopt;
  return single(self->sizes, self->strides, self->dtype);
}

Results shape_rules::unaryInPlace(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  if (!self || !layout::isFloatingDType(self->dtype) || overlapsItself(*self))
    return std::nullopt;
  return single(self->sizes, self->strides, self->dtype);
}

/// The input and probability of a dropout call, checked.
static std::optional<std::pair<TensorRef, double>>
getDropoutInput(const CallArguments &call) {
  std::optional<TensorRef> input = call.getTensor(0, "");
  std::optional<double> probability = call.getNumber(1, "p");
  if (!input || !probability || *probability < 0 || *probability > 1)
    return std::nullopt;
  return std::make_pair(*input, *probability);
}

Results shape_rules::dropout(const CallArguments &call) {
  auto dropout = getDropoutInput(call);
  std::optional<bool> train = getFlag(call, 2, "train", true);
  if (!dropout || !train)
    return std::nullopt;
  auto [input, probability] = *dropout;
  if (!*train || probability == 0 || llvm::is_contained(input.sizes, 0))
    return single(input.sizes, input.strides, input.dtype);
  // In training, the input is multiplied by noise laid out as it is (or by
  // a 0-dim zero when p is 1); mav does not model other inputs than dense
  // floating ones.
  if (!layout::isFloatingDType(input.dtype) ||
      !layout::isNonOverlappingAndDense(input.sizes, input.strides))
    return std::nullopt;
  TensorRef other = input;
  if (probability == 1)
    other = TensorRef{{}, {}, input.dtype};
  return single(input.sizes,
                layout::elementwiseStrides({input, other}, input.sizes),
                input.dtype);
}

Results shape_rules::dropoutInPlace(const CallArguments &call) {
  auto dropout = getDropoutInput(call);
  std::optional<bool> train = getFlag(call, 2, "train", true);
  if (!dropout || !train)
    return std::nullopt;
  const TensorRef &self = dropout->first;
  if (*train && dropout->second > 0 &&
      (!layout::isFloatingDType(self.dtype) || overlapsItself(self)))
    return std::nullopt;
  return single(self.sizes, self.strides, self.dtype);
}

namespace {
/// The operands of a binary pointwise call: `self` and a tensor or a number.
struct BinaryOperands {
  TensorRef self;
  std::optional<TensorRef> other;
  /// Whether a number `other` is a float.
  bool otherIsFloat = false;
  SmallVector<int64_t> sizes;
  ScalarType dtype;
};
} // namespace

static std::optional<BinaryOperands>
getBinaryOperands(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  if (!self || !layout::isSupportedDType(self->dtype))
    return std::nullopt;
  BinaryOperands operands{*self, call.getTensor(1, "other")};
  std::optional<ScalarType> dtype;
  if (operands.other) {
    std::optional<SmallVector<int64_t>> sizes =
        layout::broadcastShapes(self->sizes, operands.other->sizes);
    if (!sizes)
      return std::nullopt;
    operands.sizes = std::move(*sizes);
    dtype = layout::resultType({*self, *operands.other}, {});
  } else {
    std::optional<double> number = call.getNumber(1, "other");
    if (!number)
      return std::nullopt;
    // An integer argument reads as integers; anything else is a float.
    operands.otherIsFloat = !call.getInts(1, "other", 1);
    operands.sizes.assign(self->sizes.begin(), self->sizes.end());
    dtype = layout::resultType({*self}, {operands.otherIsFloat});
  }
  if (!dtype)
    return std::nullopt;
  operands.dtype = *dtype;
  return operands;
}

/// TensorIterator's layout of the result; a number is a 0-dim operand.
static SmallVector<int64_t> getBinaryStrides(const BinaryOperands &operands) {
  SmallVector<TensorRef> inputs = {operands.self};
  inputs.push_back(operands.other ? *operands.other
                                  : TensorRef{{}, {}, operands.dtype});
  return layout::elementwiseStrides(inputs, operands.sizes);
}

Results shape_rules::binaryArithmetic(const CallArguments &call) {
  std::optional<BinaryOperands> operands = getBinaryOperands(call);
  if (!operands)
    return std::nullopt;
  return single(operands->sizes, getBinaryStrides(*operands), operands->dtype);
}

Results shape_rules::subtract(const CallArguments &call) {
  std::optional<BinaryOperands> operands = getBinaryOperands(call);
  // Subtracting booleans is refused (use ~ or logical_not).
  if (!operands || operands->self.dtype == ScalarType::Bool ||
      (operands->other && operands->other->dtype == ScalarType::Bool))
    return std::nullopt;
  return single(operands->sizes, getBinaryStrides(*operands), operands->dtype);
}

Results shape_rules::trueDivide(const CallArguments &call) {
  std::optional<BinaryOperands> operands = getBinaryOperands(call);
  if (!operands)
    return std::nullopt;
  ScalarType dtype = layout::isFloatingDType(operands->dtype)
                         ? operands->dtype
                         : ScalarType::float32;
  return single(operands->sizes, getBinaryStrides(*operands), dtype);
}

/// A floor or trunc division of `operands`: integers stay integers; bool
/// has no kernel.
static Results roundedDivision(const std::optional<BinaryOperands> &operands) {
  if (!operands || operands->dtype == ScalarType::Bool)
    return std::nullopt;
  return single(operands->sizes, getBinaryStrides(*operands), operands->dtype);
}

Results shape_rules::divideWithMode(const CallArguments &call) {
  std::optional<llvm::StringRef> mode = call.getString(2, "rounding_mode");
  if (!mode)
    return trueDivide(call);
  if (*mode != "floor" && *mode != "trunc")
    return std::nullopt;
  return roundedDivision(getBinaryOperands(call));
}

Results shape_rules::floorDivide(const CallArguments &call) {
  // floor_divide has no meta kernel: libtorch lays it out on cpu, where
  // TensorIterator first casts an operand of another dtype to a copy (dense
  // strides kept, others made contiguous). mav leaves those to libtorch.
  std::optional<BinaryOperands> operands = getBinaryOperands(call);
  if (!operands)
    return std::nullopt;
  for (const std::optional<TensorRef> &input :
       {std::optional<TensorRef>(operands->self), operands->other})
    if (input && input->dtype != operands->dtype &&
        !layout::isNonOverlappingAndDense(input->sizes, input->strides))
      return std::nullopt;
  return roundedDivision(operands);
}

Results shape_rules::absolute(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  if (!self || !layout::isSupportedDType(self->dtype) ||
      self->dtype == ScalarType::Bool)
    return std::nullopt;
  return single(self->sizes, layout::elementwiseStrides({*self}, self->sizes),
                self->dtype);
}

Results shape_rules::comparison(const CallArguments &call) {
  std::optional<BinaryOperands> operands = getBinaryOperands(call);
  if (!operands)
    return std::nullopt;
  return single(operands->sizes, getBinaryStrides(*operands), ScalarType::Bool);
}

Results shape_rules::binaryInPlace(const CallArguments &call) {
  std::optional<BinaryOperands> operands = getBinaryOperands(call);
  if (!operands ||
      llvm::ArrayRef<int64_t>(operands->sizes) != operands->self.sizes ||
      !canCast(operands->dtype, operands->self.dtype) ||
      overlapsItself(operands->self))
    return std::nullopt;
  return single(operands->self.sizes, operands->self.strides,
                operands->self.dtype);
}
