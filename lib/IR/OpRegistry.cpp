//===- OpRegistry.cpp - The single table of operators mav knows -----------===//
//
// Each entry of the table in getAllOps() lists, in this order: mase_op,
// mase_type, module classes, functionals, aten ops, Tensor methods, argument
// roles, FLOP formula, hardware component.
//
// Argument roles describe the positional arguments of the aten schema; when a
// functional takes more positional arguments (F.relu's `inplace`, F.softmax's
// `_stacklevel`), the list also covers them. F.batch_norm, F.instance_norm
// and F.embedding order their tensors differently from aten; the aten order
// wins.
//   - data_in: a tensor computed by the graph, including masks and indices;
//   - weight: a tensor that the module holds (parameter or buffer). Batch and
//     instance norm's running_mean and running_var are weights: like the
//     affine weight, they are stored with the module, fold into the scale,
//     and are quantized with it;
//   - bias: an additive parameter;
//   - config: anything that is not a tensor (sizes, flags, scalars, dtypes).
//
// FLOPs are those of one inference call. A multiply-accumulate counts two;
// every pointwise op (activations included) counts one per output element.
// Dropout is the identity at inference and has no formula. Pooling with a
// fixed kernel and fused attention need config values (kernel_size,
// num_heads) that shapes do not give, so their formulas return std::nullopt.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/OpRegistry.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>
#include <initializer_list>
#include <memory>

using namespace mav;
using llvm::ArrayRef;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Spellings
//===----------------------------------------------------------------------===//

StringRef mav::stringifyMaseType(MaseType type) {
  switch (type) {
  case MaseType::ModuleRelatedFunc:
    return "module_related_func";
  case MaseType::Module:
    return "module";
  case MaseType::BuiltinFunc:
    return "builtin_func";
  case MaseType::ImplicitFunc:
    return "implicit_func";
  case MaseType::Placeholder:
    return "placeholder";
  case MaseType::GetAttr:
    return "get_attr";
  case MaseType::Output:
    return "output";
  }
  llvm_unreachable("unknown MaseType");
}

std::optional<MaseType> mav::symbolizeMaseType(StringRef spelling) {
  return llvm::StringSwitch<std::optional<MaseType>>(spelling)
      .Case("module_related_func", MaseType::ModuleRelatedFunc)
      .Case("module", MaseType::Module)
      .Case("builtin_func", MaseType::BuiltinFunc)
      .Case("implicit_func", MaseType::ImplicitFunc)
      .Case("placeholder", MaseType::Placeholder)
      .Case("get_attr", MaseType::GetAttr)
      .Case("output", MaseType::Output)
      .Default(std::nullopt);
}

StringRef mav::stringifyArgRole(ArgRole role) {
  switch (role) {
  case ArgRole::DataIn:
    return "data_in";
  case ArgRole::Weight:
    return "weight";
  case ArgRole::Bias:
    return "bias";
  case ArgRole::Config:
    return "config";
  }
  llvm_unreachable("unknown ArgRole");
}

//===----------------------------------------------------------------------===//
// FLOP formulas
//===----------------------------------------------------------------------===//

using Shape = ArrayRef<int64_t>;
using Flops = std::optional<int64_t>;

static std::optional<Shape> argShape(const FlopInputs &inputs, size_t index) {
  if (index >= inputs.args.size())
    return std::nullopt;
  return inputs.args[index];
}

static std::optional<Shape> resultShape(const FlopInputs &inputs) {
  if (inputs.results.empty())
    return std::nullopt;
  return inputs.results.front();
}

static Flops multiply(Flops lhs, Flops rhs) {
  int64_t product;
  if (!lhs || !rhs || llvm::MulOverflow(*lhs, *rhs, product))
    return std::nullopt;
  return product;
}

/// Number of elements; std::nullopt for a dynamic (negative) extent.
static Flops numElements(std::optional<Shape> shape) {
  if (!shape)
    return std::nullopt;
  Flops count = 1;
  for (int64_t extent : *shape) {
    if (extent < 0)
      return std::nullopt;
    count = multiply(count, extent);
  }
  return count;
}

static Flops elementwiseFlops(const FlopInputs &inputs) {
  return numElements(resultShape(inputs));
}

static Flops reductionFlops(const FlopInputs &inputs) {
  return numElements(argShape(inputs, 0));
}

static Flops softmaxFlops(const FlopInputs &inputs) {
  return multiply(5, numElements(resultShape(inputs)));
}

/// Statistics, normalization, scale and shift.
static Flops normalizationFlops(const FlopInputs &inputs) {
  return multiply(5, numElements(resultShape(inputs)));
}

/// Running statistics fold into one scale and one shift per element.
static Flops batchNormFlops(const FlopInputs &inputs) {
  return multiply(2, numElements(resultShape(inputs)));
}

static Flops linearFlops(const FlopInputs &inputs) {
  std::optional<Shape> weight = argShape(inputs, 1);
  if (!weight || weight->empty())
    return std::nullopt;
  return multiply(multiply(2, numElements(resultShape(inputs))),
                  weight->back());
}

/// A matrix product whose left operand is argument `LhsIndex`; its last
/// extent is the contracted one.
template <size_t LhsIndex> static Flops matmulFlops(const FlopInputs &inputs) {
  std::optional<Shape> lhs = argShape(inputs, LhsIndex);
  if (!lhs || lhs->empty())
    return std::nullopt;
  return multiply(multiply(2, numElements(resultShape(inputs))), lhs->back());
}

/// Weight is (Cout, Cin / groups, kernel...): each output element costs
/// Cin / groups * prod(kernel) multiply-accumulates.
static Flops convFlops(const FlopInputs &inputs) {
  std::optional<Shape> weight = argShape(inputs, 1);
  if (!weight || weight->size() < 3)
    return std::nullopt;
  return multiply(multiply(2, numElements(resultShape(inputs))),
                  numElements(weight->drop_front()));
}

/// Weight is (Cin, Cout / groups, kernel...): each input element is scattered
/// to Cout / groups * prod(kernel) outputs.
static Flops convTransposeFlops(const FlopInputs &inputs) {
  std::optional<Shape> weight = argShape(inputs, 1);
  if (!weight || weight->size() < 3)
    return std::nullopt;
  return multiply(multiply(2, numElements(argShape(inputs, 0))),
                  numElements(weight->drop_front()));
}

