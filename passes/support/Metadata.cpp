//===- Metadata.cpp - Helpers for passes that write MASE metadata ---------===//

#include "mav/Passes/Metadata.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mav;

SmallVector<GraphOp> mav::getPublicGraphs(ModuleOp module) {
  SmallVector<GraphOp> graphs;
  for (GraphOp graph : module.getOps<GraphOp>())
    if (graph.getSymVisibility().value_or("public") == "public")
      graphs.push_back(graph);
  return graphs;
}

SmallVector<Attribute> mav::placeholderMetadata(GraphOp graph) {
  SmallVector<Attribute> inputs;
  for (Attribute name : graph.getArgNames())
    inputs.push_back(ValueMetaAttr::get(graph.getContext(),
                                        name.cast<StringAttr>().getValue(), {},
                                        "", "", {}, {}, {}));
  return inputs;
}

SmallVector<Attribute> mav::outputMetadata(GraphOp graph) {
  SmallVector<Attribute> outputs;
  for (unsigned index = 0, e = graph.getOutput().getNumOperands(); index < e;
       ++index)
    outputs.push_back(ValueMetaAttr::get(graph.getContext(),
                                         "data_out_" + std::to_string(index),
                                         {}, "", "", {}, {}, {}));
  return outputs;
}

void mav::setGraphMetadata(GraphOp graph, ArrayRef<Attribute> inputs,
                           ArrayRef<Attribute> outputs) {
  Builder builder(graph.getContext());
  graph->setAttr("inputs", builder.getArrayAttr(inputs));
  graph->setAttr("outputs", builder.getArrayAttr(outputs));
}

void mav::setSoftwareMetadata(Operation *node,
                              ArrayRef<NamedAttribute> entries) {
  NamedAttrList merged;
  if (auto software = node->getAttrOfType<SoftwareMetaAttr>("software"))
    merged.append(software.getEntries().getValue());
  for (NamedAttribute entry : entries)
    merged.set(entry.getName(), entry.getValue());
  node->setAttr("software", SoftwareMetaAttr::get(
                                node->getContext(),
                                merged.getDictionary(node->getContext())));
}
