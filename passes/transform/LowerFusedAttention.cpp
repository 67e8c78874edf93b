//===- LowerFusedAttention.cpp - Fused attention kernels as aten ops ------===//
//
// In eval mode without gradients, PyTorch 1.13 runs nn.MultiheadAttention
// and nn.TransformerEncoderLayer as fused kernels, which a trace records as
// one node each: `aten::_native_multi_head_attention` and
// `aten::_transformer_encoder_layer_fwd`. This pass rewrites each into the
// operators of its decomposed form (linear, reshape, transpose, matmul,
// softmax, layer_norm, relu or gelu, add), as PyTorch's CPU kernels compute
// it, so that everything downstream of it (the op registry, FLOPs, the
// hardware flow) sees the same operators whichever path the trace took.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/ArgumentEditor.h"
#include "mav/IR/GraphCleanup.h"
#include "mav/IR/MavTypes.h"
#include "mav/IR/NodeBuilder.h"
#include "mav/Operators/OperatorInference.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/TransformPasses.h"

#include "mlir/IR/Builders.h"

#include <cmath>
#include <variant>

namespace mav {
#define GEN_PASS_DEF_LOWERFUSEDATTENTION
#include "mav/Passes/TransformPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {

constexpr llvm::StringLiteral kEncoderLayer =
    "aten::_transformer_encoder_layer_fwd";
constexpr llvm::StringLiteral kAttention = "aten::_native_multi_head_attention";

/// An argument of a new node: a graph value or a constant.
using Arg = std::variant<Value, Attribute>;

/// Builds the decomposed nodes before the fused one, in its scope.
class Decomposer {
public:
  explicit Decomposer(Operation *fused)
      : builder(fused), constants(fused->getContext()), loc(fused->getLoc()) {}

  Value call(StringRef target, ArrayRef<Arg> args,
             ArrayRef<std::pair<StringRef, Arg>> kwargs = {}) {
    ArgumentTreeBuilder tree(builder.getContext());
    auto build = [&](const Arg &arg) -> Attribute {
      if (auto *value = std::get_if<Value>(&arg))
        return tree.use(*value);
      return std::get<Attribute>(arg);
    };
    SmallVector<Attribute> positional = llvm::to_vector(
        llvm::map_range(args, [&](const Arg &arg) { return build(arg); }));
    SmallVector<NamedAttribute> keywords;
    for (auto &[name, arg] : kwargs)
      keywords.push_back(builder.getNamedAttr(name, build(arg)));
    CallFunctionOp node = builder.createCallFunction(
        loc, target, positional, keywords, tree,
        {UnknownTensorType::get(builder.getContext())});
    ++created;
    return node->getResult(0);
  }

  Attribute integer(int64_t value) { return builder.getI64IntegerAttr(value); }
  Attribute real(double value) { return builder.getF64FloatAttr(value); }
  Attribute boolean(bool value) { return builder.getBoolAttr(value); }
  Attribute none() { return constants.none(); }
  Attribute list(ArrayRef<int64_t> values) {
    return builder.getArrayAttr(llvm::to_vector(llvm::map_range(
        values, [&](int64_t value) { return integer(value); })));
  }

  Value linear(Value x, Value weight, Value bias) {
    return call("aten::linear", {x, weight, bias});
  }

  /// Self-attention of x [B, L, E] with `heads` heads, as
  /// _native_multi_head_attention computes it: the packed projection, q
  /// scaled by 1/sqrt(D) before Q.K^T, softmax over keys, A.V, the heads
  /// merged, the output projection.
  Value attention(Value x, int64_t embed, int64_t heads, Value qkvWeight,
                  Value qkvBias, Value projWeight, Value projBias) {
    int64_t dim = embed / heads;
    Value qkv = linear(x, qkvWeight, qkvBias);
    auto head = [&](int64_t index) {
      Value part = call("aten::slice.Tensor",
                        {qkv, integer(-1), integer(index * embed),
                         integer((index + 1) * embed), integer(1)});
      Value split =
          call("aten::unflatten.int", {part, integer(-1), list({heads, dim})});
      return call("aten::transpose.int", {split, integer(1), integer(2)});
    };
    Value q = call("aten::div.Scalar",
                   {head(0), real(std::sqrt(static_cast<double>(dim)))});
    Value k = head(1), v = head(2);
    Value kt = call("aten::transpose.int", {k, integer(-2), integer(-1)});
    Value scores = call("aten::matmul", {q, kt});
    Value weights = call("aten::softmax.int", {scores, integer(-1), none()});
    Value mixed = call("aten::matmul", {weights, v});
    Value merged = call("aten::transpose.int", {mixed, integer(1), integer(2)});
    Value flat =
        call("aten::flatten.using_ints", {merged, integer(2), integer(3)});
    return linear(flat, projWeight, projBias);
  }

