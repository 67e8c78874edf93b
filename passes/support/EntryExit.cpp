//===- EntryExit.cpp - Which nodes compute on inputs, parameters, ... -----===//

#include "mav/Passes/EntryExit.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mav;

StringRef mav::stringifyEntryType(EntryType type) {
  switch (type) {
  case EntryType::Normal:
    return "normal";
  case EntryType::Learnable:
    return "learnable";
  case EntryType::LearnSplit:
    return "learn-split";
  case EntryType::Buffer:
    return "buffer";
  case EntryType::Special:
    return "special";
  }
  llvm_unreachable("unknown entry type");
}

StringRef mav::stringifyExitType(ExitType type) {
  return type == ExitType::Normal ? "normal" : "special";
}

bool mav::isTrainableParameter(WeightOp weight) {
  return weight.getKind() == WeightKind::parameter && !weight.getFrozen();
}

namespace {
/// Where a value comes from.
enum Source : uint8_t { FromInput = 1, FromParameter = 2, FromBuffer = 4 };
} // namespace

static bool fansOut(Operation *op) {
  return llvm::any_of(op->getResults(), [](Value result) {
    return std::distance(result.use_begin(), result.use_end()) > 1;
  });
}

EntryExitAnalysis::EntryExitAnalysis(GraphOp graph,
                                     SymbolTableCollection &symbols) {
  Block &block = graph.getBodyBlock();
  llvm::DenseMap<Value, uint8_t> sources;
  for (BlockArgument argument : block.getArguments())
    sources[argument] = FromInput;
  // Learnable nodes below a learn-split point (or a learnable marker): a
  // fan-out there is not the first one on its path.
  llvm::DenseSet<Operation *> belowSplit;

  for (Operation &op : block.without_terminator()) {
    uint8_t from = 0;
    if (auto getAttr = dyn_cast<GetAttrOp>(op)) {
      auto weight = symbols.lookupNearestSymbolFrom<WeightOp>(
          getAttr, getAttr.getTargetAttr());
      if (weight && isTrainableParameter(weight))
        from = FromParameter;
      else if (weight && weight.getKind() != WeightKind::constant)
        from = FromBuffer;
    }
    for (Value operand : op.getOperands())
      from |= sources.lookup(operand);
    for (Value result : op.getResults())
      sources[result] = from;

    EntryType type = from & FromInput       ? EntryType::Normal
                     : from & FromParameter ? EntryType::Learnable
                     : from & FromBuffer    ? EntryType::Buffer
                                            : EntryType::Special;
    if (type == EntryType::Learnable) {
      bool splitAbove = llvm::any_of(op.getOperands(), [&](Value operand) {
        Operation *producer = operand.getDefiningOp();
        return producer &&
               (entries.lookup(producer) == EntryType::LearnSplit ||
                isa<LearnableOp>(producer) || belowSplit.contains(producer));
      });
      if (splitAbove)
        belowSplit.insert(&op);
      else if (!isa<LearnableOp>(op) && fansOut(&op))
        type = EntryType::LearnSplit;
    }
    entries[&op] = type;
  }

  // Exit types: what the output depends on, walking back from it.
  llvm::DenseSet<Operation *> live;
  for (Operation &op : llvm::reverse(block)) {
    if (!isa<OutputOp>(op) && !live.contains(&op)) {
      exits[&op] = ExitType::Special;
      continue;
    }
    if (!isa<OutputOp>(op))
      exits[&op] = ExitType::Normal;
    for (Value operand : op.getOperands())
      if (Operation *producer = operand.getDefiningOp())
        live.insert(producer);
  }
}
