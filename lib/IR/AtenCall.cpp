//===- AtenCall.cpp - The aten-level call a node computes -----------------===//

#include "mav/IR/AtenCall.h"
#include "mav/IR/MavAttrs.h"

using namespace mlir;
using namespace mav;

Attribute AtenCall::get(unsigned position, StringRef keyword) const {
  if (args && position < args.size())
    return args[position];
  return kwargs ? kwargs.get(keyword) : Attribute();
}

Value AtenCall::operand(unsigned position, StringRef keyword) const {
  auto ref = get(position, keyword).dyn_cast_or_null<OperandRefAttr>();
  return ref ? call->getOperand(ref.getIndex()) : Value();
}

bool AtenCall::isNone(unsigned position, StringRef keyword) const {
  Attribute value = get(position, keyword);
  return !value || value.isa<NoneAttr>();
}

FailureOr<AtenCall> mav::getAtenCall(NodeOpInterface node,
                                     SymbolTableCollection &symbols) {
  if (auto call = dyn_cast<CallFunctionOp>(node.getOperation()))
    return AtenCall{call, call.getTarget(), call.getArgs(), call.getKwargs()};
  if (auto call = dyn_cast<CallMethodOp>(node.getOperation()))
    return AtenCall{call, call.getTarget(), call.getArgs(), call.getKwargs()};
  auto module = dyn_cast<CallModuleOp>(node.getOperation());
  if (!module || !module.getBodyAttr())
    return failure();
  auto body =
      symbols.lookupNearestSymbolFrom<GraphOp>(module, module.getBodyAttr());
  if (!body)
    return failure();
  CallFunctionOp found;
  for (Operation &op : body.getBodyBlock().without_terminator()) {
    if (isa<GetAttrOp>(op))
      continue;
    auto call = dyn_cast<CallFunctionOp>(op);
    if (!call || found)
      return failure();
    found = call;
  }
  if (!found || body.getOutput()->getNumOperands() != 1 ||
      body.getOutput()->getOperand(0) != found->getResult(0))
    return failure();
  return AtenCall{found, found.getTarget(), found.getArgs(), found.getKwargs()};
}

std::optional<SmallVector<int64_t>> mav::getIntList(Attribute value,
                                                    size_t count) {
  if (!value)
    return std::nullopt;
  if (auto integer = value.dyn_cast<IntegerAttr>();
      integer && !value.isa<BoolAttr>())
    return SmallVector<int64_t>(count, integer.getInt());
  ArrayAttr list = value.dyn_cast<ArrayAttr>();
  if (auto tuple = value.dyn_cast<TupleAttr>())
    list = tuple.getElements();
  if (!list)
    return std::nullopt;
  SmallVector<int64_t> ints;
  for (Attribute element : list) {
    auto integer = element.dyn_cast<IntegerAttr>();
    if (!integer || element.isa<BoolAttr>())
      return std::nullopt;
    ints.push_back(integer.getInt());
  }
  if (ints.size() == 1 && count > 1)
    ints.assign(count, ints.front());
  return ints;
}
