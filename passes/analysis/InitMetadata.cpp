//===- InitMetadata.cpp - Empty MASE metadata on every node ---------------===//

#include "mav/Passes/Metadata.h"
#include "mav/Passes/Passes.h"

namespace mav {
#define GEN_PASS_DEF_INITMETADATA
#include "mav/Passes/Passes.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {
struct InitMetadata : mav::impl::InitMetadataBase<InitMetadata> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    auto common = CommonMetaAttr::get(context, "", "", {}, {});
    auto hardware =
        HardwareMetaAttr::get(context, {}, "", "", {}, {}, {}, {}, {});
    auto software =
        SoftwareMetaAttr::get(context, DictionaryAttr::get(context, {}));
    for (GraphOp graph : getPublicGraphs(getOperation())) {
      for (auto node : graph.getBodyBlock().getOps<NodeOpInterface>()) {
        node->setAttr("common", common);
        node->setAttr("hardware", hardware);
        node->setAttr("software", software);
        ++numNodes;
      }
      setGraphMetadata(graph, placeholderMetadata(graph),
                       outputMetadata(graph));
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