  Value layerNorm(Value x, int64_t embed, Value weight, Value bias,
                  double eps) {
    return call("aten::layer_norm",
                {x, list({embed}), weight, bias, real(eps), boolean(true)});
  }

  Value add(Value a, Value b) {
    return call("aten::add.Tensor", {a, b}, {{"alpha", integer(1)}});
  }

  unsigned getCreated() const { return created; }

private:
  NodeBuilder builder;
  ArgumentTreeBuilder constants;
  Location loc;
  unsigned created = 0;
};

/// The fused node's arguments, read through ArgumentEditor; a missing one
/// is an error naming the node.
class FusedArguments {
public:
  explicit FusedArguments(Operation *node) : node(node), editor(node) {}

  Value value(unsigned position, StringRef name) {
    Value value = editor.getValue(position);
    if (!value)
      fail() << "its " << name << " is not a graph value";
    return value;
  }

  int64_t integer(unsigned position, StringRef name) {
    auto constant = get<IntegerAttr>(position, name, "int");
    return constant ? constant.getInt() : 0;
  }

  double real(unsigned position, StringRef name) {
    auto constant = get<FloatAttr>(position, name, "float");
    return constant ? constant.getValueAsDouble() : 0;
  }

  bool boolean(unsigned position, StringRef name) {
    auto constant = get<BoolAttr>(position, name, "bool");
    return constant && constant.getValue();
  }

  /// Fails unless positional argument `position`, if present, is None.
  void requireNone(unsigned position, StringRef name) {
    if (position >= editor.getNumPositional())
      return;
    if (!isa_and_nonnull<NoneAttr>(editor.getConstant(position)))
      fail() << "a " << name
             << " is not lowered (the hardware flow's contract has none)";
  }

  bool failed() const { return hasFailed; }

  /// An error at the node, which cannot be lowered; say why after it.
  InFlightDiagnostic fail() {
    hasFailed = true;
    return node->emitError()
           << "node '" << cast<NodeOpInterface>(node).getNodeName() << "' ("
           << getNodeTarget(node) << ") cannot be lowered: ";
  }

private:
  /// The constant at `position`, of kind `Constant`; else fails.
  template <typename Constant>
  Constant get(unsigned position, StringRef name, StringRef kind) {
    auto constant = dyn_cast_or_null<Constant>(editor.getConstant(position));
    if (!constant)
      fail() << "its " << name << " is not a constant " << kind;
    return constant;
  }

