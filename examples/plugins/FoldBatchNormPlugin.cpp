//===- FoldBatchNormPlugin.cpp - docs/WritingPasses.md's transform --------===//
// Folds each eval-mode BatchNorm2d into the Conv2d it alone reads, per output
// channel c: W' = W s, b' = (b - mean) s + beta, s = gamma / sqrt(var + eps).
//===----------------------------------------------------------------------===//

#include "mav/Passes/PassAPI.h"
#include "mav/Passes/PluginAPI.h"

#include <cmath>

using namespace mlir;
using namespace mav;

namespace {
struct FoldBatchNorm : PassWrapper<FoldBatchNorm, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FoldBatchNorm)
  StringRef getArgument() const final { return "example-fold-batchnorm"; }
  StringRef getDescription() const final {
    return "fold eval-mode batch norms into the convolutions before them";
  }

  void runOnOperation() override {
    SmallVector<Operation *> norms;
    walkNodes(getOperation(), "batch_norm2d",
              [&](Operation *node) { norms.push_back(node); });
    SymbolTableCollection symbols;
    int64_t folded = 0;
    for (Operation *norm : norms) {
      FailureOr<bool> done = fold(dyn_cast<CallModuleOp>(norm), symbols);
      if (failed(done))
        return signalPassFailure();
      folded += *done;
    }
    // The folded norms' bodies, then their weights, are read by nothing.
    eraseUnusedBodies(getOperation());
    eraseUnusedWeights(getOperation());
    recordPassOutputs(
        getOperation(), getArgument(),
        countsAttr(&getContext(), {{"folded", folded}}).getValue());
  }

  /// Folds `norm` (true), or leaves it (false), or fails after a diagnostic.
  FailureOr<bool> fold(CallModuleOp norm, SymbolTableCollection &symbols) {
    auto conv = norm ? norm->getOperand(0).getDefiningOp<CallModuleOp>()
                     : CallModuleOp();
    if (!conv || getMaseOp(conv) != "conv2d" || !conv->hasOneUse())
      return false;
    DictionaryAttr config = norm.getConfigAttr();
    auto training = config ? config.getAs<BoolAttr>("training") : nullptr;
    auto eps = config ? config.getAs<FloatAttr>("eps") : nullptr;
    if (!eps || !training || training.getValue())
      return false;
    auto weight = [&](CallModuleOp module, StringRef name) {
      return lookupModuleWeight(module, name, symbols);
    };
    WeightOp kernel = weight(conv, "weight"), bias = weight(conv, "bias");
    WeightOp gamma = weight(norm, "weight"), beta = weight(norm, "bias");
    WeightOp mean = weight(norm, "running_mean");
    WeightOp var = weight(norm, "running_var");
    if (!kernel || !gamma || !beta || !mean || !var)
      return false; // affine=False, or no running statistics
    auto w = readWeightData<float>(kernel);
    auto g = readWeightData<float>(gamma), bt = readWeightData<float>(beta);
    auto m = readWeightData<float>(mean), v = readWeightData<float>(var);
    auto b = bias ? readWeightData<float>(bias)
                  : FailureOr<SmallVector<float>>(SmallVector<float>(
                        kernel.getWeightType().getDimSize(0), 0.0f));
    if (failed(w) || failed(g) || failed(bt) || failed(m) || failed(v) ||
        failed(b))
      return failure();
    size_t perChannel = w->size() / b->size();
    for (size_t c = 0; c < b->size(); ++c) {
      double s = (*g)[c] / std::sqrt(double((*v)[c]) + eps.getValueAsDouble());
      for (size_t i = c * perChannel; i < (c + 1) * perChannel; ++i)
        (*w)[i] = static_cast<float>((*w)[i] * s);
      (*b)[c] = static_cast<float>(((*b)[c] - (*m)[c]) * s + (*bt)[c]);
    }
    if (failed(setWeightData<float>(kernel, *w)) ||
        failed(bias ? setWeightData<float>(bias, *b)
                    : addBias(conv, *b, symbols)))
      return failure();
    norm->getResult(0).replaceAllUsesWith(conv->getResult(0));
    norm->erase();
    invalidateCommonMetadata(conv); // -mav-raise computes it again
    return true;
  }

  /// Gives a conv without bias the bias `values`: a new weight of the
  /// module, passed as its aten call's third argument.
  LogicalResult addBias(CallModuleOp conv, ArrayRef<float> values,
                        SymbolTableCollection &symbols) {
    auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                      Float32Type::get(&getContext()));
    FailureOr<ModuleWeight> bias = addModuleWeight<float>(
        conv, "bias", WeightKind::parameter, type, values, symbols);
    FailureOr<AtenCall> call = getAtenCall(conv, symbols);
    if (failed(bias) || failed(call))
      return failure();
    ArgumentEditor edit(call->call);
    edit.set(2, bias->read.getResult());
    edit.apply();
    NamedAttrList config(conv.getConfigAttr());
    config.erase("bias"); // no longer None
    conv.setConfigAttr(config.getDictionary(&getContext()));
    return success();
  }
};
} // namespace

MAV_PASS_PLUGIN("fold-batchnorm", "1.0", FoldBatchNorm)
