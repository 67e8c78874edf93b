//===- GraphCleanup.cpp - Erase what no node refers to any more -----------===//
//
// Part of the mav project.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/GraphCleanup.h"
#include "mav/IR/MavOps.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;

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
