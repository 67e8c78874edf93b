//===- LowerNestedTensors.cpp - TransformerEncoder's fast path, padded ----===//
//
// Rewrites each _nested_tensor_from_mask -> _transformer_encoder_layer_fwd*
// -> to_padded_tensor chain into the same layers on the padded tensor with a
// key padding mask, a fill of the padded positions and a cut to the longest
// sequence (TransformPasses.td, LowerNestedTensors).
//
//===----------------------------------------------------------------------===//

#include "mav/IR/ArgumentEditor.h"
#include "mav/IR/AtenCall.h"
#include "mav/IR/GraphCleanup.h"
#include "mav/IR/NodeBuilder.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/TransformPasses.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mav {
#define GEN_PASS_DEF_LOWERNESTEDTENSORS
#include "mav/Passes/TransformPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

static constexpr StringLiteral kFromMask = "aten::_nested_tensor_from_mask";
static constexpr StringLiteral kLayer = "aten::_transformer_encoder_layer_fwd";
static constexpr StringLiteral kToPadded = "aten::to_padded_tensor";
/// _transformer_encoder_layer_fwd's `mask` and `mask_type` positions.
static constexpr unsigned kLayerMask = 18, kLayerMaskType = 19;
/// mask_type 1: a [batch, sequence] key padding mask.
static constexpr int64_t kKeyPaddingMask = 1;

/// The target a call_function names without its overload.
static StringRef getOperator(CallFunctionOp call) {
  return call.getTarget().split('.').first;
}

/// aten::to_padded_tensor, as a function or as the Tensor method.
static bool isToPadded(Operation *node) {
  if (auto call = dyn_cast<CallFunctionOp>(node))
    return getOperator(call) == kToPadded;
  if (auto method = dyn_cast<CallMethodOp>(node))
    return method.getTarget() == "to_padded_tensor";
  return false;
}

