//===- NodeShapes.h - What running a node showed ----------------*- C++ -*-===//
//
// The per-node result of shape propagation, whichever engine computes it:
// mav's native rules (NativeShapes.h) or libtorch (Runtime/ShapePropagation.h).
//
//===----------------------------------------------------------------------===//

#ifndef MAV_OPERATORS_NODESHAPES_H
#define MAV_OPERATORS_NODESHAPES_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"

namespace mav {

/// What running a node showed.
struct NodeShapes {
  /// `#mav.value`s named as MASE names them: data_in_N, weight, bias, then
  /// configuration arguments under their schema names; data_out_N.
  llvm::SmallVector<mlir::Attribute> args;
  llvm::SmallVector<mlir::Attribute> results;
  /// The refined type of each result: a ranked tensor for tensors, null
  /// where nothing better than the current type is known.
  llvm::SmallVector<mlir::Type> resultTypes;
};

} // namespace mav

#endif // MAV_OPERATORS_NODESHAPES_H
