//===- FoldBatchNorm.cpp - Fold eval-mode batch norm into conv / linear ---===//
//
// The first step of the hardware flow: a BatchNorm1d/2d module in eval mode
// whose input is the only use of a Conv1d/Conv2d/Linear module's result is
// folded into that module's weight and bias,
//   W' = W * s,  b' = (b - mean) * s + beta,  s = gamma / sqrt(var + eps),
// per output channel, computed in double and rounded to f32. The module body
// of the conv gets a bias when it had none; the batch norm node, its body and
// its weights go. The graph computes what it computed before, up to f32
// rounding. Works on raised and un-raised graphs: the conv's `common`
// metadata, when present, gets its new bias argument.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/ArgumentEditor.h"
#include "mav/IR/GraphCleanup.h"
#include "mav/IR/ModuleNodes.h"
#include "mav/IR/NodeArguments.h"
#include "mav/Operators/OperatorInference.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/TransformPasses.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"

#include <cmath>

namespace mav {
#define GEN_PASS_DEF_FOLDBATCHNORM
#include "mav/Passes/TransformPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {

/// The call computing the one result of module node `module`'s body, when
/// its target is in `targets` and it computes from the module's input. The
/// body may hold other calls (num_batches_tracked updates in train mode).
std::optional<AtenCall> getPrincipalCall(CallModuleOp module,
                                         ArrayRef<StringRef> targets,
                                         SymbolTableCollection &symbols) {
  GraphOp body = getModuleBody(module, symbols);
  if (!body || body.getOutput()->getNumOperands() != 1 ||
      body.getBodyBlock().getNumArguments() == 0)
    return std::nullopt;
  auto call = body.getOutput()->getOperand(0).getDefiningOp<CallFunctionOp>();
  if (!call || !llvm::is_contained(targets, call.getTarget()))
    return std::nullopt;
  AtenCall aten{call, call.getTarget(), call.getArgs(), call.getKwargs()};
  if (aten.operand(0, "input") != body.getBodyBlock().getArgument(0))
    return std::nullopt;
  return aten;
}

/// The weight read at positional argument `position`, null when the argument
/// is None. Fails when it is anything else.
FailureOr<WeightOp> weightArgument(const AtenCall &call, unsigned position,
                                   SymbolTableCollection &symbols) {
  if (!call.args || position >= call.args.size())
    return failure();
  if (call.args[position].isa<NoneAttr>())
    return WeightOp();
  if (WeightOp weight = getWeightArgument(call, position, "", symbols))
    return weight;
  return failure();
}

/// How a batch norm reads its statistics and parameters.
struct NormParams {
  WeightOp gamma, beta, mean, var; // gamma, beta null when affine=False
  double eps = 0;
};

/// How the conv or linear layer before it reads its weight and bias.
struct LayerParams {
  Operation *call;
  WeightOp weight, bias; // bias null when the layer has none
};

/// The folding of one module: the pass holds no state, since passes are
/// copied.
class Folder {
public:
  explicit Folder(ModuleOp module)
      : module(module), context(module.getContext()) {}

  /// Folds what it can; fails on a hard error (diagnosed).
  LogicalResult run(SmallVectorImpl<Attribute> &folded,
                    SmallVectorImpl<NamedAttribute> &skipped);

private:
  /// Folds `norm` or says why not (`reason`); fails on a hard error.
  LogicalResult tryFold(CallModuleOp norm, std::string &reason);
  bool readNorm(CallModuleOp norm, NormParams &params, std::string &reason);
  bool readLayer(CallModuleOp layer, LayerParams &params, std::string &reason);
  LogicalResult checkF32(CallModuleOp norm, ArrayRef<WeightOp> weights);
  LogicalResult addBias(CallModuleOp layer, LayerParams &params,
                        ArrayRef<float> values);
  void eraseDeadBodiesAndWeights();

