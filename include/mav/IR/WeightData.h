//===- WeightData.h - Typed access to weight values -------------*- C++ -*-===//
//
// Reading and writing the values of a `mav.weight` without libtorch, for
// passes that transform weights (batch norm folding, quantization), and
// creating and erasing weights. A weight's value is a `dense_resource` blob
// (what the importer and checkpoints give), a dense elements attribute
// (inline test data) or a splat.
//
//   FailureOr<ArrayRef<float>> w = getWeightData<float>(weight);  // in place
//   if (failed(w)) return failure();          // diagnosed at the weight
//   SmallVector<float> scaled = ...;
//   if (failed(setWeightData<float>(weight, scaled))) return failure();
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_WEIGHTDATA_H
#define MAV_IR_WEIGHTDATA_H

#include "mav/IR/MavOps.h"

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace mav {

/// Whether C++ type T reads elements of `type`: float f32, double f64,
/// int64_t / int32_t / int16_t / int8_t signed or signless integers of that
/// width, uint8_t unsigned or signless 8-bit integers.
template <typename T> bool isElementTypeOf(mlir::Type type) {
  if constexpr (std::is_same_v<T, float>)
    return type.isF32();
  else if constexpr (std::is_same_v<T, double>)
    return type.isF64();
  else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return type.isInteger(sizeof(T) * 8) &&
           (std::is_signed_v<T> ? !type.isUnsignedInteger()
                                : !type.isSignedInteger());
  else
    return false;
}

/// How diagnostics name T.
template <typename T> constexpr const char *getCppTypeName() {
  if constexpr (std::is_same_v<T, float>)
    return "float";
  else if constexpr (std::is_same_v<T, double>)
    return "double";
  else if constexpr (std::is_integral_v<T>)
    return std::is_signed_v<T>
               ? (sizeof(T) == 8   ? "int64_t"
                  : sizeof(T) == 4 ? "int32_t"
                  : sizeof(T) == 2 ? "int16_t"
                                   : "int8_t")
               : (sizeof(T) == 1 ? "uint8_t" : "an unsigned integer");
  else
    return "an unsupported type";
}

namespace detail {
/// The untyped forms of the templates below.
mlir::FailureOr<llvm::ArrayRef<char>>
getWeightBytes(WeightOp weight, bool (*isElementType)(mlir::Type),
               size_t elementSize, llvm::StringRef cppType);
mlir::LogicalResult setWeightBytes(WeightOp weight, mlir::ShapedType type,
                                   llvm::ArrayRef<char> bytes,
                                   size_t alignment);
WeightOp createWeightFromBytes(mlir::ModuleOp module, llvm::StringRef name,
                               WeightKind kind, mlir::ShapedType type,
                               llvm::ArrayRef<char> bytes, size_t alignment,
                               WeightOp after,
                               mlir::SymbolTableCollection *symbols);
template <typename T> llvm::ArrayRef<char> asBytes(llvm::ArrayRef<T> values) {
  return {reinterpret_cast<const char *>(values.data()),
          values.size() * sizeof(T)};
}
} // namespace detail

/// The elements of `weight` in row-major order, in place: a view of its blob
/// or dense attribute, valid until its value is replaced. Fails, with a
/// diagnostic at the weight, when T does not read its element type, when it
/// is a splat (readWeightData expands it), or when it carries no data (an
/// elided resource).
template <typename T>
mlir::FailureOr<llvm::ArrayRef<T>> getWeightData(WeightOp weight) {
  mlir::FailureOr<llvm::ArrayRef<char>> bytes = detail::getWeightBytes(
      weight, &isElementTypeOf<T>, sizeof(T), getCppTypeName<T>());
  if (mlir::failed(bytes))
    return mlir::failure();
  return llvm::ArrayRef<T>(reinterpret_cast<const T *>(bytes->data()),
                           bytes->size() / sizeof(T));
}

/// A copy of the elements of `weight`, a splat expanded; fails as
/// getWeightData does.
template <typename T>
mlir::FailureOr<llvm::SmallVector<T>> readWeightData(WeightOp weight) {
  auto dense = weight.getValue().dyn_cast<mlir::DenseElementsAttr>();
  if (dense && dense.isSplat() && isElementTypeOf<T>(dense.getElementType()))
    return llvm::SmallVector<T>(dense.getNumElements(),
                                dense.getSplatValue<T>());
  mlir::FailureOr<llvm::ArrayRef<T>> view = getWeightData<T>(weight);
  if (mlir::failed(view))
    return mlir::failure();
  return llvm::SmallVector<T>(view->begin(), view->end());
}

/// Replaces the value of `weight` by a copy of `values`, of `type` (by
/// default its current type), as a `dense_resource` blob. The weights tied to
/// it get the same value. Fails, with a diagnostic, when `weight` is itself
/// tied to another (write that one), or when `values` does not fill `type`.
template <typename T>
mlir::LogicalResult setWeightData(WeightOp weight, llvm::ArrayRef<T> values,
                                  mlir::ShapedType type = {}) {
  if (!type)
    type = weight.getWeightType();
  if (!isElementTypeOf<T>(type.getElementType()))
    return weight.emitError()
           << "weight '" << weight.getSymName() << "': cannot write "
           << getCppTypeName<T>() << " values as " << type.getElementType();
  return detail::setWeightBytes(weight, type, detail::asBytes(values),
                                alignof(T));
}

/// A new weight `name` of `type` holding a copy of `values`, right after
/// `after` (by default after the module's last weight); renamed `name_1`,
/// ... when the name is taken. `symbols`, when given, is kept up to date.
template <typename T>
WeightOp createWeight(mlir::ModuleOp module, llvm::StringRef name,
                      WeightKind kind, mlir::ShapedType type,
                      llvm::ArrayRef<T> values, WeightOp after = {},
                      mlir::SymbolTableCollection *symbols = nullptr) {
  assert(isElementTypeOf<T>(type.getElementType()) &&
         type.getNumElements() == static_cast<int64_t>(values.size()) &&
         "values must fill the weight's type");
  return detail::createWeightFromBytes(module, name, kind, type,
                                       detail::asBytes(values), alignof(T),
                                       after, symbols);
}

/// Erases `weight`. Fails, with a diagnostic naming a user, while a node
/// reads it or another weight is tied to it.
mlir::LogicalResult eraseWeight(WeightOp weight);

/// The raw bytes of an elements attribute: its `dense_resource` blob, or a
/// dense attribute's storage, of which a splat holds one element (`isSplat`
/// says so). std::nullopt for a resource without data (elided) or another
/// kind of attribute.
std::optional<llvm::ArrayRef<char>> getElementsData(mlir::ElementsAttr value,
                                                    bool &isSplat);

/// The values of an f32 elements attribute, in row-major order: a
/// `dense_resource` blob, a dense attribute, or a splat (expanded). Returns
/// std::nullopt when the element type is not f32 or the data is absent (an
/// elided resource, `dense_resource<__elided__>`).
std::optional<std::vector<float>> readF32Elements(mlir::ElementsAttr value);

/// The value of a one-element f32 or f64 elements attribute (a traced
/// scalar constant such as attention's sqrt(head_dim)); std::nullopt for
/// anything else or absent data.
std::optional<double> readScalarElement(mlir::ElementsAttr value);

/// A resource-blob key that MLIR's parser reads back
/// ([A-Za-z_][A-Za-z0-9_$.]*) made from a weight name. PyTorch allows names
/// such as `0.weight` or `block1-0.conv`; the key is only a handle, the weight
/// keeps its real name as its symbol, and the blob manager makes keys unique.
std::string getResourceKey(llvm::StringRef name);

/// A `dense_resource` attribute of `type` (f32 elements, as many as
/// `values`) holding a copy of `values`, bit for bit. Its blob is keyed after
/// `name` (a weight's symbol name; characters a resource key cannot hold
/// become `_`), made unique by MLIR's blob manager.
mlir::ElementsAttr makeF32Resource(mlir::RankedTensorType type,
                                   llvm::ArrayRef<float> values,
                                   llvm::StringRef name);

/// The weight a tied weight (`tied_to`) shares its value with, as PyTorch
/// shares one Parameter; `weight` itself when it is not tied.
WeightOp resolveTiedWeight(WeightOp weight,
                           mlir::SymbolTableCollection &symbols);

/// The parameters a node reads, frozen ones (requires_grad=False) included,
/// as named_parameters() lists them: the weights behind its get_attr
/// operands and, for a call_module, those its body reads; tied ones by the
/// weight they are tied to; buffers left out. In the
/// module's order of mav.weight ops (state_dict order). `rank` gives each
/// weight's position (getWeightRanks).
llvm::SmallVector<WeightOp>
getNodeParameters(mlir::Operation *node, mlir::SymbolTableCollection &symbols,
                  const llvm::DenseMap<mlir::Operation *, unsigned> &rank);

/// The position of each mav.weight in `module`.
llvm::DenseMap<mlir::Operation *, unsigned>
getWeightRanks(mlir::ModuleOp module);

} // namespace mav

#endif // MAV_IR_WEIGHTDATA_H