namespace {
/// One fast path: the nested tensor, the layers that run on it, in order,
/// and the to_padded_tensor that ends it.
struct FastPath {
  CallFunctionOp fromMask;
  /// call_function nodes of the fused layer, or call_module nodes of
  /// TransformerEncoderLayer whose body holds one.
  SmallVector<Operation *> layers;
  /// aten::to_padded_tensor, or the Tensor method.
  Operation *toPadded = nullptr;
};

struct LowerNestedTensors
    : mav::impl::LowerNestedTensorsBase<LowerNestedTensors> {
  /// The run's symbol tables (a pass is copied when cloned; tables are not).
  SymbolTableCollection *symbols = nullptr;
  /// The names of the nodes the lowering made.
  SmallVector<Attribute> inserted;

  void runOnOperation() override {
    SymbolTableCollection tables;
    symbols = &tables;
    inserted.clear();
    SmallVector<CallFunctionOp> fromMasks;
    getOperation().walk([&](CallFunctionOp call) {
      if (getOperator(call) == kFromMask)
        fromMasks.push_back(call);
    });
    SmallVector<Attribute> lowered;
    for (CallFunctionOp fromMask : fromMasks) {
      FailureOr<FastPath> path = findFastPath(fromMask);
      if (failed(path) || failed(lower(*path)))
        return signalPassFailure();
      lowered.push_back(fromMask.getNodeNameAttr());
      fromMask->erase();
    }
    numLowered += lowered.size();
    // -mav-raise runs this pass on every model: its report stays that of
    // the analyses unless there was something to lower.
    if (lowered.empty())
      return markAllAnalysesPreserved();
    Builder builder(&getContext());
    recordPassOutputs(
        getOperation(), getArgument(),
        {builder.getNamedAttr("lowered",
                              builder.getI64IntegerAttr(lowered.size())),
         builder.getNamedAttr("nodes", builder.getArrayAttr(lowered)),
         builder.getNamedAttr("inserted", builder.getArrayAttr(inserted))});
  }

  /// The fused layer call `node` makes: its own, or its module body's.
  CallFunctionOp getLayerCall(Operation *node) {
    if (auto call = dyn_cast<CallFunctionOp>(node))
      return getOperator(call) == kLayer ? call : nullptr;
    auto module = dyn_cast<CallModuleOp>(node);
    if (!module)
      return nullptr;
    FailureOr<AtenCall> call = getAtenCall(module, *symbols);
    if (failed(call) || call->target.split('.').first != kLayer)
      return nullptr;
    return dyn_cast<CallFunctionOp>(call->call);
  }

  /// Follows the nested tensor through the layers to to_padded_tensor.
  FailureOr<FastPath> findFastPath(CallFunctionOp fromMask) {
    FastPath path{fromMask, {}, nullptr};
    Operation *producer = fromMask;
    while (!path.toPadded) {
      Value nested = producer->getResult(0);
      auto refuse = [&](Operation *user) {
        InFlightDiagnostic diagnostic = fromMask.emitError();
        diagnostic << "node '" << fromMask.getNodeName()
                   << "': its nested tensor ";
        if (!user)
          diagnostic << "has "
                     << std::distance(nested.use_begin(), nested.use_end())
                     << " uses after node '"
                     << cast<NodeOpInterface>(producer).getNodeName() << "'";
        else
          diagnostic << "reaches node '"
                     << cast<NodeOpInterface>(user).getNodeName() << "'";
        diagnostic << "; mav lowers only TransformerEncoder's fast path: "
                      "encoder layers, then to_padded_tensor";
        return diagnostic;
      };
      if (!nested.hasOneUse())
        return refuse(nullptr);
      Operation *user = *nested.user_begin();
      if (!isa<CallFunctionOp, CallMethodOp, CallModuleOp>(user) ||
          ArgumentEditor(user).getValue(0) != nested)
        return refuse(user);
      if (isToPadded(user)) {
        path.toPadded = user;
        break;
      }
      CallFunctionOp layer = getLayerCall(user);
      if (!layer ||
          !isa_and_nonnull<NoneAttr>(
              ArgumentEditor(layer).getConstant(kLayerMask)) ||
          (isa<CallModuleOp>(user) && !hasOneCall(cast<CallModuleOp>(user))))
        return refuse(user);
      path.layers.push_back(user);
      producer = user;
    }
    if (!isa_and_nonnull<NoneAttr>(
            ArgumentEditor(path.toPadded).getConstant(2)))
      return path.toPadded->emitError()
             << "node '" << cast<NodeOpInterface>(path.toPadded).getNodeName()
             << "': to_padded_tensor with an output size is not lowered";
    return path;
  }

  /// Whether `module` is the only call of its body, which the lowering
  /// gives an argument.
  bool hasOneCall(CallModuleOp module) {
    GraphOp body =
        symbols->lookupNearestSymbolFrom<GraphOp>(module, module.getBodyAttr());
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(body, module->getParentOfType<ModuleOp>());
    return uses && llvm::hasSingleElement(*uses);
  }

  /// Passes `padding` to a layer as its key padding mask: to the fused call
  /// itself, or through a new argument of its module's body.
  void setKeyPaddingMask(Operation *layer, Value padding) {
    Builder builder(&getContext());
    CallFunctionOp call = getLayerCall(layer);
    Value mask = padding;
    if (auto module = dyn_cast<CallModuleOp>(layer)) {
      ArgumentEditor outer(module);
      outer.append(padding);
      outer.apply();
      GraphOp body = symbols->lookupNearestSymbolFrom<GraphOp>(
          module, module.getBodyAttr());
      Block &block = body.getBodyBlock();
      mask = block.addArgument(padding.getType(), call.getLoc());
      SmallVector<Attribute> names(body.getArgNames().begin(),
                                   body.getArgNames().end());
      names.push_back(builder.getStringAttr(
          getGraphNamer(body).claim("src_key_padding_mask")));
      body.setArgNamesAttr(builder.getArrayAttr(names));
      updateGraphSignature(body);
      NamedAttrList config(module.getConfigAttr());
      config.erase("mask");
      config.set("mask_type", builder.getI64IntegerAttr(kKeyPaddingMask));
      module.setConfigAttr(config.getDictionary(&getContext()));
    }
    ArgumentEditor inner(call);
    inner.set(kLayerMask, mask);
    inner.set(kLayerMaskType, builder.getI64IntegerAttr(kKeyPaddingMask));
    inner.apply();
  }

  /// Runs the layers on the padded tensor and pads their result as
  /// to_padded_tensor does.
  LogicalResult lower(FastPath &path) {
    ArgumentEditor fromMask(path.fromMask);
    Value padded = fromMask.getValue(0), valid = fromMask.getValue(1);
    if (!padded || !valid)
      return path.fromMask.emitError()
             << "node '" << path.fromMask.getNodeName()
             << "': expected a tensor and a mask";
    Location loc = path.fromMask.getLoc();
    MLIRContext *context = &getContext();
    Type tensor = UnknownTensorType::get(context);
    Builder constants(context);

    // A nested tensor from a mask holds the first `length` tokens of each
    // sequence, `length` being its count of valid positions (whether or not
    // they come first): position p (from 1) is padding when p > length.
    NodeBuilder before(path.fromMask);
    auto call = [&](NodeBuilder &nodes, Location at, StringRef target,
                    auto &&build, Type result = {}) {
      ArgumentTreeBuilder tree(context);
      SmallVector<Attribute> args = build(tree);
      CallFunctionOp node = nodes.createCallFunction(at, target, args, {}, tree,
                                                     result ? result : tensor);
      inserted.push_back(node.getNodeNameAttr());
      return node.getResult(0);
    };
    Value lengths = call(
        before, loc, "aten::sum.dim_IntList", [&](ArgumentTreeBuilder &tree) {
          return SmallVector<Attribute>{
              tree.use(valid), tree.list({constants.getI64IntegerAttr(1)}),
              constants.getBoolAttr(false), tree.none()};
        });
    Value ones =
        call(before, loc, "aten::ones_like", [&](ArgumentTreeBuilder &tree) {
          return SmallVector<Attribute>{tree.use(valid)};
        });
    Value positions =
        call(before, loc, "aten::cumsum", [&](ArgumentTreeBuilder &tree) {
          return SmallVector<Attribute>{
              tree.use(ones), constants.getI64IntegerAttr(1), tree.none()};
        });
    Value perSequence =
        call(before, loc, "aten::unsqueeze", [&](ArgumentTreeBuilder &tree) {
          return SmallVector<Attribute>{tree.use(lengths),
                                        constants.getI64IntegerAttr(1)};
        });
    Value padding =
        call(before, loc, "aten::gt.Tensor", [&](ArgumentTreeBuilder &tree) {
          return SmallVector<Attribute>{tree.use(positions),
                                        tree.use(perSequence)};
        });

    for (auto [index, layer] : llvm::enumerate(path.layers)) {
      if (index == 0) {
        ArgumentEditor first(layer);
        first.set(0, padded);
        first.apply();
      }
      setKeyPaddingMask(layer, padding);
    }
    Value result =
        path.layers.empty() ? padded : path.layers.back()->getResult(0);

    Operation *toPadded = path.toPadded;
    Attribute fill = ArgumentEditor(toPadded).getConstant(1);
    NodeBuilder at(toPadded);
    Location padLoc = toPadded->getLoc();
    Value perElement =
        call(at, padLoc, "aten::unsqueeze", [&](ArgumentTreeBuilder &tree) {
          return SmallVector<Attribute>{tree.use(padding),
                                        constants.getI64IntegerAttr(-1)};
        });
    Value filled = call(at, padLoc, "aten::masked_fill.Scalar",
                        [&](ArgumentTreeBuilder &tree) {
                          return SmallVector<Attribute>{
                              tree.use(result), tree.use(perElement), fill};
                        });
    // to_padded_tensor's length: the longest sequence.
    Value longest =
        call(at, padLoc, "aten::max", [&](ArgumentTreeBuilder &tree) {
          return SmallVector<Attribute>{tree.use(lengths)};
        });
    Value length = call(
        at, padLoc, "aten::Int.Tensor",
        [&](ArgumentTreeBuilder &tree) {
          return SmallVector<Attribute>{tree.use(longest)};
        },
        IntType::get(context));
    Value cut =
        call(at, padLoc, "aten::slice.Tensor", [&](ArgumentTreeBuilder &tree) {
          return SmallVector<Attribute>{
              tree.use(filled), constants.getI64IntegerAttr(1),
              constants.getI64IntegerAttr(0), tree.use(length),
              constants.getI64IntegerAttr(1)};
        });
    toPadded->getResult(0).replaceAllUsesWith(cut);
    toPadded->erase();
    updateGraphSignature(cut.getParentRegion()->getParentOfType<GraphOp>());
    return success();
  }
};
} // namespace