  Operation *node;
  ArgumentEditor editor;
  bool hasFailed = false;
};

/// _transformer_encoder_layer_fwd(src, embed_dim, num_heads, qkv_weight,
/// qkv_bias, proj_weight, proj_bias, use_gelu, norm_first, eps,
/// norm_weight_1, norm_bias_1, norm_weight_2, norm_bias_2, ffn_weight_1,
/// ffn_bias_1, ffn_weight_2, ffn_bias_2, mask, mask_type).
FailureOr<Value> lowerEncoderLayer(Operation *node, unsigned &created) {
  FusedArguments a(node);
  Value src = a.value(0, "src");
  int64_t embed = a.integer(1, "embed_dim");
  int64_t heads = a.integer(2, "num_heads");
  Value qkvWeight = a.value(3, "qkv_weight"), qkvBias = a.value(4, "qkv_bias");
  Value projWeight = a.value(5, "proj_weight");
  Value projBias = a.value(6, "proj_bias");
  bool gelu = a.boolean(7, "use_gelu");
  bool normFirst = a.boolean(8, "norm_first");
  double eps = a.real(9, "eps");
  Value norm1Weight = a.value(10, "norm_weight_1");
  Value norm1Bias = a.value(11, "norm_bias_1");
  Value norm2Weight = a.value(12, "norm_weight_2");
  Value norm2Bias = a.value(13, "norm_bias_2");
  Value ffn1Weight = a.value(14, "ffn_weight_1");
  Value ffn1Bias = a.value(15, "ffn_bias_1");
  Value ffn2Weight = a.value(16, "ffn_weight_2");
  Value ffn2Bias = a.value(17, "ffn_bias_2");
  a.requireNone(18, "mask");
  if (a.failed())
    return failure();

  Decomposer d(node);
  auto attention = [&](Value x) {
    return d.attention(x, embed, heads, qkvWeight, qkvBias, projWeight,
                       projBias);
  };
  auto feedForward = [&](Value x) {
    Value hidden = d.linear(x, ffn1Weight, ffn1Bias);
    Value active =
        gelu
            ? d.call("aten::gelu", {hidden},
                     {{"approximate",
                       Attribute(StringAttr::get(node->getContext(), "none"))}})
            : d.call("aten::relu", {hidden});
    return d.linear(active, ffn2Weight, ffn2Bias);
  };
  Value x = src;
  if (normFirst) {
    x = d.add(x, attention(d.layerNorm(x, embed, norm1Weight, norm1Bias, eps)));
    x = d.add(x,
              feedForward(d.layerNorm(x, embed, norm2Weight, norm2Bias, eps)));
  } else {
    x = d.layerNorm(d.add(x, attention(x)), embed, norm1Weight, norm1Bias, eps);
    x = d.layerNorm(d.add(x, feedForward(x)), embed, norm2Weight, norm2Bias,
                    eps);
  }
  created += d.getCreated();
  return x;
}

/// _native_multi_head_attention(query, key, value, embed_dim, num_head,
/// qkv_weight, qkv_bias, proj_weight, proj_bias, mask, need_weights,
/// average_attn_weights, mask_type) -> (output, weights): self-attention
/// only, without the weights.
FailureOr<Value> lowerAttention(Operation *node, unsigned &created) {
  FusedArguments a(node);
  Value query = a.value(0, "query");
  Value key = a.value(1, "key"), value = a.value(2, "value");
  int64_t embed = a.integer(3, "embed_dim");
  int64_t heads = a.integer(4, "num_head");
  Value qkvWeight = a.value(5, "qkv_weight"), qkvBias = a.value(6, "qkv_bias");
  Value projWeight = a.value(7, "proj_weight");
  Value projBias = a.value(8, "proj_bias");
  a.requireNone(9, "mask");
  if (a.failed())
    return failure();
  if (key != query || value != query) {
    a.fail() << "its query, key and value differ (only self-attention is "
                "lowered)";
    return failure();
  }
  if (node->getNumResults() > 1 && !node->getResult(1).use_empty()) {
    a.fail() << "its attention weights are used";
    return failure();
  }
  Decomposer d(node);
  Value output = d.attention(query, embed, heads, qkvWeight, qkvBias,
                             projWeight, projBias);
  created += d.getCreated();
  return output;
}

struct LowerFusedAttention
    : mav::impl::LowerFusedAttentionBase<LowerFusedAttention> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> fused;
    module.walk([&](Operation *op) {
      StringRef target =
          isa<CallFunctionOp>(op) ? getNodeTarget(op) : StringRef();
      if (target == kEncoderLayer || target == kAttention)
        fused.push_back(op);
    });
    Builder builder(&getContext());
    SmallVector<Attribute> names;
    unsigned created = 0;
    bool failedAny = false;
    for (Operation *node : fused) {
      bool layer = getNodeTarget(node) == kEncoderLayer;
      FailureOr<Value> lowered = layer ? lowerEncoderLayer(node, created)
                                       : lowerAttention(node, created);
      if (failed(lowered)) {
        failedAny = true;
        continue;
      }
      names.push_back(
          builder.getStringAttr(cast<NodeOpInterface>(node).getNodeName()));
      node->getResult(0).replaceAllUsesWith(*lowered);
      node->erase();
    }
    if (failedAny)
      return signalPassFailure();
    numLowered += names.size();
    recordPassOutputs(
        module, getArgument(),
        {builder.getNamedAttr("lowered",
                              builder.getI64IntegerAttr(names.size())),
         builder.getNamedAttr("inserted", builder.getI64IntegerAttr(created)),
         builder.getNamedAttr("nodes", builder.getArrayAttr(names))});
  }
};

} // namespace
