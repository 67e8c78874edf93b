//===- ModuleNodes.cpp - A call_module, its body and its weights ----------===//

#include "mav/IR/ModuleNodes.h"
#include "mav/IR/NodeBuilder.h"

using namespace mlir;
using namespace mav;

GraphOp mav::getModuleBody(CallModuleOp module,
                           SymbolTableCollection &symbols) {
  if (!module.getBodyAttr())
    return {};
  return symbols.lookupNearestSymbolFrom<GraphOp>(module, module.getBodyAttr());
}

static StringRef getLocalName(CallModuleOp module, StringRef weightName) {
  StringRef local = weightName;
  if (local.consume_front(module.getTarget()) && local.consume_front("."))
    return local;
  return weightName;
}

SmallVector<ModuleWeight>
mav::getModuleWeights(CallModuleOp module, SymbolTableCollection &symbols) {
  SmallVector<ModuleWeight> weights;
  GraphOp body = getModuleBody(module, symbols);
  if (!body)
    return weights;
  for (GetAttrOp read : body.getBodyBlock().getOps<GetAttrOp>())
    if (auto weight = symbols.lookupNearestSymbolFrom<WeightOp>(
            read, read.getTargetAttr()))
      weights.push_back(
          {getLocalName(module, weight.getSymName()), weight, read});
  return weights;
}

WeightOp mav::lookupModuleWeight(CallModuleOp module, StringRef localName,
                                 SymbolTableCollection &symbols) {
  for (const ModuleWeight &owned : getModuleWeights(module, symbols))
    if (owned.localName == localName)
      return owned.weight;
  return {};
}

WeightOp mav::getWeightArgument(const AtenCall &call, unsigned position,
                                StringRef keyword,
                                SymbolTableCollection &symbols) {
  Value value = call.operand(position, keyword);
  auto read = value ? value.getDefiningOp<GetAttrOp>() : GetAttrOp();
  if (!read)
    return {};
  return symbols.lookupNearestSymbolFrom<WeightOp>(read, read.getTargetAttr());
}

FailureOr<GraphOp> mav::detail::getOwnBody(CallModuleOp module,
                                           SymbolTableCollection &symbols) {
  GraphOp body = getModuleBody(module, symbols);
  if (!body)
    return module.emitError()
           << "node '" << module.getName() << "' has no module body";
  auto parent = module->getParentOfType<ModuleOp>();
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(body, parent))
    if (std::distance(uses->begin(), uses->end()) != 1)
      return module.emitError()
             << "node '" << module.getName() << "' shares its body "
             << module.getBodyAttr() << " with another call";
  return body;
}

ModuleWeight mav::detail::readInBody(CallModuleOp module, GraphOp body,
                                     WeightOp weight) {
  Operation *before = &body.getBodyBlock().front();
  for (GetAttrOp read : body.getBodyBlock().getOps<GetAttrOp>())
    before = read->getNextNode();
  NodeBuilder builder(before);
  // The scope of the body's nodes, which `before` is one of, else the call's.
  if (!isa<NodeOpInterface>(before))
    builder.setScope(module.getScopeAttr());
  GetAttrOp read = builder.createGetAttr(module.getLoc(), weight);
  return {getLocalName(module, weight.getSymName()), weight, read};
}
