//===- EntryExit.h - Which nodes compute on inputs, parameters, ... -*- C++
//-*-===//
//
// The classification of the idlmav notebook, shared by the entry/exit,
// parameter-counting and learnable-node passes. A node's entry type says
// where its values come from: graph inputs (normal), trainable parameters
// only (learnable; learn-split where such a value first fans out), buffers
// only (buffer), or none of these (special: constants, arange, ...). Its exit
// type says whether a graph output depends on it.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PASSES_ENTRYEXIT_H
#define MAV_PASSES_ENTRYEXIT_H

#include "mav/IR/MavOps.h"

#include "llvm/ADT/DenseMap.h"

namespace mav {

enum class EntryType { Normal, Learnable, LearnSplit, Buffer, Special };
enum class ExitType { Normal, Special };

llvm::StringRef stringifyEntryType(EntryType type);
llvm::StringRef stringifyExitType(ExitType type);

/// A trainable parameter: a parameter weight that is not frozen.
bool isTrainableParameter(WeightOp weight);

class EntryExitAnalysis {
public:
  EntryExitAnalysis(GraphOp graph, mlir::SymbolTableCollection &symbols);

  EntryType getEntry(mlir::Operation *node) const {
    return entries.lookup(node);
  }
  ExitType getExit(mlir::Operation *node) const { return exits.lookup(node); }
  /// Learnable or learn-split: computed from trainable parameters only.
  bool isLearnable(mlir::Operation *node) const {
    EntryType type = getEntry(node);
    return type == EntryType::Learnable || type == EntryType::LearnSplit;
  }

private:
  llvm::DenseMap<mlir::Operation *, EntryType> entries;
  llvm::DenseMap<mlir::Operation *, ExitType> exits;
};

} // namespace mav

#endif // MAV_PASSES_ENTRYEXIT_H
