//===- OperatorInference.cpp - What a node computes -----------------------===//

#include "mav/Operators/OperatorInference.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mav;

StringRef mav::getNodeTarget(Operation *node) {
  if (isa<LearnableOp>(node))
    return "mav.learnable";
  if (auto call = dyn_cast<CallModuleOp>(node))
    return call.getModuleClass();
  if (auto call = dyn_cast<CallFunctionOp>(node))
    return call.getTarget();
  if (auto call = dyn_cast<CallMethodOp>(node))
    return call.getTarget();
  return {};
}

const OpInfo *mav::lookupNodeOperator(Operation *node) {
  if (isa<LearnableOp>(node))
    return lookupMaseOp("learnable");
  if (auto call = dyn_cast<CallModuleOp>(node)) {
    if (const OpInfo *info = lookupModuleClass(call.getModuleClass()))
      return info;
    return call.getBodyAttr() ? lookupMaseOp("user_defined_module") : nullptr;
  }
  if (auto call = dyn_cast<CallFunctionOp>(node))
    return lookupAtenOp(call.getTarget());
  if (auto call = dyn_cast<CallMethodOp>(node)) {
    if (const OpInfo *info = lookupTensorMethod(call.getTarget()))
      return info;
    return lookupAtenOp(("aten::" + call.getTarget()).str());
  }
  return nullptr;
}

/// The node's stored common metadata, by concrete op rather than through
/// NodeOpInterface: passes call this on every node, and a type check is
/// cheaper than an interface look-up.
static CommonMetaAttr getStoredCommonMeta(Operation *node) {
  Attribute metadata =
      llvm::TypeSwitch<Operation *, Attribute>(node)
          .Case<CallFunctionOp, CallModuleOp, CallMethodOp, GetAttrOp,
                LearnableOp>([](auto op) { return op.getCommonAttr(); })
          .Default([](Operation *) { return Attribute(); });
  return metadata.dyn_cast_or_null<CommonMetaAttr>();
}

StringRef mav::getMaseOp(Operation *node) {
  if (CommonMetaAttr common = getStoredCommonMeta(node))
    if (!common.getMaseOp().empty())
      return common.getMaseOp();
  if (isa<GetAttrOp>(node))
    return "constant";
  if (const OpInfo *info = lookupNodeOperator(node))
    return info->maseOp;
  return {};
}

std::optional<MaseType> mav::getMaseType(Operation *node) {
  if (CommonMetaAttr common = getStoredCommonMeta(node))
    if (std::optional<MaseType> type = symbolizeMaseType(common.getMaseType()))
      return type;
  if (isa<GetAttrOp>(node))
    return MaseType::GetAttr;
  if (const OpInfo *info = lookupNodeOperator(node))
    return info->maseType;
  return std::nullopt;
}

void mav::walkNodes(Operation *root, StringRef maseOp,
                    function_ref<void(Operation *)> fn) {
  root->walk([&](Operation *op) {
    if (isa<NodeOpInterface>(op) && getMaseOp(op) == maseOp)
      fn(op);
  });
}

void mav::walkNodes(Operation *root, MaseType maseType,
                    function_ref<void(Operation *)> fn) {
  root->walk([&](Operation *op) {
    if (isa<NodeOpInterface>(op) && getMaseType(op) == maseType)
      fn(op);
  });
}
