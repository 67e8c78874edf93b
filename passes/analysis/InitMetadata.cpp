//===- InitMetadata.cpp - Empty MASE metadata on every node ---------------===//

#include "mav/Passes/AnalysisPasses.h"
#include "mav/Passes/Metadata.h"

namespace mav {
#define GEN_PASS_DEF_INITMETADATA
#include "mav/Passes/AnalysisPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {
struct InitMetadata : mav::impl::InitMetadataBase<InitMetadata> {
  void runOnOperation() override {
    // An absent section is an empty one: a node keeps no attribute that
    // says nothing, and most nodes are left untouched.
    MLIRContext *context = &getContext();
    StringAttr sections[] = {StringAttr::get(context, "common"),
                             StringAttr::get(context, "hardware"),
                             StringAttr::get(context, "software")};
    for (GraphOp graph : getPublicGraphs(getOperation())) {
      for (auto node : graph.getBodyBlock().getOps<NodeOpInterface>()) {
        for (StringAttr section : sections)
          node->removeAttr(section);
        ++numNodes;
      }
      setGraphMetadata(graph, placeholderMetadata(graph),
                       outputMetadata(graph));
    }
  }
};
} // namespace