  ModuleOp module;
  MLIRContext *context;
  SymbolTableCollection symbols;
  llvm::DenseMap<StringAttr, unsigned> getAttrUses, bodyCalls;
  llvm::DenseSet<StringAttr> tiedWeights;
  /// Weights of the folded batch norms, erased when nothing reads them.
  SmallVector<StringAttr> normWeights;
};

struct FoldBatchNorm : mav::impl::FoldBatchNormBase<FoldBatchNorm> {
  void runOnOperation() override {
    SmallVector<Attribute> folded;
    SmallVector<NamedAttribute> skipped;
    if (failed(Folder(getOperation()).run(folded, skipped)))
      return signalPassFailure();
    numFolded += folded.size();
    numSkipped += skipped.size();
    Builder builder(&getContext());
    recordPassOutputs(
        getOperation(), getArgument(),
        {builder.getNamedAttr("folded",
                              builder.getI64IntegerAttr(folded.size())),
         builder.getNamedAttr("skipped",
                              builder.getI64IntegerAttr(skipped.size())),
         builder.getNamedAttr("nodes", builder.getArrayAttr(folded)),
         builder.getNamedAttr("skipped_nodes",
                              builder.getDictionaryAttr(skipped))});
    if (folded.empty())
      markAllAnalysesPreserved();
  }
};

} // namespace

LogicalResult Folder::run(SmallVectorImpl<Attribute> &folded,
                          SmallVectorImpl<NamedAttribute> &skipped) {
  module.walk([&](Operation *op) {
    if (auto getAttr = dyn_cast<GetAttrOp>(op))
      ++getAttrUses[getAttr.getTargetAttr().getAttr()];
    else if (auto call = dyn_cast<CallModuleOp>(op)) {
      if (call.getBodyAttr())
        ++bodyCalls[call.getBodyAttr().getAttr()];
    } else if (auto weight = dyn_cast<WeightOp>(op)) {
      if (auto tied = weight.getTiedToAttr()) {
        tiedWeights.insert(weight.getSymNameAttr());
        tiedWeights.insert(tied.getAttr());
      }
    }
  });

  Builder builder(context);
  for (GraphOp graph : getPublicGraphs(module)) {
    SmallVector<Operation *> norms;
    for (Operation &op : graph.getBodyBlock())
      if (getMaseOp(&op).starts_with("batch_norm"))
        norms.push_back(&op);
    for (Operation *op : norms) {
      auto node = cast<NodeOpInterface>(op);
      std::string reason;
      auto call = dyn_cast<CallModuleOp>(op);
      if (!call)
        reason = "not a module call";
      else if (failed(tryFold(call, reason)))
        return failure();
      if (reason.empty()) {
        folded.push_back(node.getNodeNameAttr());
        op->erase();
      } else {
        skipped.push_back(builder.getNamedAttr(node.getNodeName(),
                                               builder.getStringAttr(reason)));
      }
    }
    updateGraphSignature(graph);
  }
  eraseDeadBodiesAndWeights();
  return success();
}

bool Folder::readNorm(CallModuleOp norm, NormParams &params,
                      std::string &reason) {
  std::optional<AtenCall> call =
      getPrincipalCall(norm, {"aten::batch_norm"}, symbols);
  ArrayAttr args = call ? call->args : ArrayAttr();
  if (!call || args.size() < 8 || !args[5].isa<BoolAttr>() ||
      !args[7].isa<FloatAttr>()) {
    reason = "its body is not one aten::batch_norm";
    return false;
  }
  DictionaryAttr config = norm.getConfigAttr();
  auto training = config ? config.getAs<BoolAttr>("training") : BoolAttr();
  if (args[5].cast<BoolAttr>().getValue() ||
      (training && training.getValue())) {
    norm.emitWarning() << "node '" << norm.getName()
                       << "': batch norm in training mode is not folded";
    reason = "training mode";
    return false;
  }
  FailureOr<WeightOp> gamma = weightArgument(*call, 1, symbols),
                      beta = weightArgument(*call, 2, symbols),
                      mean = weightArgument(*call, 3, symbols),
                      var = weightArgument(*call, 4, symbols);
  if (failed(gamma) || failed(beta) || failed(mean) || failed(var) || !*mean ||
      !*var) {
    reason = "no running statistics or parameters it can read";
    return false;
  }
  params = {*gamma, *beta, *mean, *var,
            args[7].cast<FloatAttr>().getValueAsDouble()};
  return true;
}

