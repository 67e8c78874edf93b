//===- InitMetadata.cpp - Empty MASE metadata on every node ---------------===//

#include "mav/Passes/Metadata.h"
#include "mav/Passes/AnalysisPasses.h"

namespace mav {
#define GEN_PASS_DEF_INITMETADATA
#include "mav/Passes/AnalysisPasses.h.inc"
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
    auto commonName = StringAttr::get(context, "common");
    auto hardwareName = StringAttr::get(context, "hardware");
    auto softwareName = StringAttr::get(context, "software");
    for (GraphOp graph : getPublicGraphs(getOperation())) {
      for (auto node : graph.getBodyBlock().getOps<NodeOpInterface>()) {
        // One new attribute dictionary per node, not one per section:
        // MLIR never frees the ones replaced.
        NamedAttrList attributes(node->getAttrDictionary());
        attributes.set(commonName, common);
        attributes.set(hardwareName, hardware);
        attributes.set(softwareName, software);
        node->setAttrs(attributes.getDictionary(context));
        ++numNodes;
      }
      setGraphMetadata(graph, placeholderMetadata(graph),
                       outputMetadata(graph));
    }
  }
};
} // namespace