/// aten::_convolution carries `transposed` as a flag, which shapes do not
/// show; the channel extents tell the two apart unless both readings fit and
/// disagree.
static Flops convolutionFlops(const FlopInputs &inputs) {
  std::optional<Shape> input = argShape(inputs, 0);
  std::optional<Shape> weight = argShape(inputs, 1);
  std::optional<Shape> result = resultShape(inputs);
  if (!input || !weight || !result || weight->size() < 3 ||
      input->size() != result->size() || input->size() > weight->size() ||
      input->size() + 1 < weight->size() || (*weight)[1] <= 0)
    return std::nullopt;
  size_t channel = input->size() - (weight->size() - 2) - 1;
  int64_t inChannels = (*input)[channel];
  int64_t outChannels = (*result)[channel];
  int64_t weightOuter = (*weight)[0];
  int64_t weightInner = (*weight)[1];
  bool direct = outChannels == weightOuter && inChannels % weightInner == 0;
  bool transposed = inChannels == weightOuter && outChannels % weightInner == 0;
  Flops directFlops = convFlops(inputs);
  Flops transposedFlops = convTransposeFlops(inputs);
  if (direct && transposed)
    return directFlops == transposedFlops ? directFlops : std::nullopt;
  if (direct)
    return directFlops;
  if (transposed)
    return transposedFlops;
  return std::nullopt;
}

/// Sum of the window sizes of adaptive pooling along one dimension; window i
/// spans [floor(i * in / out), ceil((i + 1) * in / out)).
static Flops adaptiveWindowSum(int64_t in, int64_t out) {
  if (in < 0 || out < 0)
    return std::nullopt;
  Flops sum = 0;
  for (int64_t i = 0; i < out; ++i) {
    Flops start = multiply(i, in);
    Flops end = multiply(i + 1, in);
    if (!start || !end)
      return std::nullopt;
    *sum += static_cast<int64_t>(llvm::divideCeil(*end, out)) - *start / out;
  }
  return sum;
}

/// Every output element reads its whole window.
template <size_t SpatialRank>
static Flops adaptivePoolFlops(const FlopInputs &inputs) {
  std::optional<Shape> input = argShape(inputs, 0);
  std::optional<Shape> result = resultShape(inputs);
  if (!input || !result || input->size() != result->size() ||
      input->size() < SpatialRank)
    return std::nullopt;
  Flops flops = numElements(result->drop_back(SpatialRank));
  for (size_t dim = input->size() - SpatialRank; dim < input->size(); ++dim)
    flops = multiply(flops, adaptiveWindowSum((*input)[dim], (*result)[dim]));
  return flops;
}

static Flops needsConfigFlops(const FlopInputs &) { return std::nullopt; }

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

static constexpr MaseType ModuleRelatedFunc = MaseType::ModuleRelatedFunc;
static constexpr MaseType Module = MaseType::Module;
static constexpr MaseType BuiltinFunc = MaseType::BuiltinFunc;
static constexpr MaseType ImplicitFunc = MaseType::ImplicitFunc;

static constexpr ArgRole DataIn = ArgRole::DataIn;
static constexpr ArgRole Weight = ArgRole::Weight;
static constexpr ArgRole Bias = ArgRole::Bias;
static constexpr ArgRole Config = ArgRole::Config;

/// Copies a braced list into storage that lives as long as the table. Never
/// freed, so that lookups stay valid while other statics are destroyed.
template <typename T>
static ArrayRef<T> persist(std::initializer_list<T> list) {
  static auto *storage = new llvm::BumpPtrAllocator();
  T *copy = storage->Allocate<T>(list.size());
  std::uninitialized_copy(list.begin(), list.end(), copy);
  return {copy, list.size()};
}

static ArrayRef<StringRef> names(std::initializer_list<StringRef> list) {
  return persist(list);
}

static ArrayRef<ArgRole> roles(std::initializer_list<ArgRole> list) {
  return persist(list);
}