bool Folder::readLayer(CallModuleOp layer, LayerParams &params,
                       std::string &reason) {
  if (!layer.getBodyAttr() || bodyCalls[layer.getBodyAttr().getAttr()] != 1) {
    reason = "the layer's module body is missing or shared";
    return false;
  }
  std::optional<AtenCall> call = getPrincipalCall(
      layer,
      {"aten::_convolution", "aten::conv1d", "aten::conv2d", "aten::linear"},
      symbols);
  if (!call) {
    reason = "the layer's body is not one convolution or linear";
    return false;
  }
  ArrayAttr args = call->args;
  if (call->target == "aten::_convolution" &&
      (args.size() < 7 || !args[6].isa<BoolAttr>() ||
       args[6].cast<BoolAttr>().getValue())) {
    reason = "transposed convolution";
    return false;
  }
  FailureOr<WeightOp> weight = weightArgument(*call, 1, symbols),
                      bias = weightArgument(*call, 2, symbols);
  if (failed(weight) || failed(bias) || !*weight) {
    reason = "the layer's weight or bias is not a weight it can read";
    return false;
  }
  for (WeightOp shared : {*weight, *bias})
    if (shared && (getAttrUses[shared.getSymNameAttr()] != 1 ||
                   tiedWeights.contains(shared.getSymNameAttr()))) {
      reason = ("weight '" + shared.getSymName() + "' is shared").str();
      return false;
    }
  params = {call->call, *weight, *bias};
  return true;
}

LogicalResult Folder::checkF32(CallModuleOp norm, ArrayRef<WeightOp> weights) {
  for (WeightOp weight : weights) {
    if (!weight)
      continue;
    Type element = weight.getWeightType().getElementType();
    if (!element.isF32())
      return norm.emitError()
             << "node '" << norm.getName() << "': cannot fold: weight '"
             << weight.getSymName() << "' has element type " << element
             << "; only f32 weights are folded";
  }
  return success();
}

LogicalResult Folder::tryFold(CallModuleOp norm, std::string &reason) {
  NormParams bn;
  if (!readNorm(norm, bn, reason))
    return success();
  if (norm->getNumOperands() != 1 || norm->getNumResults() != 1) {
    reason = "it does not take and return one tensor";
    return success();
  }
  Value input = norm->getOperand(0);
  auto layer = input.getDefiningOp<CallModuleOp>();
  StringRef op = layer ? getMaseOp(layer) : StringRef();
  if (op != "conv1d" && op != "conv2d" && op != "linear") {
    reason = "its input is not a conv1d, conv2d or linear module";
    return success();
  }
  if (!input.hasOneUse() || layer->getNumResults() != 1) {
    reason = ("the result of '" + layer.getName() + "' has other users").str();
    return success();
  }
  if (input.getType() != norm->getResult(0).getType()) {
    reason = "its result type differs from its input's";
    return success();
  }
  LayerParams conv;
  if (!readLayer(layer, conv, reason))
    return success();
  if (failed(checkF32(
          norm, {conv.weight, conv.bias, bn.gamma, bn.beta, bn.mean, bn.var})))
    return failure();

  int64_t channels = conv.weight.getWeightType().getDimSize(0);
  auto read = [&](WeightOp weight,
                  float fill) -> FailureOr<std::vector<float>> {
    if (!weight)
      return std::vector<float>(channels, fill);
    std::optional<std::vector<float>> values =
        readF32Elements(weight.getValue());
    if (!values)
      return norm.emitError()
             << "node '" << norm.getName() << "': cannot fold: weight '"
             << weight.getSymName()
             << "' carries no data (elided, or an unsupported attribute)";
    return std::move(*values);
  };
  FailureOr<std::vector<float>> w = read(conv.weight, 0),
                                b = read(conv.bias, 0),
                                gamma = read(bn.gamma, 1),
                                beta = read(bn.beta, 0),
                                mean = read(bn.mean, 0), var = read(bn.var, 0);
  if (failed(w) || failed(b) || failed(gamma) || failed(beta) || failed(mean) ||
      failed(var))
    return failure();
  for (auto *vector : {&*b, &*gamma, &*beta, &*mean, &*var})
    if (static_cast<int64_t>(vector->size()) != channels) {
      reason = "its channel count differs from the layer's output channels";
      return success();
    }

  // Output channel c owns the c-th contiguous slice of the weight, for conv
  // (any groups) and linear alike.
  int64_t perChannel = channels ? w->size() / channels : 0;
  std::vector<float> bias(channels);
  for (int64_t c = 0; c < channels; ++c) {
    double scale = double((*gamma)[c]) / std::sqrt(double((*var)[c]) + bn.eps);
    for (int64_t i = 0; i < perChannel; ++i) {
      float &value = (*w)[c * perChannel + i];
      value = static_cast<float>(double(value) * scale);
    }
    bias[c] = static_cast<float>(
        (double((*b)[c]) - double((*mean)[c])) * scale + double((*beta)[c]));
  }
  conv.weight.setValueAttr(
      makeF32Resource(conv.weight.getWeightType().cast<RankedTensorType>(), *w,
                      conv.weight.getSymName()));
  if (conv.bias)
    conv.bias.setValueAttr(
        makeF32Resource(conv.bias.getWeightType().cast<RankedTensorType>(),
                        bias, conv.bias.getSymName()));
  else if (failed(addBias(layer, conv, bias)))
    return failure();

  for (WeightOp weight : {bn.gamma, bn.beta, bn.mean, bn.var})
    if (weight)
      normWeights.push_back(weight.getSymNameAttr());
  normWeights.push_back(
      StringAttr::get(context, norm.getTarget() + ".num_batches_tracked"));
  norm->getResult(0).replaceAllUsesWith(input);
  return success();
}

