//===- GraphCleanup.cpp - Erase what no node refers to any more -----------===//

#include "mav/IR/GraphCleanup.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mav;

/// `aten::add_`, `relu_`, but not `__and__`.
static bool isInPlaceName(StringRef target) {
  StringRef name = target.rsplit("::").second;
  if (name.empty())
    name = target;
  name = name.split('.').first;
  return name.ends_with("_") && !name.ends_with("__");
}

bool mav::isRemovableWhenUnused(Operation *node) {
  if (isa<GetAttrOp, LearnableOp, CallModuleOp>(node))
    return true;
  StringRef target;
  if (auto call = dyn_cast<CallFunctionOp>(node))
    target = call.getTarget();
  else if (auto call = dyn_cast<CallMethodOp>(node))
    target = call.getTarget();
  else
    return false;
  if (isInPlaceName(target))
    return false;
  return !llvm::StringSwitch<bool>(target.split('.').first)
              .Cases("aten::_assert_async", "aten::_assert_scalar",
                     "aten::_assert_tensor_metadata", "aten::warn", true)
              .Cases("prim::RaiseException", "prim::Print", "aten::print", true)
              .Default(false);
}

void mav::updateGraphSignature(GraphOp graph) {
  graph.setFunctionTypeAttr(TypeAttr::get(FunctionType::get(
      graph.getContext(), graph.getBodyBlock().getArgumentTypes(),
      graph.getOutput().getOperandTypes())));
}

unsigned mav::eraseDeadNodes(GraphOp graph) {
  unsigned erased = 0;
  // In reverse order a node's users come before it, so one pass suffices.
  Operation *op = graph.getOutput()->getPrevNode();
  while (op) {
    Operation *previous = op->getPrevNode();
    if (op->use_empty() && isRemovableWhenUnused(op)) {
      op->erase();
      ++erased;
    }
    op = previous;
  }
  return erased;
}

void mav::eraseUnusedBodies(ModuleOp module) {
  llvm::DenseSet<StringAttr> called;
  module.walk([&](CallModuleOp call) {
    if (auto body = call.getBodyAttr())
      called.insert(body.getAttr());
  });
  SmallVector<GraphOp> unused;
  for (GraphOp graph : module.getOps<GraphOp>())
    if (graph.getSymVisibility().value_or("public") == "private" &&
        !called.contains(graph.getSymNameAttr()))
      unused.push_back(graph);
  for (GraphOp graph : unused)
    graph.erase();
}

unsigned mav::eraseUnusedWeights(ModuleOp module) {
  llvm::DenseSet<StringAttr> used;
  module.walk([&](Operation *op) {
    if (auto read = dyn_cast<GetAttrOp>(op))
      used.insert(read.getTargetAttr().getAttr());
    else if (auto weight = dyn_cast<WeightOp>(op))
      if (auto tied = weight.getTiedToAttr())
        used.insert(tied.getAttr());
  });
  unsigned erased = 0;
  for (WeightOp weight :
       llvm::make_early_inc_range(module.getOps<WeightOp>())) {
    if (!used.contains(weight.getSymNameAttr())) {
      weight.erase();
      ++erased;
    }
  }
  return erased;
}
