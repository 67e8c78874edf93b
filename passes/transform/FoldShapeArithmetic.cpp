//===- FoldShapeArithmetic.cpp - Shape arithmetic into constants ----------===//
//
// A traced model computes sizes at run time: `aten::size` of a tensor, then
// `prim::NumToTensor`, arithmetic on the result, `aten::Int`, and the ints
// passed to view, reshape or expand. With static shapes every one of those
// numbers is known: shape propagation (-mav-raise) recorded it in the
// node's `common.results`. This pass passes each such int, float or bool
// to its users as a constant, and erases the nodes nothing uses any more.
//
// Only values computed from static sizes alone are folded: a `size` of a
// tensor whose type gives its shape, and a node with scalar results whose
// every operand is such a value or a weight (a traced constant), one at
// least a size. A number
// read from tensor data is never folded.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/ArgumentEditor.h"
#include "mav/IR/GraphCleanup.h"
#include "mav/IR/MavTypes.h"
#include "mav/IR/NodeMetadata.h"
#include "mav/Operators/OperatorInference.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/TransformPasses.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mav {
#define GEN_PASS_DEF_FOLDSHAPEARITHMETIC
#include "mav/Passes/TransformPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {

bool isStaticTensor(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor && tensor.hasStaticShape();
}

/// Whether `node` reads a size: `size` of a statically shaped tensor.
bool readsStaticSize(Operation *node) {
  StringRef target = getNodeTarget(node);
  bool isSize = target == "size" || target.starts_with("aten::size");
  return isSize && node->getNumOperands() == 1 &&
         isStaticTensor(node->getOperand(0));
}

/// Whether `value` is a number, a bool or a tensor of one element, as shape
/// arithmetic computes.
bool isScalar(Value value) {
  if (isa<IntType, mav::FloatType, BoolType, NumberType>(value.getType()))
    return true;
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor && tensor.getRank() == 0;
}

/// The constant shape propagation recorded for `result`, when its type is a
/// number or a bool.
Attribute recordedConstant(OpResult result) {
  if (!isa<IntType, mav::FloatType, BoolType, NumberType>(result.getType()))
    return {};
  CommonMetaAttr common =
      cast<NodeOpInterface>(result.getOwner()).getCommonMeta();
  if (!common || !common.getResults() ||
      result.getResultNumber() >= common.getResults().size())
    return {};
  auto entry =
      dyn_cast<ValueMetaAttr>(common.getResults()[result.getResultNumber()]);
  Attribute value = entry ? entry.getValue() : Attribute();
  return isa_and_nonnull<IntegerAttr, FloatAttr, BoolAttr>(value) ? value
                                                                  : Attribute();
}

struct FoldShapeArithmetic
    : mav::impl::FoldShapeArithmeticBase<FoldShapeArithmetic> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t folded = 0;
    SmallVector<Attribute> erased;
    Builder builder(&getContext());
    for (GraphOp graph : module.getOps<GraphOp>()) {
      // Values computed from static sizes alone, in graph order.
      // Weights are constants too: a traced `x.size(2) // 8` divides by a
      // constant tensor.
      llvm::DenseSet<Value> fromSizes, weights;
      llvm::SetVector<Operation *> arithmetic;
      for (Operation &op : graph.getBodyBlock()) {
        if (isa<GetAttrOp>(op))
          weights.insert(op.getResult(0));
        if (!isa<CallFunctionOp, CallMethodOp>(op))
          continue;
        bool fromSizesOnly =
            readsStaticSize(&op) ||
            (llvm::all_of(op.getResults(), isScalar) &&
             llvm::any_of(op.getOperands(),
                          [&](Value v) { return fromSizes.contains(v); }) &&
             llvm::all_of(op.getOperands(), [&](Value v) {
               return fromSizes.contains(v) || weights.contains(v);
             }));
        if (!fromSizesOnly)
          continue;
        fromSizes.insert(op.result_begin(), op.result_end());
        arithmetic.insert(&op);
      }
      for (Operation *op : arithmetic)
        for (OpResult result : op->getResults()) {
          Attribute constant = recordedConstant(result);
          if (!constant)
            continue;
          llvm::SetVector<Operation *> users;
          for (Operation *user : result.getUsers())
            if (!arithmetic.contains(user) &&
                isa<CallFunctionOp, CallMethodOp, CallModuleOp>(user))
              users.insert(user);
          for (Operation *user : users) {
            CommonMetaAttr complete =
                cast<NodeOpInterface>(user).getCommonMeta();
            ArgumentEditor edit(user);
            edit.replaceValue(result, constant);
            edit.apply();
            if (complete)
              setCommonMeta(user, complete);
            ++folded;
          }
        }
      // Erase what nothing uses any more, last user first.
      for (Operation *op : llvm::reverse(arithmetic))
        if (op->use_empty()) {
          erased.push_back(
              builder.getStringAttr(cast<NodeOpInterface>(op).getNodeName()));
          op->erase();
        }
    }
    numFolded += folded;
    numErased += erased.size();
    recordPassOutputs(
        module, getArgument(),
        {builder.getNamedAttr("folded", builder.getI64IntegerAttr(folded)),
         builder.getNamedAttr("erased",
                              builder.getI64IntegerAttr(erased.size())),
         builder.getNamedAttr("nodes", builder.getArrayAttr(erased))});
  }
};

} // namespace