LogicalResult Folder::addBias(CallModuleOp layer, LayerParams &conv,
                              ArrayRef<float> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    Float32Type::get(context));
  FailureOr<ModuleWeight> bias = addModuleWeight<float>(
      layer, "bias", WeightKind::parameter, type, values, symbols);
  if (failed(bias))
    return failure();
  if (conv.weight.getFrozen())
    bias->weight.setFrozen(true);
  ArgumentEditor edit(conv.call);
  edit.set(2, bias->read.getResult());
  edit.apply();

  // The bias is no longer a constant of the configuration.
  if (DictionaryAttr config = layer.getConfigAttr()) {
    NamedAttrList entries(config);
    entries.erase("bias");
    layer.setConfigAttr(entries.getDictionary(context));
  }
  // Raised graphs: the layer now has a bias argument.
  if (CommonMetaAttr common = layer.getCommonMeta())
    if (ArrayAttr metaArgs = common.getArgs()) {
      bool hasBias = llvm::any_of(metaArgs, [](Attribute arg) {
        auto value = arg.dyn_cast<ValueMetaAttr>();
        return value && value.getName() == "bias";
      });
      auto weightMeta = llvm::find_if(metaArgs, [](Attribute arg) {
        auto value = arg.dyn_cast<ValueMetaAttr>();
        return value && value.getName() == "weight";
      });
      if (!hasBias && weightMeta != metaArgs.end()) {
        auto like = weightMeta->cast<ValueMetaAttr>();
        SmallVector<Attribute> updated(metaArgs.begin(), metaArgs.end());
        updated.push_back(ValueMetaAttr::get(
            context, "bias", DenseI64ArrayAttr::get(context, type.getShape()),
            like.getTorchDtype(), like.getType(), like.getPrecision(),
            DenseI64ArrayAttr(), Attribute()));
        setCommonMeta(
            layer, CommonMetaAttr::get(
                       context, common.getMaseType(), common.getMaseOp(),
                       ArrayAttr::get(context, updated), common.getResults()));
      }
    }
  return success();
}

/// Bodies no call refers to any more, then the folded batch norms' weights
/// nothing reads any more. One walk each: per-symbol use queries walk the
/// whole module.
void Folder::eraseDeadBodiesAndWeights() {
  if (normWeights.empty())
    return;
  mav::eraseUnusedBodies(module);

  llvm::DenseSet<StringAttr> read;
  module.walk([&](GetAttrOp getAttr) {
    read.insert(getAttr.getTargetAttr().getAttr());
  });
  SymbolTable &table = symbols.getSymbolTable(module);
  for (StringAttr name : normWeights)
    if (auto weight = table.lookup<WeightOp>(name))
      if (!read.contains(name) && !tiedWeights.contains(name))
        table.erase(weight);
}
