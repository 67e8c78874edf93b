//===- NodeBuilder.cpp - Create nodes with FX-style unique names ----------===//

#include "mav/IR/NodeBuilder.h"

using namespace mlir;
using namespace mav;

NodeNamer mav::getGraphNamer(GraphOp graph) {
  NodeNamer namer;
  for (StringRef name : graph.getArgNames().getAsValueRange<StringAttr>())
    namer.reserve(name);
  for (auto node : graph.getBodyBlock().getOps<NodeOpInterface>())
    namer.reserve(node.getNodeName());
  return namer;
}

NodeBuilder::NodeBuilder(Operation *before)
    : OpBuilder(before),
      namer(getGraphNamer(before->getParentOfType<GraphOp>())) {
  if (auto node = dyn_cast<NodeOpInterface>(before))
    scope = node.getNodeScope();
}

NodeBuilder NodeBuilder::after(Operation *node) {
  NodeBuilder builder(node);
  builder.setInsertionPointAfter(node);
  return builder;
}

GetAttrOp NodeBuilder::createGetAttr(Location loc, WeightOp weight) {
  return create<GetAttrOp>(
      loc, weight.getWeightType(),
      FlatSymbolRefAttr::get(weight.getSymNameAttr()),
      getStringAttr(claimName(NodeNamer::fromPath(weight.getSymName()))), scope,
      Attribute(), Attribute(), Attribute());
}

template <typename OpT>
static OpT createCall(NodeBuilder &builder, Attribute scope, Location loc,
                      StringRef target, ArrayRef<Attribute> args,
                      ArrayRef<NamedAttribute> kwargs,
                      const ArgumentTreeBuilder &tree, TypeRange resultTypes) {
  return builder.create<OpT>(loc, resultTypes, tree.getOperands(), target,
                             builder.getArrayAttr(args),
                             builder.getDictionaryAttr(kwargs),
                             builder.claimName(NodeNamer::fromOperator(target)),
                             scope, Attribute(), Attribute(), Attribute());
}

CallFunctionOp NodeBuilder::createCallFunction(Location loc, StringRef target,
                                               ArrayRef<Attribute> args,
                                               ArrayRef<NamedAttribute> kwargs,
                                               const ArgumentTreeBuilder &tree,
                                               TypeRange resultTypes) {
  return createCall<CallFunctionOp>(*this, scope, loc, target, args, kwargs,
                                    tree, resultTypes);
}

CallMethodOp NodeBuilder::createCallMethod(Location loc, StringRef method,
                                           ArrayRef<Attribute> args,
                                           ArrayRef<NamedAttribute> kwargs,
                                           const ArgumentTreeBuilder &tree,
                                           TypeRange resultTypes) {
  return createCall<CallMethodOp>(*this, scope, loc, method, args, kwargs, tree,
                                  resultTypes);
}
