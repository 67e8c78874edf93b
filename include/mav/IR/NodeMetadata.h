//===- NodeMetadata.h - Common metadata without what types say --*- C++ -*-===//
//
// A node's `common` attribute stores only what its types do not say. In an
// entry of `args` or `results` that describes a value of the graph (an
// operand or a result with a ranked tensor type of a torch dtype), `shape`,
// `torch_dtype`, `type` and `precision` (when they are the dtype's) and
// `stride` (when contiguous) are left out, and `results` is left out when
// every entry is then a bare `data_out_N`. Readers see the complete
// metadata: NodeOpInterface::getCommonMeta() fills the missing fields in
// from the types, so what a pass reads does not depend on how it is stored.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_NODEMETADATA_H
#define MAV_IR_NODEMETADATA_H

#include "mav/IR/MavAttrs.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

namespace mav {

/// The graph value that each entry of a node's `common.args` describes, or
/// null: a call's entries follow its positional arguments (keywords come
/// after them), a call_module's data_in_K is its K-th argument, a learnable
/// node's data_in_0 is its operand.
llvm::SmallVector<mlir::Value>
getDescribedArguments(mlir::Operation *node,
                      llvm::ArrayRef<mlir::Attribute> entries);

/// `stored` with what the node's types say filled in; null when null.
CommonMetaAttr completeCommonMeta(mlir::Operation *node, CommonMetaAttr stored);

/// `complete` without what the node's types say: completing the result gives
/// what completing `complete` gives.
CommonMetaAttr leanCommonMeta(mlir::Operation *node, CommonMetaAttr complete);

/// Stores `complete` as the node's `common`, without what its types say;
/// the node's types must be final.
void setCommonMeta(mlir::Operation *node, CommonMetaAttr complete);

/// What leaning gave: for each (entry, type) pair, and for each node's
/// metadata under all that leaning it reads (the node's kind, its call
/// arguments, its types and the complete entries). A pass that stores
/// metadata on many nodes of the same few shapes keeps one across nodes;
/// what it stores is the same with or without it.
struct LeanCache {
  llvm::DenseMap<std::pair<mlir::Attribute, mlir::Type>, mlir::Attribute>
      entries;
  llvm::StringMap<CommonMetaAttr> nodes;
};

/// The same for complete metadata given by its parts, which are not made
/// into attributes first.
void setCommonMeta(mlir::Operation *node, llvm::StringRef maseType,
                   llvm::StringRef maseOp, llvm::ArrayRef<mlir::Attribute> args,
                   llvm::ArrayRef<mlir::Attribute> results,
                   LeanCache *cache = nullptr);

} // namespace mav

#endif // MAV_IR_NODEMETADATA_H
