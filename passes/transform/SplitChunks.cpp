//===- SplitChunks.cpp - chunk and split unpacked into slices -------------===//
//
// `aten::chunk` and `aten::split` return a list, which the trace unpacks
// (`prim::ListUnpack`); nn.MultiheadAttention's decomposed path splits its
// packed projection so. A list is not a stream, so each unpacked piece
// becomes the `aten::slice.Tensor` it is, and the list is erased. Needs the
// static shapes of a raised graph; run `-mav-raise` again afterwards for the
// new nodes' metadata.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/ArgumentEditor.h"
#include "mav/IR/GraphCleanup.h"
#include "mav/IR/NodeBuilder.h"
#include "mav/Operators/OperatorInference.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/TransformPasses.h"

#include "mlir/IR/Builders.h"

namespace mav {
#define GEN_PASS_DEF_SPLITCHUNKS
#include "mav/Passes/TransformPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {

std::optional<int64_t> getInt(Attribute value) {
  auto integer = llvm::dyn_cast_or_null<IntegerAttr>(value);
  if (!integer || integer.getType().isInteger(1))
    return std::nullopt;
  return integer.getInt();
}

/// The [start, end) of each piece along `dim`, or a reason.
FailureOr<SmallVector<std::pair<int64_t, int64_t>>>
getPieces(Operation *node, int64_t &dim, std::string &reason) {
  ArgumentEditor args(node);
  StringRef target = getNodeTarget(node);
  Value input = args.getValue(0);
  auto type = input ? llvm::dyn_cast<RankedTensorType>(input.getType())
                    : RankedTensorType();
  if (!type || !type.hasStaticShape()) {
    reason = "its input needs a static shape (run -mav-raise first)";
    return failure();
  }
  std::optional<int64_t> dimArg = getInt(args.getConstant(2));
  if (args.getNumPositional() < 3)
    dimArg = 0;
  int64_t rank = type.getRank();
  if (!dimArg || *dimArg < -rank || *dimArg >= rank) {
    reason = "its dim must be a constant in range";
    return failure();
  }
  dim = *dimArg < 0 ? *dimArg + rank : *dimArg;
  int64_t extent = type.getDimSize(dim);
  SmallVector<int64_t> sizes;
  if (target.starts_with("aten::chunk") ||
      target.starts_with("aten::unsafe_chunk")) {
    std::optional<int64_t> chunks = getInt(args.getConstant(1));
    if (!chunks || *chunks < 1) {
      reason = "its chunks must be a positive constant";
      return failure();
    }
    int64_t piece = (extent + *chunks - 1) / *chunks;
    for (int64_t start = 0; start < extent; start += piece)
      sizes.push_back(std::min(piece, extent - start));
  } else {
    Attribute size = args.getConstant(1);
    if (std::optional<int64_t> each = getInt(size)) {
      if (*each < 1) {
        reason = "its split_size must be positive";
        return failure();
      }
      for (int64_t start = 0; start < extent; start += *each)
        sizes.push_back(std::min(*each, extent - start));
    } else if (auto list = llvm::dyn_cast_or_null<ArrayAttr>(size)) {
      for (Attribute entry : list) {
        std::optional<int64_t> value = getInt(entry);
        if (!value || *value < 0) {
          reason = "its split sizes must be constants";
          return failure();
        }
        sizes.push_back(*value);
      }
    } else {
      reason = "its split sizes must be constants";
      return failure();
    }
  }
  SmallVector<std::pair<int64_t, int64_t>> pieces;
  int64_t start = 0;
  for (int64_t size : sizes) {
    pieces.push_back({start, start + size});
    start += size;
  }
  if (start != extent) {
    reason = "its split sizes do not add up to the dimension";
    return failure();
  }
  return pieces;
}

bool isSplit(Operation *node) {
  StringRef target = getNodeTarget(node);
  return target == "aten::chunk" || target == "aten::unsafe_chunk" ||
         target == "aten::split" || target == "aten::split.Tensor" ||
         target == "aten::split_with_sizes" || target == "aten::unsafe_split";
}

struct SplitChunks : mav::impl::SplitChunksBase<SplitChunks> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Attribute> split;
    unsigned inserted = 0;
    for (GraphOp graph : getPublicGraphs(module)) {
      SmallVector<Operation *> nodes;
      for (Operation &op : graph.getBodyBlock())
        if (isa<NodeOpInterface>(op) && isSplit(&op))
          nodes.push_back(&op);
      if (nodes.empty())
        continue;
      // One builder per graph: its namer knows every name of the graph.
      NodeBuilder builder(nodes.front());
      for (Operation *node : nodes) {
        FailureOr<unsigned> pieces = splitNode(node, builder);
        if (failed(pieces))
          return signalPassFailure();
        if (*pieces == 0)
          continue;
        inserted += *pieces;
        split.push_back(cast<NodeOpInterface>(node).getNodeNameAttr());
        for (Operation *user : llvm::make_early_inc_range(node->getUsers()))
          user->erase();
        node->erase();
      }
      if (!split.empty())
        updateGraphSignature(graph);
    }
    Builder builder(&getContext());
    recordPassOutputs(
        module, getArgument(),
        {builder.getNamedAttr("split", builder.getI64IntegerAttr(split.size())),
         builder.getNamedAttr("inserted", builder.getI64IntegerAttr(inserted)),
         builder.getNamedAttr("nodes", builder.getArrayAttr(split))});
    if (split.empty())
      markAllAnalysesPreserved();
  }

  /// Replaces the pieces the unpacks of `node` give by slices; 0 when its
  /// list has another use (left alone).
  FailureOr<unsigned> splitNode(Operation *node, NodeBuilder &builder) {
    for (Operation *user : node->getUsers())
      if (getNodeTarget(user) != "prim::ListUnpack")
        return 0u;
    if (node->use_empty())
      return 0u;
    std::string reason;
    int64_t dim = 0;
    FailureOr<SmallVector<std::pair<int64_t, int64_t>>> pieces =
        getPieces(node, dim, reason);
    auto name = cast<NodeOpInterface>(node).getNodeName();
    if (failed(pieces))
      return node->emitError()
             << "node '" << name << "' cannot be split into slices: " << reason;
    Value input = ArgumentEditor(node).getValue(0);
    unsigned created = 0;
    for (Operation *unpack : node->getUsers()) {
      if (unpack->getNumResults() != pieces->size())
        return unpack->emitError()
               << "node '" << cast<NodeOpInterface>(unpack).getNodeName()
               << "' unpacks " << unpack->getNumResults() << " values, node '"
               << name << "' gives " << pieces->size();
      builder.setInsertionPoint(unpack);
      builder.setScope(cast<NodeOpInterface>(unpack).getNodeScope());
      for (auto [result, piece] : llvm::zip(unpack->getResults(), *pieces)) {
        ArgumentTreeBuilder tree(&getContext());
        SmallVector<Attribute> args = {tree.use(input),
                                       builder.getI64IntegerAttr(dim),
                                       builder.getI64IntegerAttr(piece.first),
                                       builder.getI64IntegerAttr(piece.second),
                                       builder.getI64IntegerAttr(1)};
        CallFunctionOp slice =
            builder.createCallFunction(unpack->getLoc(), "aten::slice.Tensor",
                                       args, {}, tree, {result.getType()});
        result.replaceAllUsesWith(slice->getResult(0));
        ++created;
      }
    }
    return created;
  }
};

} // namespace