ArrayRef<OpInfo> mav::getAllOps() {
  static const OpInfo table[] = {
      //===--- Linear and convolution ---===//
      {"linear",
       ModuleRelatedFunc,
       names({"torch.nn.modules.linear.Linear",
              "torch.nn.modules.linear.NonDynamicallyQuantizableLinear"}),
       names({"torch.nn.functional.linear"}),
       names({"aten::linear"}),
       {},
       roles({DataIn, Weight, Bias}),
       linearFlops,
       "fixed_linear"},
      {"conv1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.conv.Conv1d"}),
       names({"torch.nn.functional.conv1d", "torch.conv1d"}),
       names({"aten::conv1d"}),
       {},
       roles({DataIn, Weight, Bias, Config, Config, Config, Config}),
       convFlops,
       ""},
      {"conv2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.conv.Conv2d"}),
       names({"torch.nn.functional.conv2d", "torch.conv2d"}),
       names({"aten::conv2d"}),
       {},
       roles({DataIn, Weight, Bias, Config, Config, Config, Config}),
       convFlops,
       "fixed_conv2d"},
      {"conv3d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.conv.Conv3d"}),
       names({"torch.nn.functional.conv3d", "torch.conv3d"}),
       names({"aten::conv3d"}),
       {},
       roles({DataIn, Weight, Bias, Config, Config, Config, Config}),
       convFlops,
       ""},
      {"conv_transpose1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.conv.ConvTranspose1d"}),
       names(
           {"torch.nn.functional.conv_transpose1d", "torch.conv_transpose1d"}),
       names({"aten::conv_transpose1d"}),
       {},
       roles({DataIn, Weight, Bias, Config, Config, Config, Config, Config}),
       convTransposeFlops,
       ""},
      {"conv_transpose2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.conv.ConvTranspose2d"}),
       names(
           {"torch.nn.functional.conv_transpose2d", "torch.conv_transpose2d"}),
       names({"aten::conv_transpose2d"}),
       {},
       roles({DataIn, Weight, Bias, Config, Config, Config, Config, Config}),
       convTransposeFlops,
       ""},
      // What torch.jit.trace records for every Conv*d and ConvTranspose*d.
      {"convolution",
       ModuleRelatedFunc,
       {},
       names({"torch.convolution", "torch._convolution"}),
       names({"aten::convolution", "aten::_convolution"}),
       {},
       roles({DataIn, Weight, Bias, Config, Config, Config, Config, Config,
              Config, Config, Config, Config, Config}),
       convolutionFlops,
       ""},

      //===--- Normalization ---===//
      {"batch_norm1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.batchnorm.BatchNorm1d"}),
       {},
       {},
       {},
       roles({DataIn, Weight, Bias, Weight, Weight, Config, Config, Config,
              Config}),
       batchNormFlops,
       ""},
      // aten::batch_norm serves every rank; it is listed here, under the
      // name MASE gives the batch norm of CNNs.
      {"batch_norm2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.batchnorm.BatchNorm2d"}),
       names({"torch.nn.functional.batch_norm", "torch.batch_norm"}),
       names({"aten::batch_norm"}),
       {},
       roles({DataIn, Weight, Bias, Weight, Weight, Config, Config, Config,
              Config}),
       batchNormFlops,
       "fixed_batch_norm2d"},
      {"batch_norm3d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.batchnorm.BatchNorm3d"}),
       {},
       {},
       {},
       roles({DataIn, Weight, Bias, Weight, Weight, Config, Config, Config,
              Config}),
       batchNormFlops,
       ""},
      {"layer_norm",
       ModuleRelatedFunc,
       names({"torch.nn.modules.normalization.LayerNorm"}),
       names({"torch.nn.functional.layer_norm", "torch.layer_norm"}),
       names({"aten::layer_norm", "aten::native_layer_norm"}),
       {},
       roles({DataIn, Config, Weight, Bias, Config, Config}),
       normalizationFlops,
       "fixed_layer_norm"},
      {"group_norm",
       ModuleRelatedFunc,
       names({"torch.nn.modules.normalization.GroupNorm"}),
       names({"torch.nn.functional.group_norm", "torch.group_norm"}),
       names({"aten::group_norm"}),
       {},
       roles({DataIn, Config, Weight, Bias, Config, Config}),
       normalizationFlops,
       "fixed_group_norm"},
      {"instance_norm2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.instancenorm.InstanceNorm2d"}),
       names({"torch.nn.functional.instance_norm", "torch.instance_norm"}),
       names({"aten::instance_norm"}),
       {},
       roles({DataIn, Weight, Bias, Weight, Weight, Config, Config, Config,
              Config}),
       normalizationFlops,
       "fixed_instance_norm2d"},

      //===--- Activations ---===//
      {"relu", ModuleRelatedFunc, names({"torch.nn.modules.activation.ReLU"}),
       names({"torch.nn.functional.relu", "torch.nn.functional.relu_",
              "torch.relu", "torch.relu_"}),
       names({"aten::relu", "aten::relu_"}), names({"relu", "relu_"}),
       roles({DataIn, Config}), elementwiseFlops, "fixed_relu"},
      {"relu6",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.ReLU6"}),
       names({"torch.nn.functional.relu6"}),
       names({"aten::relu6", "aten::relu6_"}),
       {},
       roles({DataIn, Config}),
       elementwiseFlops,
       ""},
      // ReLU6 is a Hardtanh: traced, it records aten::hardtanh_.
      {"hardtanh",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Hardtanh"}),
       names({"torch.nn.functional.hardtanh", "torch.nn.functional.hardtanh_"}),
       names({"aten::hardtanh", "aten::hardtanh_"}),
       {},
       roles({DataIn, Config, Config, Config}),
       elementwiseFlops,
       ""},
      {"leaky_relu",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.LeakyReLU"}),
       names({"torch.nn.functional.leaky_relu",
              "torch.nn.functional.leaky_relu_"}),
       names({"aten::leaky_relu", "aten::leaky_relu_"}),
       {},
       roles({DataIn, Config, Config}),
       elementwiseFlops,
       ""},
      {"prelu", ModuleRelatedFunc, names({"torch.nn.modules.activation.PReLU"}),
       names({"torch.nn.functional.prelu", "torch.prelu"}),
       names({"aten::prelu"}), names({"prelu"}), roles({DataIn, Weight}),
       elementwiseFlops, ""},
      {"elu",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.ELU"}),
       names({"torch.nn.functional.elu", "torch.nn.functional.elu_"}),
       names({"aten::elu", "aten::elu_"}),
       {},
       roles({DataIn, Config, Config, Config}),
       elementwiseFlops,
       "fixed_elu"},
      {"selu",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.SELU"}),
       names({"torch.nn.functional.selu", "torch.nn.functional.selu_",
              "torch.selu", "torch.selu_"}),
       names({"aten::selu", "aten::selu_"}),
       {},
       roles({DataIn, Config}),
       elementwiseFlops,
       "fixed_selu"},
      {"gelu",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.GELU"}),
       names({"torch.nn.functional.gelu"}),
       names({"aten::gelu", "aten::gelu_"}),
       {},
       roles({DataIn, Config}),
       elementwiseFlops,
       "fixed_gelu"},
      {"silu",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.SiLU"}),
       names({"torch.nn.functional.silu"}),
       names({"aten::silu", "aten::silu_"}),
       {},
       roles({DataIn, Config}),
       elementwiseFlops,
       "fixed_silu"},
      {"sigmoid", ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Sigmoid"}),
       names(
           {"torch.nn.functional.sigmoid", "torch.sigmoid", "torch.sigmoid_"}),
       names({"aten::sigmoid", "aten::sigmoid_"}),
       names({"sigmoid", "sigmoid_"}), roles({DataIn}), elementwiseFlops,
       "fixed_sigmoid"},
      {"tanh", ModuleRelatedFunc, names({"torch.nn.modules.activation.Tanh"}),
       names({"torch.nn.functional.tanh", "torch.tanh", "torch.tanh_"}),
       names({"aten::tanh", "aten::tanh_"}), names({"tanh", "tanh_"}),
       roles({DataIn}), elementwiseFlops, "fixed_tanh"},
      {"hardswish",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Hardswish"}),
       names({"torch.nn.functional.hardswish"}),
       names({"aten::hardswish", "aten::hardswish_"}),
       {},
       roles({DataIn, Config}),
       elementwiseFlops,
       ""},
      {"hardsigmoid",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Hardsigmoid"}),
       names({"torch.nn.functional.hardsigmoid"}),
       names({"aten::hardsigmoid", "aten::hardsigmoid_"}),
       {},
       roles({DataIn, Config}),
       elementwiseFlops,
       ""},
      {"hardshrink", ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Hardshrink"}),
       names({"torch.nn.functional.hardshrink", "torch.hardshrink"}),
       names({"aten::hardshrink"}), names({"hardshrink"}),
       roles({DataIn, Config}), elementwiseFlops, "fixed_hardshrink"},
      {"softshrink",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Softshrink"}),
       names({"torch.nn.functional.softshrink"}),
       names({"aten::softshrink"}),
       {},
       roles({DataIn, Config}),
       elementwiseFlops,
       "fixed_softshrink"},
      {"logsigmoid",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.LogSigmoid"}),
       names({"torch.nn.functional.logsigmoid"}),
       names({"aten::log_sigmoid"}),
       {},
       roles({DataIn}),
       elementwiseFlops,
       "fixed_logsigmoid"},
      {"softplus",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Softplus"}),
       names({"torch.nn.functional.softplus"}),
       names({"aten::softplus"}),
       {},
       roles({DataIn, Config, Config}),
       elementwiseFlops,
       "fixed_softplus"},
      // F.softsign is written in Python; traced, it records abs, add and div.
      {"softsign",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Softsign"}),
       names({"torch.nn.functional.softsign"}),
       {},
       {},
       roles({DataIn}),
       elementwiseFlops,
       "fixed_softsign"},
      {"softmax", ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Softmax",
              "torch.nn.modules.activation.Softmax2d"}),
       names({"torch.nn.functional.softmax", "torch.softmax"}),
       names({"aten::softmax", "aten::_softmax"}), names({"softmax"}),
       roles({DataIn, Config, Config, Config}), softmaxFlops, "fixed_softmax"},
      {"log_softmax", ModuleRelatedFunc,
       names({"torch.nn.modules.activation.LogSoftmax"}),
       names({"torch.nn.functional.log_softmax", "torch.log_softmax"}),
       names({"aten::log_softmax", "aten::_log_softmax"}),
       names({"log_softmax"}), roles({DataIn, Config, Config, Config}),
       softmaxFlops, ""},

      //===--- Dropout and identity ---===//
      {"dropout",
       ModuleRelatedFunc,
       names({"torch.nn.modules.dropout.Dropout",
              "torch.nn.modules.dropout.Dropout1d",
              "torch.nn.modules.dropout.Dropout2d",
              "torch.nn.modules.dropout.Dropout3d",
              "torch.nn.modules.dropout.AlphaDropout",
              "torch.nn.modules.dropout.FeatureAlphaDropout"}),
       names({"torch.nn.functional.dropout", "torch.nn.functional.dropout1d",
              "torch.nn.functional.dropout2d", "torch.nn.functional.dropout3d",
              "torch.nn.functional.alpha_dropout",
              "torch.nn.functional.feature_alpha_dropout", "torch.dropout",
              "torch.feature_dropout", "torch.alpha_dropout",
              "torch.feature_alpha_dropout"}),
       names({"aten::dropout", "aten::dropout_", "aten::feature_dropout",
              "aten::feature_dropout_", "aten::alpha_dropout",
              "aten::alpha_dropout_", "aten::feature_alpha_dropout",
              "aten::feature_alpha_dropout_"}),
       {},
       roles({DataIn, Config, Config, Config}),
       nullptr,
       ""},
      {"identity",
       ModuleRelatedFunc,
       names({"torch.nn.modules.linear.Identity"}),
       {},
       {},
       {},
       roles({DataIn}),
       nullptr,
       ""},

      //===--- Pooling ---===//
      {"max_pool1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.MaxPool1d"}),
       names({"torch.nn.functional.max_pool1d", "torch.max_pool1d"}),
       names({"aten::max_pool1d", "aten::max_pool1d_with_indices"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config, Config}),
       needsConfigFlops,
       ""},
      {"max_pool2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.MaxPool2d"}),
       names({"torch.nn.functional.max_pool2d", "torch.max_pool2d"}),
       names({"aten::max_pool2d", "aten::max_pool2d_with_indices"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config, Config}),
       needsConfigFlops,
       ""},
      {"max_pool3d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.MaxPool3d"}),
       names({"torch.nn.functional.max_pool3d", "torch.max_pool3d"}),
       names({"aten::max_pool3d", "aten::max_pool3d_with_indices"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config, Config}),
       needsConfigFlops,
       ""},
      {"avg_pool1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AvgPool1d"}),
       names({"torch.nn.functional.avg_pool1d", "torch.avg_pool1d"}),
       names({"aten::avg_pool1d"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config}),
       needsConfigFlops,
       ""},
      {"avg_pool2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AvgPool2d"}),
       names({"torch.nn.functional.avg_pool2d"}),
       names({"aten::avg_pool2d"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config, Config}),
       needsConfigFlops,
       ""},
      {"avg_pool3d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AvgPool3d"}),
       names({"torch.nn.functional.avg_pool3d"}),
       names({"aten::avg_pool3d"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config, Config}),
       needsConfigFlops,
       ""},
      {"adaptive_avg_pool1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AdaptiveAvgPool1d"}),
       names({"torch.nn.functional.adaptive_avg_pool1d",
              "torch.adaptive_avg_pool1d"}),
       names({"aten::adaptive_avg_pool1d"}),
       {},
       roles({DataIn, Config}),
       adaptivePoolFlops<1>,
       ""},
      {"adaptive_avg_pool2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AdaptiveAvgPool2d"}),
       names({"torch.nn.functional.adaptive_avg_pool2d"}),
       names({"aten::adaptive_avg_pool2d", "aten::_adaptive_avg_pool2d"}),
       {},
       roles({DataIn, Config}),
       adaptivePoolFlops<2>,
       ""},
      {"adaptive_avg_pool3d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AdaptiveAvgPool3d"}),
       names({"torch.nn.functional.adaptive_avg_pool3d"}),
       names({"aten::adaptive_avg_pool3d", "aten::_adaptive_avg_pool3d"}),
       {},
       roles({DataIn, Config}),
       adaptivePoolFlops<3>,
       ""},
      {"adaptive_max_pool1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AdaptiveMaxPool1d"}),
       names({"torch.nn.functional.adaptive_max_pool1d",
              "torch.adaptive_max_pool1d"}),
       names({"aten::adaptive_max_pool1d"}),
       {},
       roles({DataIn, Config, Config}),
       adaptivePoolFlops<1>,
       ""},
      {"adaptive_max_pool2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AdaptiveMaxPool2d"}),
       names({"torch.nn.functional.adaptive_max_pool2d"}),
       names({"aten::adaptive_max_pool2d"}),
       {},
       roles({DataIn, Config, Config}),
       adaptivePoolFlops<2>,
       ""},

      //===--- Lookup tables ---===//
      {"embedding",
       ModuleRelatedFunc,
       names({"torch.nn.modules.sparse.Embedding"}),
       names({"torch.nn.functional.embedding", "torch.embedding"}),
       names({"aten::embedding"}),
       {},
       roles({Weight, DataIn, Config, Config, Config, Config, Config}),
       nullptr,
       ""},

      //===--- Modules without a functional twin ---===//
      // The fast path of MultiheadAttention in eval mode.
      {"multi_head_attention",
       Module,
       names({"torch.nn.modules.activation.MultiheadAttention"}),
       names({"torch._native_multi_head_attention"}),
       names({"aten::_native_multi_head_attention"}),
       {},
       roles({DataIn, DataIn, DataIn, Config, Config, Weight, Bias, Weight,
              Bias, DataIn, Config, Config, Config}),
       needsConfigFlops,
       ""},
      // The fast path of TransformerEncoderLayer in eval mode. The class is
      // composite and normally inlined; it is listed for --leaf-module.
      {"transformer_encoder_layer",
       Module,
       names({"torch.nn.modules.transformer.TransformerEncoderLayer"}),
       names({"torch._transformer_encoder_layer_fwd"}),
       names({"aten::_transformer_encoder_layer_fwd"}),
       {},
       roles({DataIn, Config, Config, Weight, Bias,   Weight, Bias,
              Config, Config, Config, Weight, Bias,   Weight, Bias,
              Weight, Bias,   Weight, Bias,   DataIn, Config}),
       needsConfigFlops,
       ""},

      //===--- Arithmetic ---===//
      {"add",
       BuiltinFunc,
       {},
       names({"torch.add", "operator.add", "operator.iadd"}),
       names({"aten::add", "aten::add_"}),
       names({"add", "add_", "__add__", "__iadd__", "__radd__"}),
       roles({DataIn, DataIn, Config}),
       elementwiseFlops,
       "fixed_adder"},
      // aten::rsub(a, b) is b - a; the roles are the same.
      {"sub",
       BuiltinFunc,
       {},
       names({"torch.sub", "torch.subtract", "torch.rsub", "operator.sub",
              "operator.isub"}),
       names({"aten::sub", "aten::sub_", "aten::subtract", "aten::subtract_",
              "aten::rsub"}),
       names({"sub", "sub_", "subtract", "subtract_", "__sub__", "__isub__",
              "__rsub__"}),
       roles({DataIn, DataIn, Config}),
       elementwiseFlops,
       ""},
      {"mul",
       BuiltinFunc,
       {},
       names({"torch.mul", "torch.multiply", "operator.mul", "operator.imul"}),
       names({"aten::mul", "aten::mul_", "aten::multiply", "aten::multiply_"}),
       names({"mul", "mul_", "multiply", "multiply_", "__mul__", "__imul__",
              "__rmul__"}),
       roles({DataIn, DataIn}),
       elementwiseFlops,
       "fixed_elementwise_multiplier"},
      {"div",
       BuiltinFunc,
       {},
       names({"torch.div", "torch.divide", "torch.true_divide",
              "operator.truediv", "operator.itruediv"}),
       names({"aten::div", "aten::div_", "aten::divide", "aten::divide_",
              "aten::true_divide", "aten::true_divide_"}),
       names({"div", "div_", "divide", "divide_", "true_divide", "true_divide_",
              "__truediv__", "__itruediv__", "__rtruediv__"}),
       roles({DataIn, DataIn, Config}),
       elementwiseFlops,
       ""},
      {"floor_divide",
       BuiltinFunc,
       {},
       names({"torch.floor_divide", "operator.floordiv", "operator.ifloordiv"}),
       names({"aten::floor_divide", "aten::floor_divide_"}),
       names({"floor_divide", "floor_divide_", "__floordiv__", "__ifloordiv__",
              "__rfloordiv__"}),
       roles({DataIn, DataIn}),
       elementwiseFlops,
       ""},
      {"remainder",
       BuiltinFunc,
       {},
       names({"torch.remainder", "operator.mod", "operator.imod"}),
       names({"aten::remainder", "aten::remainder_"}),
       names({"remainder", "remainder_", "__mod__", "__imod__", "__rmod__"}),
       roles({DataIn, DataIn}),
       elementwiseFlops,
       ""},
      {"pow",
       BuiltinFunc,
       {},
       names({"torch.pow", "operator.pow", "operator.ipow"}),
       names({"aten::pow", "aten::pow_"}),
       names({"pow", "pow_", "__pow__", "__ipow__", "__rpow__"}),
       roles({DataIn, DataIn}),
       elementwiseFlops,
       ""},
      {"neg",
       BuiltinFunc,
       {},
       names({"torch.neg", "torch.negative", "operator.neg"}),
       names({"aten::neg", "aten::neg_", "aten::negative", "aten::negative_"}),
       names({"neg", "neg_", "negative", "negative_", "__neg__"}),
       roles({DataIn}),
       elementwiseFlops,
       ""},
      {"abs",
       BuiltinFunc,
       {},
       names({"torch.abs", "operator.abs"}),
       names({"aten::abs", "aten::abs_"}),
       names({"abs", "abs_", "__abs__"}),
       roles({DataIn}),
       elementwiseFlops,
       ""},
      {"sqrt",
       BuiltinFunc,
       {},
       names({"torch.sqrt"}),
       names({"aten::sqrt", "aten::sqrt_"}),
       names({"sqrt", "sqrt_"}),
       roles({DataIn}),
       elementwiseFlops,
       ""},
      {"rsqrt",
       BuiltinFunc,
       {},
       names({"torch.rsqrt"}),
       names({"aten::rsqrt", "aten::rsqrt_"}),
       names({"rsqrt", "rsqrt_"}),
       roles({DataIn}),
       elementwiseFlops,
       ""},
      {"exp",
       BuiltinFunc,
       {},
       names({"torch.exp"}),
       names({"aten::exp", "aten::exp_"}),
       names({"exp", "exp_"}),
       roles({DataIn}),
       elementwiseFlops,
       ""},
      {"log",
       BuiltinFunc,
       {},
       names({"torch.log"}),
       names({"aten::log", "aten::log_"}),
       names({"log", "log_"}),
       roles({DataIn}),
       elementwiseFlops,
       ""},
      {"erf",
       BuiltinFunc,
       {},
       names({"torch.erf"}),
       names({"aten::erf", "aten::erf_"}),
       names({"erf", "erf_"}),
       roles({DataIn}),
       elementwiseFlops,
       ""},
      {"clamp",
       BuiltinFunc,
       {},
       names({"torch.clamp", "torch.clip"}),
       names({"aten::clamp", "aten::clamp_", "aten::clip", "aten::clip_"}),
       names({"clamp", "clamp_", "clip", "clip_"}),
       roles({DataIn, Config, Config}),
       elementwiseFlops,
       ""},
      {"matmul",
       BuiltinFunc,
       {},
       names({"torch.matmul", "operator.matmul"}),
       names({"aten::matmul"}),
       names({"matmul", "__matmul__", "__rmatmul__"}),
       roles({DataIn, DataIn}),
       matmulFlops<0>,
       ""},
      {"mm",
       BuiltinFunc,
       {},
       names({"torch.mm"}),
       names({"aten::mm"}),
       names({"mm"}),
       roles({DataIn, DataIn}),
       matmulFlops<0>,
       ""},
      {"bmm",
       BuiltinFunc,
       {},
       names({"torch.bmm"}),
       names({"aten::bmm"}),
       names({"bmm"}),
       roles({DataIn, DataIn}),
       matmulFlops<0>,
       ""},
      {"addmm",
       BuiltinFunc,
       {},
       names({"torch.addmm"}),
       names({"aten::addmm", "aten::addmm_"}),
       names({"addmm", "addmm_"}),
       roles({Bias, DataIn, DataIn, Config, Config}),
       matmulFlops<1>,
       ""},
      {"baddbmm",
       BuiltinFunc,
       {},
       names({"torch.baddbmm"}),
       names({"aten::baddbmm", "aten::baddbmm_"}),
       names({"baddbmm", "baddbmm_"}),
       roles({DataIn, DataIn, DataIn, Config, Config}),
       matmulFlops<1>,
       ""},
      {"mean",
       BuiltinFunc,
       {},
       names({"torch.mean"}),
       names({"aten::mean"}),
       names({"mean"}),
       roles({DataIn, Config, Config, Config}),
       reductionFlops,
       ""},
      {"sum",
       BuiltinFunc,
       {},
       names({"torch.sum"}),
       names({"aten::sum"}),
       names({"sum"}),
       roles({DataIn, Config, Config, Config}),
       reductionFlops,
       ""},
      {"cat",
       BuiltinFunc,
       {},
       names({"torch.cat", "torch.concat", "torch.concatenate"}),
       names({"aten::cat", "aten::concat"}),
       {},
       roles({DataIn, Config}),
       nullptr,
       ""},
      {"stack",
       BuiltinFunc,
       {},
       names({"torch.stack"}),
       names({"aten::stack"}),
       {},
       roles({DataIn, Config}),
       nullptr,
       ""},

      //===--- Comparisons ---===//
      {"eq",
       BuiltinFunc,
       {},
       names({"torch.eq", "operator.eq"}),
       names({"aten::eq", "aten::eq_"}),
       names({"eq", "eq_", "__eq__"}),
       roles({DataIn, DataIn}),
       elementwiseFlops,
       ""},
      {"ne",
       BuiltinFunc,
       {},
       names({"torch.ne", "operator.ne"}),
       names({"aten::ne", "aten::ne_"}),
       names({"ne", "ne_", "__ne__"}),
       roles({DataIn, DataIn}),
       elementwiseFlops,
       ""},
      {"lt",
       BuiltinFunc,
       {},
       names({"torch.lt", "operator.lt"}),
       names({"aten::lt", "aten::lt_"}),
       names({"lt", "lt_", "__lt__"}),
       roles({DataIn, DataIn}),
       elementwiseFlops,
       ""},
      {"le",
       BuiltinFunc,
       {},
       names({"torch.le", "operator.le"}),
       names({"aten::le", "aten::le_"}),
       names({"le", "le_", "__le__"}),
       roles({DataIn, DataIn}),
       elementwiseFlops,
       ""},
      {"gt",
       BuiltinFunc,
       {},
       names({"torch.gt", "operator.gt"}),
       names({"aten::gt", "aten::gt_"}),
       names({"gt", "gt_", "__gt__"}),
       roles({DataIn, DataIn}),
       elementwiseFlops,
       ""},
      {"ge",
       BuiltinFunc,
       {},
       names({"torch.ge", "operator.ge"}),
       names({"aten::ge", "aten::ge_"}),
       names({"ge", "ge_", "__ge__"}),
       roles({DataIn, DataIn}),
       elementwiseFlops,
       ""},

      //===--- Shapes and views ---===//
      {"size",
       ImplicitFunc,
       {},
       {},
       names({"aten::size"}),
       names({"size"}),
       roles({DataIn, Config}),
       nullptr,
       ""},
      {"numel",
       ImplicitFunc,
       {},
       names({"torch.numel"}),
       names({"aten::numel"}),
       names({"numel"}),
       roles({DataIn}),
       nullptr,
       ""},
      {"dim",
       ImplicitFunc,
       {},
       {},
       names({"aten::dim"}),
       names({"dim"}),
       roles({DataIn}),
       nullptr,
       ""},
      {"view",
       ImplicitFunc,
       {},
       {},
       names({"aten::view", "aten::_unsafe_view"}),
       names({"view"}),
       roles({DataIn, Config}),
       nullptr,
       ""},
      {"view_as",
       ImplicitFunc,
       {},
       {},
       names({"aten::view_as"}),
       names({"view_as"}),
       roles({DataIn, DataIn}),
       nullptr,
       ""},
      {"reshape",
       ImplicitFunc,
       {},
       names({"torch.reshape"}),
       names({"aten::reshape"}),
       names({"reshape"}),
       roles({DataIn, Config}),
       nullptr,
       ""},
      {"flatten", ImplicitFunc, names({"torch.nn.modules.flatten.Flatten"}),
       names({"torch.flatten"}), names({"aten::flatten"}), names({"flatten"}),
       roles({DataIn, Config, Config}), nullptr, ""},
      {"unflatten", ImplicitFunc, names({"torch.nn.modules.flatten.Unflatten"}),
       names({"torch.unflatten"}), names({"aten::unflatten"}),
       names({"unflatten"}), roles({DataIn, Config, Config}), nullptr, ""},
      {"permute",
       ImplicitFunc,
       {},
       names({"torch.permute"}),
       names({"aten::permute"}),
       names({"permute"}),
       roles({DataIn, Config}),
       nullptr,
       ""},
      {"transpose",
       ImplicitFunc,
       {},
       names({"torch.transpose", "torch.swapaxes", "torch.swapdims"}),
       names({"aten::transpose", "aten::transpose_", "aten::swapaxes",
              "aten::swapdims"}),
       names({"transpose", "transpose_", "swapaxes", "swapdims"}),
       roles({DataIn, Config, Config}),
       nullptr,
       ""},
      {"t",
       ImplicitFunc,
       {},
       names({"torch.t"}),
       names({"aten::t", "aten::t_"}),
       names({"t", "t_"}),
       roles({DataIn}),
       nullptr,
       ""},
      {"contiguous",
       ImplicitFunc,
       {},
       {},
       names({"aten::contiguous"}),
       names({"contiguous"}),
       roles({DataIn, Config}),
       nullptr,
       ""},
      {"expand",
       ImplicitFunc,
       {},
       {},
       names({"aten::expand"}),
       names({"expand"}),
       roles({DataIn, Config, Config}),
       nullptr,
       ""},
      {"expand_as",
       ImplicitFunc,
       {},
       {},
       names({"aten::expand_as"}),
       names({"expand_as"}),
       roles({DataIn, DataIn}),
       nullptr,
       ""},
      {"squeeze",
       ImplicitFunc,
       {},
       names({"torch.squeeze"}),
       names({"aten::squeeze", "aten::squeeze_"}),
       names({"squeeze", "squeeze_"}),
       roles({DataIn, Config}),
       nullptr,
       ""},
      {"unsqueeze",
       ImplicitFunc,
       {},
       names({"torch.unsqueeze"}),
       names({"aten::unsqueeze", "aten::unsqueeze_"}),
       names({"unsqueeze", "unsqueeze_"}),
       roles({DataIn, Config}),
       nullptr,
       ""},
      {"repeat",
       ImplicitFunc,
       {},
       {},
       names({"aten::repeat"}),
       names({"repeat"}),
       roles({DataIn, Config}),
       nullptr,
       ""},
      {"roll",
       ImplicitFunc,
       {},
       names({"torch.roll"}),
       names({"aten::roll"}),
       names({"roll"}),
       roles({DataIn, Config, Config}),
       nullptr,
       ""},
      {"pad",
       ImplicitFunc,
       {},
       names({"torch.nn.functional.pad"}),
       names({"aten::pad", "aten::constant_pad_nd"}),
       {},
       roles({DataIn, Config, Config, Config}),
       nullptr,
       ""},

      //===--- Indexing ---===//
      {"getitem",
       ImplicitFunc,
       {},
       names({"operator.getitem"}),
       names({"aten::__getitem__", "prim::ListUnpack", "prim::TupleUnpack",
              "prim::TupleIndex"}),
       names({"__getitem__"}),
       roles({DataIn, Config}),
       nullptr,
       ""},
      {"index",
       ImplicitFunc,
       {},
       {},
       names({"aten::index"}),
       {},
       roles({DataIn, DataIn}),
       nullptr,
       ""},
      // Data-dependent result sizes: on meta their varying dimensions are
      // dynamic (see docs/Passes.md).
      {"nonzero",
       ImplicitFunc,
       {},
       names({"torch.nonzero", "torch.argwhere"}),
       names({"aten::nonzero", "aten::argwhere"}),
       names({"nonzero", "argwhere"}),
       roles({DataIn}),
       nullptr,
       ""},
      {"masked_select",
       ImplicitFunc,
       {},
       names({"torch.masked_select"}),
       names({"aten::masked_select"}),
       names({"masked_select"}),
       roles({DataIn, DataIn}),
       nullptr,
       ""},
      {"index_select",
       ImplicitFunc,
       {},
       names({"torch.index_select"}),
       names({"aten::index_select"}),
       names({"index_select"}),
       roles({DataIn, Config, DataIn}),
       nullptr,
       ""},
      {"select",
       ImplicitFunc,
       {},
       names({"torch.select"}),
       names({"aten::select"}),
       names({"select"}),
       roles({DataIn, Config, Config}),
       nullptr,
       ""},
      {"slice",
       ImplicitFunc,
       {},
       {},
       names({"aten::slice"}),
       {},
       roles({DataIn, Config, Config, Config, Config}),
       nullptr,
       ""},
      {"narrow",
       ImplicitFunc,
       {},
       names({"torch.narrow"}),
       names({"aten::narrow"}),
       names({"narrow"}),
       roles({DataIn, Config, Config, Config}),
       nullptr,
       ""},
      {"chunk",
       ImplicitFunc,
       {},
       names({"torch.chunk"}),
       names({"aten::chunk"}),
       names({"chunk"}),
       roles({DataIn, Config, Config}),
       nullptr,
       ""},
      {"split",
       ImplicitFunc,
       {},
       names({"torch.split"}),
       names({"aten::split", "aten::split_with_sizes"}),
       names({"split"}),
       roles({DataIn, Config, Config}),
       nullptr,
       ""},
      {"unbind",
       ImplicitFunc,
       {},
       names({"torch.unbind"}),
       names({"aten::unbind"}),
       names({"unbind"}),
       roles({DataIn, Config}),
       nullptr,
       ""},
      {"masked_fill",
       ImplicitFunc,
       {},
       names({"torch.masked_fill"}),
       names({"aten::masked_fill", "aten::masked_fill_"}),
       names({"masked_fill", "masked_fill_"}),
       roles({DataIn, DataIn, Config}),
       nullptr,
       ""},
      {"where",
       ImplicitFunc,
       {},
       names({"torch.where"}),
       names({"aten::where"}),
       names({"where"}),
       roles({DataIn, DataIn, DataIn}),
       nullptr,
       ""},

      //===--- Copies, casts and scalars ---===//
      {"to",
       ImplicitFunc,
       {},
       {},
       names({"aten::to"}),
       names({"to", "float", "double", "half", "bfloat16", "int", "long",
              "short", "bool", "byte", "char"}),
       roles({DataIn, Config, Config, Config, Config, Config}),
       nullptr,
       ""},
      {"type_as",
       ImplicitFunc,
       {},
       {},
       names({"aten::type_as"}),
       names({"type_as"}),
       roles({DataIn, DataIn}),
       nullptr,
       ""},
      {"clone",
       ImplicitFunc,
       {},
       names({"torch.clone"}),
       names({"aten::clone"}),
       names({"clone"}),
       roles({DataIn, Config}),
       nullptr,
       ""},
      {"detach",
       ImplicitFunc,
       {},
       names({"torch.detach"}),
       names({"aten::detach", "aten::detach_"}),
       names({"detach", "detach_"}),
       roles({DataIn}),
       nullptr,
       ""},
      {"fill",
       ImplicitFunc,
       {},
       names({"torch.fill", "torch.fill_"}),
       names({"aten::fill", "aten::fill_"}),
       names({"fill_"}),
       roles({DataIn, Config}),
       nullptr,
       ""},
      // A tensor read back as a Python scalar, as traces record shape
      // arithmetic.
      {"item",
       ImplicitFunc,
       {},
       {},
       names({"aten::item", "aten::Int", "aten::IntImplicit", "aten::Float",
              "aten::FloatImplicit", "aten::Bool", "aten::ScalarImplicit"}),
       names({"item"}),
       roles({DataIn}),
       nullptr,
       ""},

      // mav's marker of where learnable parameters join the graph
      // (-mav-insert-learnable-nodes); it passes its operand through.
      {"learnable", ImplicitFunc, {}, {}, {}, {}, roles({DataIn}), nullptr, ""},

      // A module class that is not torch.nn's, kept whole as a leaf
      // (--leaf-module): MASE's user-defined module. Its body graph runs it,
      // and gives its shapes.
      {"user_defined_module",
       Module,
       {},
       {},
       {},
       {},
       roles({DataIn}),
       nullptr,
       ""},

      // A Python scalar wrapped as a tensor, as traces record shape
      // arithmetic.
      {"num_to_tensor",
       ImplicitFunc,
       {},
       {},
       names({"prim::NumToTensor"}),
       {},
       roles({Config}),
       nullptr,
       ""},

      //===--- Tensor creation ---===//
      {"zeros",
       ImplicitFunc,
       {},
       names({"torch.zeros"}),
       names({"aten::zeros"}),
       {},
       roles({Config, Config, Config, Config, Config}),
       nullptr,
       ""},
      {"ones",
       ImplicitFunc,
       {},
       names({"torch.ones"}),
       names({"aten::ones"}),
       {},
       roles({Config, Config, Config, Config, Config}),
       nullptr,
       ""},
      {"full",
       ImplicitFunc,
       {},
       names({"torch.full"}),
       names({"aten::full"}),
       {},
       roles({Config, Config, Config, Config, Config, Config}),
       nullptr,
       ""},
      {"zeros_like",
       ImplicitFunc,
       {},
       names({"torch.zeros_like"}),
       names({"aten::zeros_like"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config}),
       nullptr,
       ""},
      {"ones_like",
       ImplicitFunc,
       {},
       names({"torch.ones_like"}),
       names({"aten::ones_like"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config}),
       nullptr,
       ""},
      {"new_zeros",
       ImplicitFunc,
       {},
       {},
       names({"aten::new_zeros"}),
       names({"new_zeros"}),
       roles({DataIn, Config, Config, Config, Config, Config}),
       nullptr,
       ""},
      {"new_ones",
       ImplicitFunc,
       {},
       {},
       names({"aten::new_ones"}),
       names({"new_ones"}),
       roles({DataIn, Config, Config, Config, Config, Config}),
       nullptr,
       ""},
      {"new_full",
       ImplicitFunc,
       {},
       {},
       names({"aten::new_full"}),
       names({"new_full"}),
       roles({DataIn, Config, Config, Config, Config, Config, Config}),
       nullptr,
       ""},
      {"arange",
       ImplicitFunc,
       {},
       names({"torch.arange"}),
       names({"aten::arange"}),
       {},
       roles({Config, Config, Config, Config, Config, Config, Config, Config}),
       nullptr,
       ""},
  };
  return table;
}

