//===- WeightData.h - Typed access to weight values -------------*- C++ -*-===//
//
// Reading and writing the values of a `mav.weight` without libtorch, for
// passes that transform weights (batch norm folding, quantization). A weight's
// value is a `dense_resource` blob (what the importer writes), a dense
// elements attribute (inline test data) or a splat.
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
#include <vector>

namespace mav {

/// The values of an f32 elements attribute, in row-major order: a
/// `dense_resource` blob, a dense attribute, or a splat (expanded). Returns
/// std::nullopt when the element type is not f32 or the data is absent (an
/// elided resource, `dense_resource<__elided__>`).
std::optional<std::vector<float>> readF32Elements(mlir::ElementsAttr value);

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

/// The trainable parameters a node reads: the weights behind its get_attr
/// operands and, for a call_module, those its body reads; tied ones by the
/// weight they are tied to; buffers and frozen parameters left out. In the
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
