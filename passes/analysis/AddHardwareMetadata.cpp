//===- AddHardwareMetadata.cpp - MASE hardware metadata of every node -----===//
//
// The component of a node is its op registry entry's, when the node fits it
// (HardwareGraph decides: a grouped conv does not fit fixed_conv2d); the
// parameters follow MASE's verilog_param naming rule, computed from the
// node's common metadata.
// A float argument has no fraction, so it gets only <ARG>_PRECISION_0, its
// width: the node is annotated, and -mav-quantize makes it fixed point.
//
//===----------------------------------------------------------------------===//

#include "mav/Hardware/HardwareGraph.h"
#include "mav/Hardware/StreamWidthParams.h"
#include "mav/IR/MaseType.h"
#include "mav/Passes/AnalysisPasses.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"

namespace mav {
#define GEN_PASS_DEF_ADDHARDWAREMETADATA
#include "mav/Passes/AnalysisPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {

/// MASE's rule: dimension d (0 innermost) takes up to max_parallelism[-1-d]
/// words, listed outermost first; dimensions beyond the list take 1.
int64_t parallelism(ArrayRef<int64_t> maxParallelism, int64_t extent,
                    size_t dim) {
  if (dim >= maxParallelism.size() || extent < 1)
    return 1;
  return std::min(maxParallelism[maxParallelism.size() - 1 - dim], extent);
}

struct AddHardwareMetadata
    : mav::impl::AddHardwareMetadataBase<AddHardwareMetadata> {
  using AddHardwareMetadataBase::AddHardwareMetadataBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (int64_t value : maxParallelism)
      if (value < 1) {
        module.emitError() << "mav-add-hardware-metadata: max-parallelism "
                              "entries must be at least 1, got "
                           << value;
        return signalPassFailure();
      }

    // Pass statistics count only when enabled; the outputs always do.
    supported = unsupported = 0;
    llvm::StringMap<int64_t> unsupportedOps;
    // One entry per unfit node; made a dictionary once, at the end.
    SmallVector<NamedAttribute> reasons;
    SymbolTableCollection symbols;
    for (GraphOp graph : getPublicGraphs(module))
      for (auto node : graph.getBodyBlock().getOps<NodeOpInterface>())
        if (failed(annotate(node, unsupportedOps, reasons, symbols)))
          return signalPassFailure();

    Builder builder(&getContext());
    recordPassOutputs(
        module, getArgument(),
        {builder.getNamedAttr("supported",
                              builder.getI64IntegerAttr(supported)),
         builder.getNamedAttr("unsupported",
                              builder.getI64IntegerAttr(unsupported)),
         builder.getNamedAttr("unsupported_ops",
                              countsAttr(&getContext(), unsupportedOps)),
         builder.getNamedAttr("unfit_nodes",
                              DictionaryAttr::get(&getContext(), reasons))});
    markAllAnalysesPreserved();
  }

  LogicalResult annotate(NodeOpInterface node,
                         llvm::StringMap<int64_t> &unsupportedOps,
                         SmallVector<NamedAttribute> &reasons,
                         SymbolTableCollection &symbols) {
    CommonMetaAttr common = node.getCommonMeta();
    if (!common || common.getMaseOp().empty())
      return node->emitError()
             << "node '" << node.getNodeName()
             << "' has no common metadata (mase_op): run -mav-raise first";

    MLIRContext *context = &getContext();
    Builder builder(context);
    const Component *component = nullptr;
    HardwareNode lowering;
    std::string reason;
    if (!getComponentsFor(common.getMaseOp()).empty() &&
        !isa<GetAttrOp>(node.getOperation())) {
      if (describeHardwareNode(node, lowering, symbols, reason))
        component = lowering.component;
      else
        reasons.push_back(builder.getNamedAttr(node.getNodeName(),
                                               builder.getStringAttr(reason)));
    }
    if (component) {
      ++numSupported;
      ++supported;
    } else {
      ++numUnsupported;
      ++unsupported;
      ++unsupportedOps[common.getMaseOp()];
    }
    StringRef maseType = common.getMaseType();
    bool implicit =
        !component && (maseType == stringifyMaseType(MaseType::ImplicitFunc) ||
                       maseType == stringifyMaseType(MaseType::GetAttr));

    NamedAttrList params, interface;
    auto addValues = [&](ArrayAttr values, bool isArg) {
      if (!values)
        return;
      for (auto value : values.getAsRange<ValueMetaAttr>()) {
        if (!value.getShape())
          continue;
        std::string arg = value.getName().upper();
        if (isArg && !value.getName().starts_with("data_in"))
          interface.set(value.getName(),
                        builder.getDictionaryAttr(
                            {builder.getNamedAttr(
                                 "storage", builder.getStringAttr("BRAM")),
                             builder.getNamedAttr(
                                 "transpose", builder.getBoolAttr(false))}));
        if (DenseI64ArrayAttr precision = value.getPrecision())
          for (auto [index, bits] :
               llvm::enumerate(precision.asArrayRef().take_front(2)))
            params.set(arg + "_PRECISION_" + std::to_string(index),
                       builder.getI64IntegerAttr(bits));
        ArrayRef<int64_t> shape = value.getShape().asArrayRef();
        for (size_t dim = 0; dim < shape.size(); ++dim) {
          int64_t extent = shape[shape.size() - 1 - dim];
          params.set(arg + "_TENSOR_SIZE_DIM_" + std::to_string(dim),
                     builder.getI64IntegerAttr(extent));
          params.set(arg + "_PARALLELISM_DIM_" + std::to_string(dim),
                     builder.getI64IntegerAttr(
                         parallelism(maxParallelism, extent, dim)));
        }
      }
    };
    addValues(common.getArgs(), /*isArg=*/true);
    addValues(common.getResults(), /*isArg=*/false);
    if (component)
      legalizeStreamWidths(lowering, params);

    SmallVector<StringRef> files;
    if (component)
      files.assign(component->dependenceFiles.begin(),
                   component->dependenceFiles.end());
    SmallVector<int64_t> maxPar(maxParallelism.begin(), maxParallelism.end());
    node->setAttr("hardware", HardwareMetaAttr::get(
                                  context, builder.getBoolAttr(implicit),
                                  component ? "INTERNAL_RTL" : "UNSUPPORTED",
                                  component ? component->module : StringRef(),
                                  builder.getI64IntegerAttr(-1),
                                  interface.getDictionary(context),
                                  params.getDictionary(context),
                                  builder.getStrArrayAttr(files),
                                  DenseI64ArrayAttr::get(context, maxPar)));
    return success();
  }

  /// MASE's rule gives each stream port a budget, the product of its
  /// `*_PARALLELISM_DIM_d` (a port the metadata does not describe, a tensor
  /// of a list argument, has the result's); the component takes the largest
  /// legal width within it, along the one dimension it streams in parallel
  /// (an image's channels, a vector's features), and the port's entries say
  /// so (writeStreamWidths).
  void legalizeStreamWidths(const HardwareNode &node, NamedAttrList &params) {
    DictionaryAttr mase = params.getDictionary(&getContext());
    StreamWidths cap;
    cap.out = getPortWidth(mase, "DATA_OUT_0").value_or(1);
    for (unsigned port = 0; port < node.streamOperands.size(); ++port)
      cap.in.push_back(
          getPortWidth(mase, getStreamPortName(node, port)).value_or(cap.out));
    writeStreamWidths(node, node.component->legalWidths(node, cap), params,
                      &getContext());
  }

  int64_t supported = 0, unsupported = 0;
};
} // namespace