//===----------------------------------------------------------------------===//
// Lookups
//===----------------------------------------------------------------------===//

namespace {
struct OpIndex {
  llvm::StringMap<const OpInfo *> maseOps;
  llvm::StringMap<const OpInfo *> moduleClasses;
  llvm::StringMap<const OpInfo *> functionals;
  llvm::StringMap<const OpInfo *> atenOps;
  llvm::StringMap<const OpInfo *> tensorMethods;

  OpIndex() {
    for (const OpInfo &op : getAllOps()) {
      add(maseOps, op.maseOp, op);
      for (StringRef target : op.moduleClasses)
        add(moduleClasses, target, op);
      for (StringRef target : op.functionals)
        add(functionals, target, op);
      for (StringRef target : op.atenOps)
        add(atenOps, target, op);
      for (StringRef target : op.tensorMethods)
        add(tensorMethods, target, op);
    }
  }

  static void add(llvm::StringMap<const OpInfo *> &map, StringRef key,
                  const OpInfo &op) {
    [[maybe_unused]] bool inserted = map.try_emplace(key, &op).second;
    assert(inserted && "a target is listed by two registry entries");
  }
};
} // namespace

static const OpIndex &getIndex() {
  static const OpIndex index;
  return index;
}

const OpInfo *mav::lookupMaseOp(StringRef maseOp) {
  return getIndex().maseOps.lookup(maseOp);
}

const OpInfo *mav::lookupModuleClass(StringRef qualifiedClass) {
  return getIndex().moduleClasses.lookup(qualifiedClass);
}

const OpInfo *mav::lookupFunctional(StringRef qualifiedName) {
  return getIndex().functionals.lookup(qualifiedName);
}

const OpInfo *mav::lookupAtenOp(StringRef atenName) {
  // The overload follows the first dot: "aten::add.Tensor".
  return getIndex().atenOps.lookup(atenName.split('.').first);
}

const OpInfo *mav::lookupTensorMethod(StringRef method) {
  return getIndex().tensorMethods.lookup(method);
}
