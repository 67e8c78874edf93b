//===- OpRegistry.cpp - The single table of operators mav knows -----------===//
//
// Each entry of the table in getAllOps() lists, in this order: mase_op,
// mase_type, module classes, functionals, aten ops, Tensor methods, argument
// roles, cost formula, hardware component. The components themselves (their
// parameters and files) are the small table getHardwareComponents(), since
// one component may serve several operators (avg_pool2d and
// adaptive_avg_pool2d).
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
// Costs are those of one inference call (docs/Visualization.md, "FLOPs"). A
// multiply-accumulate of a contraction counts one MAC and two FLOPs; every
// other arithmetic operation (activations, adds, compares) one FLOP per
// output element unless its formula says otherwise; biases are not counted,
// as torch.profiler does not count them. Dropout is the identity at
// inference and has no formula. Formulas that need constants (kernel sizes,
// head counts, an einsum equation) read them through CostConfig.
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

static std::optional<Shape> argShape(const CostInputs &inputs, size_t index) {
  if (index >= inputs.args.size())
    return std::nullopt;
  return inputs.args[index];
}

static std::optional<Shape> resultShape(const CostInputs &inputs) {
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

static std::optional<llvm::SmallVector<int64_t>>
configInts(const CostInputs &inputs, unsigned position, StringRef keyword,
           size_t count) {
  if (!inputs.config)
    return std::nullopt;
  return inputs.config->getInts(position, keyword, count);
}

/// The shape of tensor argument `position`, else of the call's argument or
/// the module's weight named `keyword`.
static std::optional<Shape> tensorArg(const CostInputs &inputs,
                                      unsigned position, StringRef keyword) {
  std::optional<Shape> shape = argShape(inputs, position);
  if (!shape && inputs.config)
    shape = inputs.config->getShape(position, keyword);
  return shape;
}

static Flops elementwiseFlops(const CostInputs &inputs) {
  return numElements(resultShape(inputs));
}

static Flops reductionFlops(const CostInputs &inputs) {
  return numElements(argShape(inputs, 0));
}

static Flops softmaxFlops(const CostInputs &inputs) {
  return multiply(5, numElements(resultShape(inputs)));
}

/// Statistics, normalization, scale and shift.
static Flops normalizationFlops(const CostInputs &inputs) {
  return multiply(5, numElements(resultShape(inputs)));
}

/// Running statistics fold into one scale and one shift per element.
static Flops batchNormFlops(const CostInputs &inputs) {
  return multiply(2, numElements(resultShape(inputs)));
}

static Flops linearFlops(const CostInputs &inputs) {
  std::optional<Shape> weight = argShape(inputs, 1);
  if (!weight || weight->empty())
    return std::nullopt;
  return multiply(multiply(2, numElements(resultShape(inputs))),
                  weight->back());
}

/// A matrix product whose left operand is argument `LhsIndex`; its last
/// extent is the contracted one.
template <size_t LhsIndex> static Flops matmulFlops(const CostInputs &inputs) {
  std::optional<Shape> lhs = argShape(inputs, LhsIndex);
  if (!lhs || lhs->empty())
    return std::nullopt;
  return multiply(multiply(2, numElements(resultShape(inputs))), lhs->back());
}

/// Weight is (Cout, Cin / groups, kernel...): each output element costs
/// Cin / groups * prod(kernel) multiply-accumulates.
static Flops convFlops(const CostInputs &inputs) {
  std::optional<Shape> weight = argShape(inputs, 1);
  if (!weight || weight->size() < 3)
    return std::nullopt;
  return multiply(multiply(2, numElements(resultShape(inputs))),
                  numElements(weight->drop_front()));
}

/// Weight is (Cin, Cout / groups, kernel...): each input element is scattered
/// to Cout / groups * prod(kernel) outputs.
static Flops convTransposeFlops(const CostInputs &inputs) {
  std::optional<Shape> weight = argShape(inputs, 1);
  if (!weight || weight->size() < 3)
    return std::nullopt;
  return multiply(multiply(2, numElements(argShape(inputs, 0))),
                  numElements(weight->drop_front()));
}

/// aten::_convolution carries `transposed` as a flag (argument 6); without
/// it, the channel extents tell the two apart unless both readings fit and
/// disagree.
static Flops convolutionFlops(const CostInputs &inputs) {
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
  if (auto flag = configInts(inputs, 6, "transposed", 1)) {
    direct = direct && !flag->front();
    transposed = transposed && flag->front();
  }
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
static Flops adaptivePoolFlops(const CostInputs &inputs) {
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

static Flops product(ArrayRef<int64_t> values) {
  Flops result = 1;
  for (int64_t value : values)
    result = value < 0 ? std::nullopt : multiply(result, value);
  return result;
}

/// Each output element reads its window once: max and average pooling,
/// kernel_size at argument `KernelArg`, `Rank` spatial dimensions.
template <unsigned KernelArg, size_t Rank>
static Flops windowFlops(const CostInputs &inputs) {
  auto kernel = configInts(inputs, KernelArg, "kernel_size", Rank);
  if (!kernel)
    return std::nullopt;
  return multiply(numElements(resultShape(inputs)), product(*kernel));
}

/// LP pooling raises each window element to the power p and accumulates it.
template <size_t Rank> static Flops lpPoolFlops(const CostInputs &inputs) {
  return multiply(2, windowFlops<2, Rank>(inputs));
}

/// Local response norm: squares and sums `size` neighbouring channels, then
/// scales, raises and divides once per element.
static Flops localResponseNormFlops(const CostInputs &inputs) {
  auto size = configInts(inputs, 1, "size", 1);
  if (!size || size->front() < 0)
    return std::nullopt;
  return multiply(numElements(resultShape(inputs)), 2 * size->front() + 3);
}

using Cost = std::optional<OpCost>;

/// Arithmetic mav does not count: the cost depends on data (sorting) or on
/// a mode the formula does not model (interpolation modes, fused layers).
static Cost uncountedCost(const CostInputs &) { return std::nullopt; }

static Cost macCost(Flops macs, Flops otherFlops = 0) {
  Flops flops = multiply(2, macs);
  if (!flops || !otherFlops || llvm::AddOverflow(*flops, *otherFlops, *flops))
    return std::nullopt;
  return OpCost{*flops, *macs};
}

/// Multi-head attention: query (L, E) or (B, L, E) ((L, B, E) when
/// batch_first is false), key and value of length S. The
/// projections and the two attention products are MACs; the softmax over
/// B * heads * L * S scores costs 5 FLOPs per score, as `softmax`.
static Cost attentionCost(const CostInputs &inputs) {
  std::optional<Shape> query = tensorArg(inputs, 0, "query");
  // A self-attention call traced with the query alone reads it as the key.
  std::optional<Shape> key = tensorArg(inputs, 1, "key");
  if (!key)
    key = query;
  auto heads = configInts(inputs, 4, "num_heads", 1);
  // The native op is batch-first and says embed_dim; a module must say
  // batch_first (a traced nn.MultiheadAttention keeps neither it nor
  // num_heads, and is not counted).
  auto batchFirst = configInts(inputs, ~0u, "batch_first", 1);
  if (!batchFirst && configInts(inputs, 3, "embed_dim", 1))
    batchFirst = llvm::SmallVector<int64_t>{1};
  if (!query || !key || !heads || !batchFirst || query->empty() ||
      query->size() != key->size() || query->size() > 3)
    return std::nullopt;
  int64_t embed = query->back();
  Flops queryRows = numElements(query);
  Flops keyRows = numElements(key);
  if (!queryRows || !keyRows || embed <= 0)
    return std::nullopt;
  *queryRows /= embed;
  *keyRows /= key->back() > 0 ? key->back() : 1;
  // Key length S: the dimension that is not the batch.
  bool keyBatchFirst = batchFirst->front();
  int64_t keyLength =
      key->size() == 2 ? (*key)[0] : (*key)[keyBatchFirst ? 1 : 0];
  Flops projections =
      multiply(multiply(*queryRows + 2 * *keyRows, embed), embed);
  Flops outProjection = multiply(multiply(*queryRows, embed), embed);
  Flops scores = multiply(*queryRows, keyLength);
  Flops products = multiply(multiply(2, scores), embed);
  if (!projections || !outProjection || !products)
    return std::nullopt;
  return macCost(*projections + *outProjection + *products,
                 multiply(multiply(5, scores), heads->front()));
}

/// A recurrent layer: every step multiplies the input by w_ih (Gates * H,
/// I_l) and the hidden state by w_hh (Gates * H, H) in each layer and
/// direction; I_0 is the input size, later layers read H * directions. The
/// gates' pointwise work is not counted. Input (T, B, I), (B, T, I), (T, I)
/// or packed (sum of the lengths, I).
template <int64_t Gates> static Cost recurrentCost(const CostInputs &inputs) {
  std::optional<Shape> input = argShape(inputs, 0);
  if (!input || input->empty() || input->back() <= 0)
    return std::nullopt;
  // The packed overload (aten::lstm.data) has the batch sizes, a tensor, as
  // argument 1, before the state; its flags come one place later.
  unsigned shift = argShape(inputs, 1) ? 1 : 0;
  auto layers = configInts(inputs, 4 + shift, "num_layers", 1);
  auto bidirectional = configInts(inputs, 7 + shift, "bidirectional", 1);
  // H: the config's, else from w_ih_l0 (Gates * H, I), the first matrix
  // after the input among the call's tensors (h0 may have no static shape).
  auto hidden = configInts(inputs, ~0u, "hidden_size", 1);
  for (size_t index = 1; !hidden && index < inputs.operands.size(); ++index) {
    const std::optional<Shape> &operand = inputs.operands[index];
    if (operand && operand->size() == 2 && (*operand)[0] % Gates == 0)
      hidden = llvm::SmallVector<int64_t>{(*operand)[0] / Gates};
  }
  if (!layers || !bidirectional || !hidden)
    return std::nullopt;
  int64_t directions = bidirectional->front() ? 2 : 1;
  int64_t h = hidden->front();
  Flops steps = numElements(input);
  if (!steps)
    return std::nullopt;
  *steps /= input->back();
  Flops perStep = 0;
  for (int64_t layer = 0; layer < layers->front() && perStep; ++layer) {
    int64_t layerInput = layer == 0 ? input->back() : h * directions;
    Flops weights =
        multiply(multiply(multiply(Gates, h), layerInput + h), directions);
    if (!weights || llvm::AddOverflow(*perStep, *weights, *perStep))
      return std::nullopt;
  }
  return macCost(multiply(*steps, perStep));
}

/// The loop an einsum describes: with two or more operands, one MAC per
/// combination of all its indices; with one, a sum over the indices it drops.
/// Ellipses are not counted.
static Cost einsumCost(const CostInputs &inputs) {
  std::optional<StringRef> equation =
      inputs.config ? inputs.config->getString(0, "equation") : std::nullopt;
  if (!equation || equation->contains("..."))
    return std::nullopt;
  auto [lhs, rhs] = equation->split("->");
  llvm::SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != inputs.operands.size())
    return std::nullopt;
  int64_t extents[128] = {};
  for (auto [term, shape] : llvm::zip(terms, inputs.operands)) {
    term = term.trim();
    if (!shape || term.size() != shape->size())
      return std::nullopt;
    for (auto [letter, extent] : llvm::zip(term, *shape))
      extents[static_cast<unsigned char>(letter) & 127] = extent;
  }
  Flops loop = 1;
  for (int64_t extent : extents)
    if (extent > 0)
      loop = multiply(loop, extent);
  if (!loop)
    return std::nullopt;
  if (terms.size() == 1)
    return OpCost{*loop, 0};
  return macCost(multiply(*loop, static_cast<int64_t>(terms.size()) - 1));
}

/// A formula counting only FLOPs (no contraction).
template <Flops (*Formula)(const CostInputs &)>
static Cost arithmetic(const CostInputs &inputs) {
  Flops flops = Formula(inputs);
  if (!flops)
    return std::nullopt;
  return OpCost{*flops, 0};
}

/// A formula counting multiply-accumulates at 2 FLOPs each.
template <Flops (*Formula)(const CostInputs &)>
static Cost contraction(const CostInputs &inputs) {
  Flops flops = Formula(inputs);
  if (!flops)
    return std::nullopt;
  return OpCost{*flops, *flops / 2};
}

/// A fixed number of operations per element of the first argument: a p-norm
/// (power, accumulate), a loss (difference or log, accumulate), a distance.
template <int64_t PerElement>
static Flops perInputElementFlops(const CostInputs &inputs) {
  return multiply(PerElement, numElements(argShape(inputs, 0)));
}

/// One operation per element of argument `Index` (scatter_add's source).
template <size_t Index> static Flops argElementFlops(const CostInputs &inputs) {
  return numElements(argShape(inputs, Index));
}

/// Weight is (Cout, Cin1, Cin2): each output element is x1^T W x2, about
/// Cin1 * Cin2 multiply-accumulates.
static Flops bilinearFlops(const CostInputs &inputs) {
  std::optional<Shape> weight = argShape(inputs, 2);
  if (!weight || weight->size() != 3)
    return std::nullopt;
  return multiply(multiply(2, numElements(resultShape(inputs))),
                  multiply((*weight)[1], (*weight)[2]));
}

/// Every index of a bag adds one embedding row (weight is (N, D)).
static Flops embeddingBagFlops(const CostInputs &inputs) {
  std::optional<Shape> weight = argShape(inputs, 0);
  if (!weight || weight->empty())
    return std::nullopt;
  return multiply(numElements(argShape(inputs, 1)), weight->back());
}

/// Each output element is a weighted sum of `Taps` inputs (2 per axis for
/// linear interpolation, 4 for cubic): Taps multiplies and Taps - 1 adds.
template <int64_t Taps>
static Flops interpolationFlops(const CostInputs &inputs) {
  return multiply(2 * Taps - 1, numElements(resultShape(inputs)));
}

/// An RNN cell: input (B, I) or (I), w_ih (G * H, I), w_hh (G * H, H); one
/// multiply-accumulate per weight element and batch row. The gates'
/// pointwise work is not counted.
static Flops rnnCellFlops(const CostInputs &inputs) {
  std::optional<Shape> input = argShape(inputs, 0);
  std::optional<Shape> inputWeight = tensorArg(inputs, 2, "weight_ih");
  std::optional<Shape> hiddenWeight = tensorArg(inputs, 3, "weight_hh");
  if (!input || input->empty() || !inputWeight || inputWeight->size() != 2 ||
      !hiddenWeight || (*inputWeight)[1] <= 0)
    return std::nullopt;
  Flops batch = numElements(input);
  if (!batch)
    return std::nullopt;
  Flops weights = numElements(inputWeight);
  Flops hidden = numElements(hiddenWeight);
  if (!weights || !hidden)
    return std::nullopt;
  return multiply(multiply(2, *batch / (*inputWeight)[1]), *weights + *hidden);
}

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

//===----------------------------------------------------------------------===//
// Hardware components
//===----------------------------------------------------------------------===//

ArrayRef<HardwareComponent> mav::getHardwareComponents() {
  // The stream parameters every operator component has.
  static const std::initializer_list<StringRef> stream = {
      "DATA_WIDTH", "FRAC_WIDTH", "PARALLELISM"};
  static const std::initializer_list<StringRef> pool = {
      "DATA_WIDTH", "FRAC_WIDTH", "PARALLELISM", "CHANNELS", "IN_HEIGHT",
      "IN_WIDTH",   "KERNEL_H",   "KERNEL_W",    "STRIDE"};
  static const HardwareComponent components[] = {
      {"fixed_round_sat", names({"IN_WIDTH", "SHIFT", "OUT_WIDTH"}),
       names({"fixed_round_sat.sv"})},
      {"fixed_skid_buffer", names(stream), names({"fixed_skid_buffer.sv"})},
      {"fixed_fifo",
       names({"DATA_WIDTH", "FRAC_WIDTH", "PARALLELISM", "DEPTH"}),
       names({"fixed_fifo.sv"})},
      {"fixed_fork",
       names({"DATA_WIDTH", "FRAC_WIDTH", "PARALLELISM", "OUTPUTS"}),
       names({"fixed_fork.sv"})},
      {"fixed_join2", names(stream),
       names({"fixed_skid_buffer.sv", "fixed_join2.sv"})},
      {"fixed_window_scan",
       names({"DATA_WIDTH", "FRAC_WIDTH", "PARALLELISM", "IN_CHANNELS",
              "OUT_CHANNELS", "WINDOW_CHANNELS", "IN_HEIGHT", "IN_WIDTH",
              "KERNEL_H", "KERNEL_W", "STRIDE", "PADDING"}),
       names({"fixed_window_scan.sv"})},
      {"fixed_relu", names(stream),
       names({"fixed_skid_buffer.sv", "fixed_relu.sv"})},
      {"fixed_flatten", names(stream),
       names({"fixed_skid_buffer.sv", "fixed_flatten.sv"})},
      {"fixed_cast",
       names({"IN_WIDTH", "IN_FRAC_WIDTH", "OUT_WIDTH", "OUT_FRAC_WIDTH",
              "PARALLELISM"}),
       names({"fixed_round_sat.sv", "fixed_skid_buffer.sv", "fixed_cast.sv"})},
      {"fixed_add", names(stream),
       names({"fixed_round_sat.sv", "fixed_skid_buffer.sv", "fixed_join2.sv",
              "fixed_add.sv"})},
      {"fixed_mul", names(stream),
       names({"fixed_round_sat.sv", "fixed_skid_buffer.sv", "fixed_join2.sv",
              "fixed_mul.sv"})},
      {"fixed_linear",
       names({"DATA_WIDTH", "FRAC_WIDTH", "IN_FEATURES", "OUT_FEATURES",
              "PARALLELISM", "WEIGHTS_FILE", "BIAS_FILE"}),
       names({"fixed_round_sat.sv", "fixed_linear.sv"})},
      {"fixed_conv2d",
       names({"DATA_WIDTH", "FRAC_WIDTH", "PARALLELISM", "IN_CHANNELS",
              "OUT_CHANNELS", "IN_HEIGHT", "IN_WIDTH", "KERNEL_H", "KERNEL_W",
              "STRIDE", "PADDING", "WEIGHTS_FILE", "BIAS_FILE"}),
       names(
           {"fixed_round_sat.sv", "fixed_window_scan.sv", "fixed_conv2d.sv"})},
      {"fixed_maxpool2d", names(pool),
       names({"fixed_window_scan.sv", "fixed_maxpool2d.sv"})},
      {"fixed_avgpool2d",
       names({"DATA_WIDTH", "FRAC_WIDTH", "PARALLELISM", "CHANNELS",
              "IN_HEIGHT", "IN_WIDTH", "KERNEL_H", "KERNEL_W", "STRIDE",
              "RECIP_FRAC"}),
       names({"fixed_round_sat.sv", "fixed_window_scan.sv",
              "fixed_avgpool2d.sv"})},
  };
  return components;
}

const HardwareComponent *mav::lookupHardwareComponent(StringRef module) {
  for (const HardwareComponent &component : getHardwareComponents())
    if (component.module == module)
      return &component;
  return nullptr;
}

/// The component named `module`, which must exist.
static const HardwareComponent *component(StringRef module) {
  const HardwareComponent *found = lookupHardwareComponent(module);
  assert(found && "no such hardware component");
  return found;
}

ArrayRef<OpInfo> mav::getAllOps() {
  const HardwareComponent *fixedLinear = component("fixed_linear");
  const HardwareComponent *fixedConv2d = component("fixed_conv2d");
  const HardwareComponent *fixedRelu = component("fixed_relu");
  const HardwareComponent *fixedAdd = component("fixed_add");
  const HardwareComponent *fixedMul = component("fixed_mul");
  const HardwareComponent *fixedFlatten = component("fixed_flatten");
  const HardwareComponent *fixedMaxPool2d = component("fixed_maxpool2d");
  const HardwareComponent *fixedAvgPool2d = component("fixed_avgpool2d");
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
       contraction<linearFlops>,
       fixedLinear},
      {"conv1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.conv.Conv1d"}),
       names({"torch.nn.functional.conv1d", "torch.conv1d"}),
       names({"aten::conv1d"}),
       {},
       roles({DataIn, Weight, Bias, Config, Config, Config, Config}),
       contraction<convFlops>,
       nullptr},
      {"conv2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.conv.Conv2d"}),
       names({"torch.nn.functional.conv2d", "torch.conv2d"}),
       names({"aten::conv2d"}),
       {},
       roles({DataIn, Weight, Bias, Config, Config, Config, Config}),
       contraction<convFlops>,
       fixedConv2d},
      {"conv3d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.conv.Conv3d"}),
       names({"torch.nn.functional.conv3d", "torch.conv3d"}),
       names({"aten::conv3d"}),
       {},
       roles({DataIn, Weight, Bias, Config, Config, Config, Config}),
       contraction<convFlops>,
       nullptr},
      {"conv_transpose1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.conv.ConvTranspose1d"}),
       names(
           {"torch.nn.functional.conv_transpose1d", "torch.conv_transpose1d"}),
       names({"aten::conv_transpose1d"}),
       {},
       roles({DataIn, Weight, Bias, Config, Config, Config, Config, Config}),
       contraction<convTransposeFlops>,
       nullptr},
      {"conv_transpose2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.conv.ConvTranspose2d"}),
       names(
           {"torch.nn.functional.conv_transpose2d", "torch.conv_transpose2d"}),
       names({"aten::conv_transpose2d"}),
       {},
       roles({DataIn, Weight, Bias, Config, Config, Config, Config, Config}),
       contraction<convTransposeFlops>,
       nullptr},
      {"conv_transpose3d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.conv.ConvTranspose3d"}),
       names(
           {"torch.nn.functional.conv_transpose3d", "torch.conv_transpose3d"}),
       names({"aten::conv_transpose3d"}),
       {},
       roles({DataIn, Weight, Bias, Config, Config, Config, Config, Config}),
       contraction<convTransposeFlops>,
       nullptr},
      // What torch.jit.trace records for every Conv*d and ConvTranspose*d.
      {"convolution",
       ModuleRelatedFunc,
       {},
       names({"torch.convolution", "torch._convolution"}),
       names({"aten::convolution", "aten::_convolution"}),
       {},
       roles({DataIn, Weight, Bias, Config, Config, Config, Config, Config,
              Config, Config, Config, Config, Config}),
       contraction<convolutionFlops>,
       nullptr},

      //===--- Normalization ---===//
      {"batch_norm1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.batchnorm.BatchNorm1d"}),
       {},
       {},
       {},
       roles({DataIn, Weight, Bias, Weight, Weight, Config, Config, Config,
              Config}),
       arithmetic<batchNormFlops>,
       nullptr},
      // aten::batch_norm serves every rank; it is listed here, under the
      // name MASE gives the batch norm of CNNs.
      {"batch_norm2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.batchnorm.BatchNorm2d",
              "torch.nn.modules.batchnorm.SyncBatchNorm"}),
       names({"torch.nn.functional.batch_norm", "torch.batch_norm"}),
       names({"aten::batch_norm"}),
       {},
       roles({DataIn, Weight, Bias, Weight, Weight, Config, Config, Config,
              Config}),
       arithmetic<batchNormFlops>,
       nullptr},
      {"batch_norm3d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.batchnorm.BatchNorm3d"}),
       {},
       {},
       {},
       roles({DataIn, Weight, Bias, Weight, Weight, Config, Config, Config,
              Config}),
       arithmetic<batchNormFlops>,
       nullptr},
      {"layer_norm",
       ModuleRelatedFunc,
       names({"torch.nn.modules.normalization.LayerNorm"}),
       names({"torch.nn.functional.layer_norm", "torch.layer_norm"}),
       names({"aten::layer_norm", "aten::native_layer_norm"}),
       {},
       roles({DataIn, Config, Weight, Bias, Config, Config}),
       arithmetic<normalizationFlops>,
       nullptr},
      {"group_norm",
       ModuleRelatedFunc,
       names({"torch.nn.modules.normalization.GroupNorm"}),
       names({"torch.nn.functional.group_norm", "torch.group_norm"}),
       names({"aten::group_norm"}),
       {},
       roles({DataIn, Config, Weight, Bias, Config, Config}),
       arithmetic<normalizationFlops>,
       nullptr},
      {"instance_norm2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.instancenorm.InstanceNorm2d"}),
       names({"torch.nn.functional.instance_norm", "torch.instance_norm"}),
       names({"aten::instance_norm"}),
       {},
       roles({DataIn, Weight, Bias, Weight, Weight, Config, Config, Config,
              Config}),
       arithmetic<normalizationFlops>,
       nullptr},

      // aten::instance_norm serves every rank; it is listed under
      // instance_norm2d.
      {"instance_norm1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.instancenorm.InstanceNorm1d"}),
       {},
       {},
       {},
       roles({DataIn, Weight, Bias, Weight, Weight, Config, Config, Config,
              Config}),
       arithmetic<normalizationFlops>,
       nullptr},
      {"instance_norm3d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.instancenorm.InstanceNorm3d"}),
       {},
       {},
       {},
       roles({DataIn, Weight, Bias, Weight, Weight, Config, Config, Config,
              Config}),
       arithmetic<normalizationFlops>,
       nullptr},

      //===--- Activations ---===//
      {"relu", ModuleRelatedFunc, names({"torch.nn.modules.activation.ReLU"}),
       names({"torch.nn.functional.relu", "torch.nn.functional.relu_",
              "torch.relu", "torch.relu_"}),
       names({"aten::relu", "aten::relu_"}), names({"relu", "relu_"}),
       roles({DataIn, Config}), arithmetic<elementwiseFlops>, fixedRelu},
      {"relu6",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.ReLU6"}),
       names({"torch.nn.functional.relu6"}),
       names({"aten::relu6", "aten::relu6_"}),
       {},
       roles({DataIn, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      // ReLU6 is a Hardtanh: traced, it records aten::hardtanh_.
      {"hardtanh",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Hardtanh"}),
       names({"torch.nn.functional.hardtanh", "torch.nn.functional.hardtanh_"}),
       names({"aten::hardtanh", "aten::hardtanh_"}),
       {},
       roles({DataIn, Config, Config, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"leaky_relu",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.LeakyReLU"}),
       names({"torch.nn.functional.leaky_relu",
              "torch.nn.functional.leaky_relu_"}),
       names({"aten::leaky_relu", "aten::leaky_relu_"}),
       {},
       roles({DataIn, Config, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"prelu", ModuleRelatedFunc, names({"torch.nn.modules.activation.PReLU"}),
       names({"torch.nn.functional.prelu", "torch.prelu"}),
       names({"aten::prelu"}), names({"prelu"}), roles({DataIn, Weight}),
       arithmetic<elementwiseFlops>, nullptr},
      {"elu",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.ELU"}),
       names({"torch.nn.functional.elu", "torch.nn.functional.elu_"}),
       names({"aten::elu", "aten::elu_"}),
       {},
       roles({DataIn, Config, Config, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"selu",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.SELU"}),
       names({"torch.nn.functional.selu", "torch.nn.functional.selu_",
              "torch.selu", "torch.selu_"}),
       names({"aten::selu", "aten::selu_"}),
       {},
       roles({DataIn, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"gelu",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.GELU"}),
       names({"torch.nn.functional.gelu"}),
       names({"aten::gelu", "aten::gelu_"}),
       {},
       roles({DataIn, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"silu",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.SiLU"}),
       names({"torch.nn.functional.silu"}),
       names({"aten::silu", "aten::silu_"}),
       {},
       roles({DataIn, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"sigmoid", ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Sigmoid"}),
       names(
           {"torch.nn.functional.sigmoid", "torch.sigmoid", "torch.sigmoid_"}),
       names({"aten::sigmoid", "aten::sigmoid_"}),
       names({"sigmoid", "sigmoid_"}), roles({DataIn}),
       arithmetic<elementwiseFlops>, nullptr},
      {"tanh", ModuleRelatedFunc, names({"torch.nn.modules.activation.Tanh"}),
       names({"torch.nn.functional.tanh", "torch.tanh", "torch.tanh_"}),
       names({"aten::tanh", "aten::tanh_"}), names({"tanh", "tanh_"}),
       roles({DataIn}), arithmetic<elementwiseFlops>, nullptr},
      {"hardswish",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Hardswish"}),
       names({"torch.nn.functional.hardswish"}),
       names({"aten::hardswish", "aten::hardswish_"}),
       {},
       roles({DataIn, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"hardsigmoid",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Hardsigmoid"}),
       names({"torch.nn.functional.hardsigmoid"}),
       names({"aten::hardsigmoid", "aten::hardsigmoid_"}),
       {},
       roles({DataIn, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"hardshrink", ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Hardshrink"}),
       names({"torch.nn.functional.hardshrink", "torch.hardshrink"}),
       names({"aten::hardshrink"}), names({"hardshrink"}),
       roles({DataIn, Config}), arithmetic<elementwiseFlops>, nullptr},
      {"softshrink",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Softshrink"}),
       names({"torch.nn.functional.softshrink"}),
       names({"aten::softshrink"}),
       {},
       roles({DataIn, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"logsigmoid",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.LogSigmoid"}),
       names({"torch.nn.functional.logsigmoid"}),
       names({"aten::log_sigmoid"}),
       {},
       roles({DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"softplus",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Softplus"}),
       names({"torch.nn.functional.softplus"}),
       names({"aten::softplus"}),
       {},
       roles({DataIn, Config, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      // F.softsign is written in Python; traced, it records abs, add and div.
      {"softsign",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Softsign"}),
       names({"torch.nn.functional.softsign"}),
       {},
       {},
       roles({DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"softmax", ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Softmax",
              "torch.nn.modules.activation.Softmax2d"}),
       names({"torch.nn.functional.softmax", "torch.softmax"}),
       names({"aten::softmax", "aten::_softmax"}), names({"softmax"}),
       roles({DataIn, Config, Config, Config}), arithmetic<softmaxFlops>,
       nullptr},
      {"log_softmax", ModuleRelatedFunc,
       names({"torch.nn.modules.activation.LogSoftmax"}),
       names({"torch.nn.functional.log_softmax", "torch.log_softmax"}),
       names({"aten::log_softmax", "aten::_log_softmax"}),
       names({"log_softmax"}), roles({DataIn, Config, Config, Config}),
       arithmetic<softmaxFlops>, nullptr},

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
       nullptr},
      {"identity",
       ModuleRelatedFunc,
       names({"torch.nn.modules.linear.Identity"}),
       {},
       {},
       {},
       roles({DataIn}),
       nullptr,
       nullptr},

      //===--- Pooling ---===//
      {"max_pool1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.MaxPool1d"}),
       names({"torch.nn.functional.max_pool1d", "torch.max_pool1d"}),
       names({"aten::max_pool1d", "aten::max_pool1d_with_indices"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config, Config}),
       arithmetic<windowFlops<1, 1>>,
       nullptr},
      {"max_pool2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.MaxPool2d"}),
       names({"torch.nn.functional.max_pool2d", "torch.max_pool2d"}),
       names({"aten::max_pool2d", "aten::max_pool2d_with_indices"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config, Config}),
       arithmetic<windowFlops<1, 2>>,
       fixedMaxPool2d},
      {"max_pool3d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.MaxPool3d"}),
       names({"torch.nn.functional.max_pool3d", "torch.max_pool3d"}),
       names({"aten::max_pool3d", "aten::max_pool3d_with_indices"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config, Config}),
       arithmetic<windowFlops<1, 3>>,
       nullptr},
      {"avg_pool1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AvgPool1d"}),
       names({"torch.nn.functional.avg_pool1d", "torch.avg_pool1d"}),
       names({"aten::avg_pool1d"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config}),
       arithmetic<windowFlops<1, 1>>,
       nullptr},
      {"avg_pool2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AvgPool2d"}),
       names({"torch.nn.functional.avg_pool2d"}),
       names({"aten::avg_pool2d"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config, Config}),
       arithmetic<windowFlops<1, 2>>,
       fixedAvgPool2d},
      {"avg_pool3d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AvgPool3d"}),
       names({"torch.nn.functional.avg_pool3d"}),
       names({"aten::avg_pool3d"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config, Config}),
       arithmetic<windowFlops<1, 3>>,
       nullptr},
      {"adaptive_avg_pool1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AdaptiveAvgPool1d"}),
       names({"torch.nn.functional.adaptive_avg_pool1d",
              "torch.adaptive_avg_pool1d"}),
       names({"aten::adaptive_avg_pool1d"}),
       {},
       roles({DataIn, Config}),
       arithmetic<adaptivePoolFlops<1>>,
       nullptr},
      {"adaptive_avg_pool2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AdaptiveAvgPool2d"}),
       names({"torch.nn.functional.adaptive_avg_pool2d"}),
       names({"aten::adaptive_avg_pool2d", "aten::_adaptive_avg_pool2d"}),
       {},
       roles({DataIn, Config}),
       arithmetic<adaptivePoolFlops<2>>,
       fixedAvgPool2d},
      {"adaptive_avg_pool3d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AdaptiveAvgPool3d"}),
       names({"torch.nn.functional.adaptive_avg_pool3d"}),
       names({"aten::adaptive_avg_pool3d", "aten::_adaptive_avg_pool3d"}),
       {},
       roles({DataIn, Config}),
       arithmetic<adaptivePoolFlops<3>>,
       nullptr},
      {"adaptive_max_pool1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AdaptiveMaxPool1d"}),
       names({"torch.nn.functional.adaptive_max_pool1d",
              "torch.adaptive_max_pool1d"}),
       names({"aten::adaptive_max_pool1d"}),
       {},
       roles({DataIn, Config, Config}),
       arithmetic<adaptivePoolFlops<1>>,
       nullptr},
      {"adaptive_max_pool2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AdaptiveMaxPool2d"}),
       names({"torch.nn.functional.adaptive_max_pool2d"}),
       names({"aten::adaptive_max_pool2d"}),
       {},
       roles({DataIn, Config, Config}),
       arithmetic<adaptivePoolFlops<2>>,
       nullptr},

      //===--- Lookup tables ---===//
      {"embedding",
       ModuleRelatedFunc,
       names({"torch.nn.modules.sparse.Embedding"}),
       names({"torch.nn.functional.embedding", "torch.embedding"}),
       names({"aten::embedding"}),
       {},
       roles({Weight, DataIn, Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},

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
       attentionCost,
       nullptr},
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
       uncountedCost,
       nullptr},

      //===--- Arithmetic ---===//
      {"add",
       BuiltinFunc,
       {},
       names({"torch.add", "operator.add", "operator.iadd"}),
       names({"aten::add", "aten::add_"}),
       names({"add", "add_", "__add__", "__iadd__", "__radd__"}),
       roles({DataIn, DataIn, Config}),
       arithmetic<elementwiseFlops>,
       fixedAdd},
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
       arithmetic<elementwiseFlops>,
       nullptr},
      {"mul",
       BuiltinFunc,
       {},
       names({"torch.mul", "torch.multiply", "operator.mul", "operator.imul"}),
       names({"aten::mul", "aten::mul_", "aten::multiply", "aten::multiply_"}),
       names({"mul", "mul_", "multiply", "multiply_", "__mul__", "__imul__",
              "__rmul__"}),
       roles({DataIn, DataIn}),
       arithmetic<elementwiseFlops>,
       fixedMul},
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
       arithmetic<elementwiseFlops>,
       nullptr},
      {"floor_divide",
       BuiltinFunc,
       {},
       names({"torch.floor_divide", "operator.floordiv", "operator.ifloordiv"}),
       names({"aten::floor_divide", "aten::floor_divide_"}),
       names({"floor_divide", "floor_divide_", "__floordiv__", "__ifloordiv__",
              "__rfloordiv__"}),
       roles({DataIn, DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"remainder",
       BuiltinFunc,
       {},
       names({"torch.remainder", "operator.mod", "operator.imod"}),
       names({"aten::remainder", "aten::remainder_"}),
       names({"remainder", "remainder_", "__mod__", "__imod__", "__rmod__"}),
       roles({DataIn, DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"pow",
       BuiltinFunc,
       {},
       names({"torch.pow", "operator.pow", "operator.ipow"}),
       names({"aten::pow", "aten::pow_"}),
       names({"pow", "pow_", "__pow__", "__ipow__", "__rpow__"}),
       roles({DataIn, DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"neg",
       BuiltinFunc,
       {},
       names({"torch.neg", "torch.negative", "operator.neg"}),
       names({"aten::neg", "aten::neg_", "aten::negative", "aten::negative_"}),
       names({"neg", "neg_", "negative", "negative_", "__neg__"}),
       roles({DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"abs",
       BuiltinFunc,
       {},
       names({"torch.abs", "operator.abs"}),
       names({"aten::abs", "aten::abs_"}),
       names({"abs", "abs_", "__abs__"}),
       roles({DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"sqrt",
       BuiltinFunc,
       {},
       names({"torch.sqrt"}),
       names({"aten::sqrt", "aten::sqrt_"}),
       names({"sqrt", "sqrt_"}),
       roles({DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"rsqrt",
       BuiltinFunc,
       {},
       names({"torch.rsqrt"}),
       names({"aten::rsqrt", "aten::rsqrt_"}),
       names({"rsqrt", "rsqrt_"}),
       roles({DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"exp",
       BuiltinFunc,
       {},
       names({"torch.exp"}),
       names({"aten::exp", "aten::exp_"}),
       names({"exp", "exp_"}),
       roles({DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"log",
       BuiltinFunc,
       {},
       names({"torch.log"}),
       names({"aten::log", "aten::log_"}),
       names({"log", "log_"}),
       roles({DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"erf",
       BuiltinFunc,
       {},
       names({"torch.erf"}),
       names({"aten::erf", "aten::erf_"}),
       names({"erf", "erf_"}),
       roles({DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"clamp",
       BuiltinFunc,
       {},
       names({"torch.clamp", "torch.clip"}),
       names({"aten::clamp", "aten::clamp_", "aten::clip", "aten::clip_"}),
       names({"clamp", "clamp_", "clip", "clip_"}),
       roles({DataIn, Config, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"matmul",
       BuiltinFunc,
       {},
       names({"torch.matmul", "operator.matmul"}),
       names({"aten::matmul"}),
       names({"matmul", "__matmul__", "__rmatmul__"}),
       roles({DataIn, DataIn}),
       contraction<matmulFlops<0>>,
       nullptr},
      {"mm",
       BuiltinFunc,
       {},
       names({"torch.mm"}),
       names({"aten::mm"}),
       names({"mm"}),
       roles({DataIn, DataIn}),
       contraction<matmulFlops<0>>,
       nullptr},
      {"bmm",
       BuiltinFunc,
       {},
       names({"torch.bmm"}),
       names({"aten::bmm"}),
       names({"bmm"}),
       roles({DataIn, DataIn}),
       contraction<matmulFlops<0>>,
       nullptr},
      {"addmm",
       BuiltinFunc,
       {},
       names({"torch.addmm"}),
       names({"aten::addmm", "aten::addmm_"}),
       names({"addmm", "addmm_"}),
       roles({Bias, DataIn, DataIn, Config, Config}),
       contraction<matmulFlops<1>>,
       nullptr},
      {"baddbmm",
       BuiltinFunc,
       {},
       names({"torch.baddbmm"}),
       names({"aten::baddbmm", "aten::baddbmm_"}),
       names({"baddbmm", "baddbmm_"}),
       roles({DataIn, DataIn, DataIn, Config, Config}),
       contraction<matmulFlops<1>>,
       nullptr},
      {"mean",
       BuiltinFunc,
       {},
       names({"torch.mean"}),
       names({"aten::mean"}),
       names({"mean"}),
       roles({DataIn, Config, Config, Config}),
       arithmetic<reductionFlops>,
       fixedAvgPool2d},
      {"sum",
       BuiltinFunc,
       {},
       names({"torch.sum"}),
       names({"aten::sum"}),
       names({"sum"}),
       roles({DataIn, Config, Config, Config}),
       arithmetic<reductionFlops>,
       nullptr},
      {"cat",
       BuiltinFunc,
       {},
       names({"torch.cat", "torch.concat", "torch.concatenate"}),
       names({"aten::cat", "aten::concat"}),
       {},
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"stack",
       BuiltinFunc,
       {},
       names({"torch.stack"}),
       names({"aten::stack"}),
       {},
       roles({DataIn, Config}),
       nullptr,
       nullptr},

      //===--- Comparisons ---===//
      {"eq",
       BuiltinFunc,
       {},
       names({"torch.eq", "operator.eq"}),
       names({"aten::eq", "aten::eq_"}),
       names({"eq", "eq_", "__eq__"}),
       roles({DataIn, DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"ne",
       BuiltinFunc,
       {},
       names({"torch.ne", "operator.ne"}),
       names({"aten::ne", "aten::ne_"}),
       names({"ne", "ne_", "__ne__"}),
       roles({DataIn, DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"lt",
       BuiltinFunc,
       {},
       names({"torch.lt", "operator.lt"}),
       names({"aten::lt", "aten::lt_"}),
       names({"lt", "lt_", "__lt__"}),
       roles({DataIn, DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"le",
       BuiltinFunc,
       {},
       names({"torch.le", "operator.le"}),
       names({"aten::le", "aten::le_"}),
       names({"le", "le_", "__le__"}),
       roles({DataIn, DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"gt",
       BuiltinFunc,
       {},
       names({"torch.gt", "operator.gt"}),
       names({"aten::gt", "aten::gt_"}),
       names({"gt", "gt_", "__gt__"}),
       roles({DataIn, DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"ge",
       BuiltinFunc,
       {},
       names({"torch.ge", "operator.ge"}),
       names({"aten::ge", "aten::ge_"}),
       names({"ge", "ge_", "__ge__"}),
       roles({DataIn, DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},

      //===--- Shapes and views ---===//
      {"size",
       ImplicitFunc,
       {},
       {},
       names({"aten::size"}),
       names({"size"}),
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"numel",
       ImplicitFunc,
       {},
       names({"torch.numel"}),
       names({"aten::numel"}),
       names({"numel"}),
       roles({DataIn}),
       nullptr,
       nullptr},
      {"dim",
       ImplicitFunc,
       {},
       {},
       names({"aten::dim"}),
       names({"dim"}),
       roles({DataIn}),
       nullptr,
       nullptr},
      {"view",
       ImplicitFunc,
       {},
       {},
       names({"aten::view", "aten::_unsafe_view"}),
       names({"view"}),
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"view_as",
       ImplicitFunc,
       {},
       {},
       names({"aten::view_as"}),
       names({"view_as"}),
       roles({DataIn, DataIn}),
       nullptr,
       nullptr},
      {"reshape",
       ImplicitFunc,
       {},
       names({"torch.reshape"}),
       names({"aten::reshape"}),
       names({"reshape"}),
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"flatten", ImplicitFunc, names({"torch.nn.modules.flatten.Flatten"}),
       names({"torch.flatten"}), names({"aten::flatten"}), names({"flatten"}),
       roles({DataIn, Config, Config}), nullptr, fixedFlatten},
      {"unflatten", ImplicitFunc, names({"torch.nn.modules.flatten.Unflatten"}),
       names({"torch.unflatten"}), names({"aten::unflatten"}),
       names({"unflatten"}), roles({DataIn, Config, Config}), nullptr, nullptr},
      {"permute",
       ImplicitFunc,
       {},
       names({"torch.permute"}),
       names({"aten::permute"}),
       names({"permute"}),
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"transpose",
       ImplicitFunc,
       {},
       names({"torch.transpose", "torch.swapaxes", "torch.swapdims"}),
       names({"aten::transpose", "aten::transpose_", "aten::swapaxes",
              "aten::swapdims"}),
       names({"transpose", "transpose_", "swapaxes", "swapdims"}),
       roles({DataIn, Config, Config}),
       nullptr,
       nullptr},
      {"t",
       ImplicitFunc,
       {},
       names({"torch.t"}),
       names({"aten::t", "aten::t_"}),
       names({"t", "t_"}),
       roles({DataIn}),
       nullptr,
       nullptr},
      {"contiguous",
       ImplicitFunc,
       {},
       {},
       names({"aten::contiguous"}),
       names({"contiguous"}),
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"expand",
       ImplicitFunc,
       {},
       {},
       names({"aten::expand"}),
       names({"expand"}),
       roles({DataIn, Config, Config}),
       nullptr,
       nullptr},
      {"expand_as",
       ImplicitFunc,
       {},
       {},
       names({"aten::expand_as"}),
       names({"expand_as"}),
       roles({DataIn, DataIn}),
       nullptr,
       nullptr},
      {"squeeze",
       ImplicitFunc,
       {},
       names({"torch.squeeze"}),
       names({"aten::squeeze", "aten::squeeze_"}),
       names({"squeeze", "squeeze_"}),
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"unsqueeze",
       ImplicitFunc,
       {},
       names({"torch.unsqueeze"}),
       names({"aten::unsqueeze", "aten::unsqueeze_"}),
       names({"unsqueeze", "unsqueeze_"}),
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"repeat",
       ImplicitFunc,
       {},
       {},
       names({"aten::repeat"}),
       names({"repeat"}),
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"roll",
       ImplicitFunc,
       {},
       names({"torch.roll"}),
       names({"aten::roll"}),
       names({"roll"}),
       roles({DataIn, Config, Config}),
       nullptr,
       nullptr},
      // Every padding module calls F.pad.
      {"pad",
       ImplicitFunc,
       names({"torch.nn.modules.padding.ConstantPad1d",
              "torch.nn.modules.padding.ConstantPad2d",
              "torch.nn.modules.padding.ConstantPad3d",
              "torch.nn.modules.padding.ZeroPad2d",
              "torch.nn.modules.padding.ReflectionPad1d",
              "torch.nn.modules.padding.ReflectionPad2d",
              "torch.nn.modules.padding.ReflectionPad3d",
              "torch.nn.modules.padding.ReplicationPad1d",
              "torch.nn.modules.padding.ReplicationPad2d",
              "torch.nn.modules.padding.ReplicationPad3d"}),
       names({"torch.nn.functional.pad"}),
       names({"aten::pad", "aten::constant_pad_nd", "aten::reflection_pad1d",
              "aten::reflection_pad2d", "aten::reflection_pad3d",
              "aten::replication_pad1d", "aten::replication_pad2d",
              "aten::replication_pad3d"}),
       {},
       roles({DataIn, Config, Config, Config}),
       nullptr,
       nullptr},

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
       nullptr},
      {"index",
       ImplicitFunc,
       {},
       {},
       names({"aten::index"}),
       {},
       roles({DataIn, DataIn}),
       nullptr,
       nullptr},
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
       nullptr},
      {"masked_select",
       ImplicitFunc,
       {},
       names({"torch.masked_select"}),
       names({"aten::masked_select"}),
       names({"masked_select"}),
       roles({DataIn, DataIn}),
       nullptr,
       nullptr},
      {"index_select",
       ImplicitFunc,
       {},
       names({"torch.index_select"}),
       names({"aten::index_select"}),
       names({"index_select"}),
       roles({DataIn, Config, DataIn}),
       nullptr,
       nullptr},
      {"select",
       ImplicitFunc,
       {},
       names({"torch.select"}),
       names({"aten::select"}),
       names({"select"}),
       roles({DataIn, Config, Config}),
       nullptr,
       nullptr},
      {"slice",
       ImplicitFunc,
       {},
       {},
       names({"aten::slice"}),
       {},
       roles({DataIn, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"narrow",
       ImplicitFunc,
       {},
       names({"torch.narrow"}),
       names({"aten::narrow"}),
       names({"narrow"}),
       roles({DataIn, Config, Config, Config}),
       nullptr,
       nullptr},
      {"chunk",
       ImplicitFunc,
       {},
       names({"torch.chunk"}),
       names({"aten::chunk", "aten::unsafe_chunk"}),
       names({"chunk"}),
       roles({DataIn, Config, Config}),
       nullptr,
       nullptr},
      {"split",
       ImplicitFunc,
       {},
       names({"torch.split"}),
       names({"aten::split", "aten::split_with_sizes", "aten::unsafe_split",
              "aten::unsafe_split_with_sizes"}),
       names({"split"}),
       roles({DataIn, Config, Config}),
       nullptr,
       nullptr},
      {"unbind",
       ImplicitFunc,
       {},
       names({"torch.unbind"}),
       names({"aten::unbind"}),
       names({"unbind"}),
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"masked_fill",
       ImplicitFunc,
       {},
       names({"torch.masked_fill"}),
       names({"aten::masked_fill", "aten::masked_fill_"}),
       names({"masked_fill", "masked_fill_"}),
       roles({DataIn, DataIn, Config}),
       nullptr,
       nullptr},
      {"where",
       ImplicitFunc,
       {},
       names({"torch.where"}),
       names({"aten::where"}),
       names({"where"}),
       roles({DataIn, DataIn, DataIn}),
       nullptr,
       nullptr},

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
       nullptr},
      {"type_as",
       ImplicitFunc,
       {},
       {},
       names({"aten::type_as"}),
       names({"type_as"}),
       roles({DataIn, DataIn}),
       nullptr,
       nullptr},
      {"clone",
       ImplicitFunc,
       {},
       names({"torch.clone"}),
       names({"aten::clone"}),
       names({"clone"}),
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"detach",
       ImplicitFunc,
       {},
       names({"torch.detach"}),
       names({"aten::detach", "aten::detach_"}),
       names({"detach", "detach_"}),
       roles({DataIn}),
       nullptr,
       nullptr},
      {"fill",
       ImplicitFunc,
       {},
       names({"torch.fill", "torch.fill_"}),
       names({"aten::fill", "aten::fill_"}),
       names({"fill_"}),
       roles({DataIn, Config}),
       nullptr,
       nullptr},
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
       nullptr},

      // mav's marker of where learnable parameters join the graph
      // (-mav-insert-learnable-nodes); it passes its operand through.
      {"learnable",
       ImplicitFunc,
       {},
       {},
       {},
       {},
       roles({DataIn}),
       nullptr,
       nullptr},

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
       nullptr},

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
       nullptr},

      //===--- Tensor creation ---===//
      {"zeros",
       ImplicitFunc,
       {},
       names({"torch.zeros"}),
       names({"aten::zeros"}),
       {},
       roles({Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"ones",
       ImplicitFunc,
       {},
       names({"torch.ones"}),
       names({"aten::ones"}),
       {},
       roles({Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"full",
       ImplicitFunc,
       {},
       names({"torch.full"}),
       names({"aten::full"}),
       {},
       roles({Config, Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"zeros_like",
       ImplicitFunc,
       {},
       names({"torch.zeros_like"}),
       names({"aten::zeros_like"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"ones_like",
       ImplicitFunc,
       {},
       names({"torch.ones_like"}),
       names({"aten::ones_like"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"new_zeros",
       ImplicitFunc,
       {},
       {},
       names({"aten::new_zeros"}),
       names({"new_zeros"}),
       roles({DataIn, Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"new_ones",
       ImplicitFunc,
       {},
       {},
       names({"aten::new_ones"}),
       names({"new_ones"}),
       roles({DataIn, Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"new_full",
       ImplicitFunc,
       {},
       {},
       names({"aten::new_full"}),
       names({"new_full"}),
       roles({DataIn, Config, Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"arange",
       ImplicitFunc,
       {},
       names({"torch.arange"}),
       names({"aten::arange"}),
       {},
       roles({Config, Config, Config, Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      //===--- Activations (continued) ---===//
      {"mish",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Mish"}),
       names({"torch.nn.functional.mish"}),
       names({"aten::mish", "aten::mish_"}),
       {},
       roles({DataIn, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"celu",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.CELU"}),
       names({"torch.nn.functional.celu", "torch.nn.functional.celu_",
              "torch.celu", "torch.celu_"}),
       names({"aten::celu", "aten::celu_"}),
       {},
       roles({DataIn, Config, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"glu",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.GLU"}),
       names({"torch.nn.functional.glu"}),
       names({"aten::glu"}),
       {},
       roles({DataIn, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"threshold",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Threshold"}),
       names({"torch.nn.functional.threshold", "torch.nn.functional.threshold_",
              "torch.threshold", "torch.threshold_"}),
       names({"aten::threshold", "aten::threshold_"}),
       {},
       roles({DataIn, Config, Config, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"rrelu",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.RReLU"}),
       names({"torch.nn.functional.rrelu", "torch.nn.functional.rrelu_",
              "torch.rrelu", "torch.rrelu_"}),
       names({"aten::rrelu", "aten::rrelu_"}),
       {},
       roles({DataIn, Config, Config, Config, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      // F.tanhshrink is written in Python; traced, it records tanh and sub.
      {"tanhshrink",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Tanhshrink"}),
       names({"torch.nn.functional.tanhshrink"}),
       {},
       {},
       roles({DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      // F.softmin is softmax of the negation; traced, it records neg and
      // softmax.
      {"softmin",
       ModuleRelatedFunc,
       names({"torch.nn.modules.activation.Softmin"}),
       names({"torch.nn.functional.softmin"}),
       {},
       {},
       roles({DataIn, Config, Config, Config}),
       arithmetic<softmaxFlops>,
       nullptr},

      //===--- Normalization (continued) ---===//
      // F.local_response_norm is written in Python; traced, it records pow,
      // pad, avg_pool and div.
      {"local_response_norm",
       ModuleRelatedFunc,
       names({"torch.nn.modules.normalization.LocalResponseNorm",
              "torch.nn.modules.normalization.CrossMapLRN2d"}),
       names({"torch.nn.functional.local_response_norm"}),
       {},
       {},
       roles({DataIn, Config, Config, Config, Config}),
       arithmetic<localResponseNormFlops>,
       nullptr},

      //===--- Pooling (continued) ---===//
      {"adaptive_max_pool3d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.AdaptiveMaxPool3d"}),
       names({"torch.nn.functional.adaptive_max_pool3d"}),
       names({"aten::adaptive_max_pool3d"}),
       {},
       roles({DataIn, Config, Config}),
       arithmetic<adaptivePoolFlops<3>>,
       nullptr},
      // F.max_unpool1d calls aten::max_unpool2d on an unsqueezed input.
      {"max_unpool1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.MaxUnpool1d"}),
       names({"torch.nn.functional.max_unpool1d"}),
       {},
       {},
       roles({DataIn, DataIn, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"max_unpool2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.MaxUnpool2d"}),
       names({"torch.nn.functional.max_unpool2d"}),
       names({"aten::max_unpool2d"}),
       {},
       roles({DataIn, DataIn, Config}),
       nullptr,
       nullptr},
      {"max_unpool3d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.MaxUnpool3d"}),
       names({"torch.nn.functional.max_unpool3d"}),
       names({"aten::max_unpool3d"}),
       {},
       roles({DataIn, DataIn, Config, Config, Config}),
       nullptr,
       nullptr},
      {"fractional_max_pool2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.FractionalMaxPool2d"}),
       names({"torch.nn.functional.fractional_max_pool2d",
              "torch.nn.functional.fractional_max_pool2d_with_indices"}),
       names({"aten::fractional_max_pool2d"}),
       {},
       roles({DataIn, Config, Config, DataIn}),
       arithmetic<windowFlops<1, 2>>,
       nullptr},
      {"fractional_max_pool3d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.FractionalMaxPool3d"}),
       names({"torch.nn.functional.fractional_max_pool3d",
              "torch.nn.functional.fractional_max_pool3d_with_indices"}),
       names({"aten::fractional_max_pool3d"}),
       {},
       roles({DataIn, Config, Config, DataIn}),
       arithmetic<windowFlops<1, 3>>,
       nullptr},
      // F.lp_pool*d are written in Python; traced, they record pow, avg_pool,
      // sign, relu and mul.
      {"lp_pool1d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.LPPool1d"}),
       names({"torch.nn.functional.lp_pool1d"}),
       {},
       {},
       roles({DataIn, Config, Config, Config, Config}),
       arithmetic<lpPoolFlops<1>>,
       nullptr},
      {"lp_pool2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.pooling.LPPool2d"}),
       names({"torch.nn.functional.lp_pool2d"}),
       {},
       {},
       roles({DataIn, Config, Config, Config, Config}),
       arithmetic<lpPoolFlops<2>>,
       nullptr},

      //===--- Resampling ---===//
      // F.interpolate dispatches on its mode to one of the upsample_* operators
      // below.
      {"interpolate",
       ModuleRelatedFunc,
       names({"torch.nn.modules.upsampling.Upsample"}),
       names(
           {"torch.nn.functional.interpolate", "torch.nn.functional.upsample"}),
       {},
       {},
       roles({DataIn, Config, Config, Config, Config, Config, Config}),
       uncountedCost,
       nullptr},
      {"upsample_nearest1d",
       ModuleRelatedFunc,
       {},
       {},
       names({"aten::upsample_nearest1d"}),
       {},
       roles({DataIn, Config, Config}),
       nullptr,
       nullptr},
      {"upsample_nearest2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.upsampling.UpsamplingNearest2d"}),
       names({"torch.nn.functional.upsample_nearest"}),
       names({"aten::upsample_nearest2d"}),
       {},
       roles({DataIn, Config, Config, Config}),
       nullptr,
       nullptr},
      {"upsample_nearest3d",
       ModuleRelatedFunc,
       {},
       {},
       names({"aten::upsample_nearest3d"}),
       {},
       roles({DataIn, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"upsample_linear1d",
       ModuleRelatedFunc,
       {},
       {},
       names({"aten::upsample_linear1d"}),
       {},
       roles({DataIn, Config, Config, Config}),
       arithmetic<interpolationFlops<2>>,
       nullptr},
      {"upsample_bilinear2d",
       ModuleRelatedFunc,
       names({"torch.nn.modules.upsampling.UpsamplingBilinear2d"}),
       names({"torch.nn.functional.upsample_bilinear"}),
       names({"aten::upsample_bilinear2d"}),
       {},
       roles({DataIn, Config, Config, Config, Config}),
       arithmetic<interpolationFlops<4>>,
       nullptr},
      {"upsample_bicubic2d",
       ModuleRelatedFunc,
       {},
       {},
       names({"aten::upsample_bicubic2d"}),
       {},
       roles({DataIn, Config, Config, Config, Config}),
       arithmetic<interpolationFlops<16>>,
       nullptr},
      {"upsample_trilinear3d",
       ModuleRelatedFunc,
       {},
       {},
       names({"aten::upsample_trilinear3d"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config}),
       arithmetic<interpolationFlops<8>>,
       nullptr},
      // The interpolation mode is a config value.
      {"grid_sample",
       BuiltinFunc,
       {},
       names({"torch.nn.functional.grid_sample", "torch.grid_sampler"}),
       names({"aten::grid_sampler", "aten::grid_sampler_2d",
              "aten::grid_sampler_3d"}),
       {},
       roles({DataIn, DataIn, Config, Config, Config}),
       uncountedCost,
       nullptr},
      // Each grid coordinate is a row of theta (N, 2, 3) times (x, y, 1).
      {"affine_grid",
       BuiltinFunc,
       {},
       names(
           {"torch.nn.functional.affine_grid", "torch.affine_grid_generator"}),
       names({"aten::affine_grid_generator"}),
       {},
       roles({DataIn, Config, Config}),
       contraction<matmulFlops<0>>,
       nullptr},
      {"pixel_shuffle",
       ImplicitFunc,
       names({"torch.nn.modules.pixelshuffle.PixelShuffle"}),
       names({"torch.nn.functional.pixel_shuffle", "torch.pixel_shuffle"}),
       names({"aten::pixel_shuffle"}),
       {},
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"pixel_unshuffle",
       ImplicitFunc,
       names({"torch.nn.modules.pixelshuffle.PixelUnshuffle"}),
       names({"torch.nn.functional.pixel_unshuffle", "torch.pixel_unshuffle"}),
       names({"aten::pixel_unshuffle"}),
       {},
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"channel_shuffle",
       ImplicitFunc,
       names({"torch.nn.modules.channelshuffle.ChannelShuffle"}),
       names({"torch.nn.functional.channel_shuffle", "torch.channel_shuffle",
              "torch.native_channel_shuffle"}),
       names({"aten::channel_shuffle", "aten::native_channel_shuffle"}),
       {},
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      // nn.Unfold; not Tensor.unfold, which is a view.
      {"im2col",
       ImplicitFunc,
       names({"torch.nn.modules.fold.Unfold"}),
       names({"torch.nn.functional.unfold"}),
       names({"aten::im2col"}),
       {},
       roles({DataIn, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      // nn.Fold sums the overlapping patches: one add per input element.
      {"col2im",
       BuiltinFunc,
       names({"torch.nn.modules.fold.Fold"}),
       names({"torch.nn.functional.fold"}),
       names({"aten::col2im"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config}),
       arithmetic<argElementFlops<0>>,
       nullptr},

      //===--- Linear (continued), distances ---===//
      {"bilinear",
       ModuleRelatedFunc,
       names({"torch.nn.modules.linear.Bilinear"}),
       names({"torch.nn.functional.bilinear", "torch.bilinear"}),
       names({"aten::bilinear"}),
       {},
       roles({DataIn, DataIn, Weight, Bias}),
       contraction<bilinearFlops>,
       nullptr},
      {"pairwise_distance",
       ModuleRelatedFunc,
       names({"torch.nn.modules.distance.PairwiseDistance"}),
       names({"torch.nn.functional.pairwise_distance",
              "torch.pairwise_distance"}),
       names({"aten::pairwise_distance"}),
       {},
       roles({DataIn, DataIn, Config, Config, Config}),
       arithmetic<perInputElementFlops<3>>,
       nullptr},
      {"cosine_similarity",
       ModuleRelatedFunc,
       names({"torch.nn.modules.distance.CosineSimilarity"}),
       names({"torch.nn.functional.cosine_similarity",
              "torch.cosine_similarity"}),
       names({"aten::cosine_similarity"}),
       {},
       roles({DataIn, DataIn, Config, Config}),
       arithmetic<perInputElementFlops<6>>,
       nullptr},

      //===--- Lookup tables (continued) ---===//
      // F.embedding_bag takes (input, weight, offsets, ...); the aten order
      // wins.
      {"embedding_bag",
       ModuleRelatedFunc,
       names({"torch.nn.modules.sparse.EmbeddingBag"}),
       names({"torch.nn.functional.embedding_bag", "torch.embedding_bag"}),
       names({"aten::embedding_bag", "aten::_embedding_bag"}),
       {},
       roles({Weight, DataIn, DataIn, Config, Config, Config, DataIn, Config,
              Config}),
       arithmetic<embeddingBagFlops>,
       nullptr},
      {"one_hot",
       ImplicitFunc,
       {},
       names({"torch.nn.functional.one_hot"}),
       names({"aten::one_hot"}),
       {},
       roles({DataIn, Config}),
       nullptr,
       nullptr},

      //===--- Recurrent layers ---===//
      // aten::lstm / gru / rnn_* take (input, hx, params, has_biases,
      // num_layers, dropout, train, bidirectional, batch_first); a packed
      // sequence's overload takes (data, batch_sizes, hx, params, ...). The
      // weights come as one list, which shapes do not show: no FLOP count.
      {"rnn",
       Module,
       names({"torch.nn.modules.rnn.RNN"}),
       names({"torch.rnn_tanh", "torch.rnn_relu"}),
       names({"aten::rnn_tanh", "aten::rnn_relu"}),
       {},
       roles({DataIn, DataIn, Weight, Config, Config, Config, Config, Config,
              Config}),
       recurrentCost<1>,
       nullptr},
      {"lstm",
       Module,
       names({"torch.nn.modules.rnn.LSTM"}),
       names({"torch.lstm"}),
       names({"aten::lstm"}),
       {},
       roles({DataIn, DataIn, Weight, Config, Config, Config, Config, Config,
              Config}),
       recurrentCost<4>,
       nullptr},
      {"gru",
       Module,
       names({"torch.nn.modules.rnn.GRU"}),
       names({"torch.gru"}),
       names({"aten::gru"}),
       {},
       roles({DataIn, DataIn, Weight, Config, Config, Config, Config, Config,
              Config}),
       recurrentCost<3>,
       nullptr},
      {"rnn_cell",
       Module,
       names({"torch.nn.modules.rnn.RNNCell"}),
       names({"torch.rnn_tanh_cell", "torch.rnn_relu_cell"}),
       names({"aten::rnn_tanh_cell", "aten::rnn_relu_cell"}),
       {},
       roles({DataIn, DataIn, Weight, Weight, Bias, Bias}),
       contraction<rnnCellFlops>,
       nullptr},
      {"lstm_cell",
       Module,
       names({"torch.nn.modules.rnn.LSTMCell"}),
       names({"torch.lstm_cell"}),
       names({"aten::lstm_cell"}),
       {},
       roles({DataIn, DataIn, Weight, Weight, Bias, Bias}),
       contraction<rnnCellFlops>,
       nullptr},
      {"gru_cell",
       Module,
       names({"torch.nn.modules.rnn.GRUCell"}),
       names({"torch.gru_cell"}),
       names({"aten::gru_cell"}),
       {},
       roles({DataIn, DataIn, Weight, Weight, Bias, Bias}),
       contraction<rnnCellFlops>,
       nullptr},
      {"pack_padded_sequence",
       ImplicitFunc,
       {},
       names({"torch.nn.utils.rnn.pack_padded_sequence",
              "torch._pack_padded_sequence"}),
       names({"aten::_pack_padded_sequence"}),
       {},
       roles({DataIn, DataIn, Config}),
       nullptr,
       nullptr},
      {"pad_packed_sequence",
       ImplicitFunc,
       {},
       names({"torch.nn.utils.rnn.pad_packed_sequence",
              "torch._pad_packed_sequence"}),
       names({"aten::_pad_packed_sequence"}),
       {},
       roles({DataIn, DataIn, Config, Config, Config}),
       nullptr,
       nullptr},

      //===--- Losses ---===//
      // A loss counts two operations per input element (a difference or a
      // log, and the accumulation).
      {"l1_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.L1Loss"}),
       names({"torch.nn.functional.l1_loss"}),
       names({"aten::l1_loss"}),
       {},
       roles({DataIn, DataIn, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"mse_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.MSELoss"}),
       names({"torch.nn.functional.mse_loss"}),
       names({"aten::mse_loss"}),
       {},
       roles({DataIn, DataIn, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"smooth_l1_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.SmoothL1Loss"}),
       names({"torch.nn.functional.smooth_l1_loss"}),
       names({"aten::smooth_l1_loss"}),
       {},
       roles({DataIn, DataIn, Config, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"huber_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.HuberLoss"}),
       names({"torch.nn.functional.huber_loss"}),
       names({"aten::huber_loss"}),
       {},
       roles({DataIn, DataIn, Config, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"nll_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.NLLLoss",
              "torch.nn.modules.loss.NLLLoss2d"}),
       names({"torch.nn.functional.nll_loss"}),
       names({"aten::nll_loss", "aten::nll_loss_nd", "aten::nll_loss2d"}),
       {},
       roles({DataIn, DataIn, Weight, Config, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"cross_entropy",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.CrossEntropyLoss"}),
       names({"torch.nn.functional.cross_entropy"}),
       names({"aten::cross_entropy_loss"}),
       {},
       roles({DataIn, DataIn, Weight, Config, Config, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"kl_div",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.KLDivLoss"}),
       names({"torch.nn.functional.kl_div"}),
       names({"aten::kl_div"}),
       {},
       roles({DataIn, DataIn, Config, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"binary_cross_entropy",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.BCELoss"}),
       names({"torch.nn.functional.binary_cross_entropy"}),
       names({"aten::binary_cross_entropy"}),
       {},
       roles({DataIn, DataIn, Weight, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"binary_cross_entropy_with_logits",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.BCEWithLogitsLoss"}),
       names({"torch.nn.functional.binary_cross_entropy_with_logits"}),
       names({"aten::binary_cross_entropy_with_logits"}),
       {},
       roles({DataIn, DataIn, Weight, Weight, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"poisson_nll_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.PoissonNLLLoss"}),
       names({"torch.nn.functional.poisson_nll_loss"}),
       names({"aten::poisson_nll_loss"}),
       {},
       roles({DataIn, DataIn, Config, Config, Config, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"cosine_embedding_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.CosineEmbeddingLoss"}),
       names({"torch.nn.functional.cosine_embedding_loss"}),
       names({"aten::cosine_embedding_loss"}),
       {},
       roles({DataIn, DataIn, DataIn, Config, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"ctc_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.CTCLoss"}),
       names({"torch.nn.functional.ctc_loss"}),
       names({"aten::ctc_loss"}),
       {},
       roles({DataIn, DataIn, DataIn, DataIn, Config, Config, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"hinge_embedding_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.HingeEmbeddingLoss"}),
       names({"torch.nn.functional.hinge_embedding_loss"}),
       names({"aten::hinge_embedding_loss"}),
       {},
       roles({DataIn, DataIn, Config, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"margin_ranking_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.MarginRankingLoss"}),
       names({"torch.nn.functional.margin_ranking_loss"}),
       names({"aten::margin_ranking_loss"}),
       {},
       roles({DataIn, DataIn, DataIn, Config, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"multilabel_margin_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.MultiLabelMarginLoss"}),
       names({"torch.nn.functional.multilabel_margin_loss"}),
       names({"aten::multilabel_margin_loss"}),
       {},
       roles({DataIn, DataIn, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"multilabel_soft_margin_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.MultiLabelSoftMarginLoss"}),
       names({"torch.nn.functional.multilabel_soft_margin_loss"}),
       {},
       {},
       roles({DataIn, DataIn, Weight, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"multi_margin_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.MultiMarginLoss"}),
       names({"torch.nn.functional.multi_margin_loss"}),
       names({"aten::multi_margin_loss"}),
       {},
       roles({DataIn, DataIn, Config, Config, Weight, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"soft_margin_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.SoftMarginLoss"}),
       names({"torch.nn.functional.soft_margin_loss"}),
       names({"aten::soft_margin_loss"}),
       {},
       roles({DataIn, DataIn, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"gaussian_nll_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.GaussianNLLLoss"}),
       names({"torch.nn.functional.gaussian_nll_loss"}),
       {},
       {},
       roles({DataIn, DataIn, DataIn, Config, Config, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"triplet_margin_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.TripletMarginLoss"}),
       names({"torch.nn.functional.triplet_margin_loss"}),
       names({"aten::triplet_margin_loss"}),
       {},
       roles({DataIn, DataIn, DataIn, Config, Config, Config, Config, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},
      {"triplet_margin_with_distance_loss",
       ModuleRelatedFunc,
       names({"torch.nn.modules.loss.TripletMarginWithDistanceLoss"}),
       names({"torch.nn.functional.triplet_margin_with_distance_loss"}),
       {},
       {},
       roles({DataIn, DataIn, DataIn, Config, Config, Config, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},

      //===--- Arithmetic (continued) ---===//
      {"reciprocal",
       BuiltinFunc,
       {},
       names({"torch.reciprocal"}),
       names({"aten::reciprocal", "aten::reciprocal_"}),
       names({"reciprocal", "reciprocal_"}),
       roles({DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"sign",
       BuiltinFunc,
       {},
       names({"torch.sign"}),
       names({"aten::sign", "aten::sign_"}),
       names({"sign", "sign_"}),
       roles({DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"clamp_min",
       BuiltinFunc,
       {},
       names({"torch.clamp_min"}),
       names({"aten::clamp_min", "aten::clamp_min_"}),
       names({"clamp_min", "clamp_min_"}),
       roles({DataIn, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"clamp_max",
       BuiltinFunc,
       {},
       names({"torch.clamp_max"}),
       names({"aten::clamp_max", "aten::clamp_max_"}),
       names({"clamp_max", "clamp_max_"}),
       roles({DataIn, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"cumsum",
       BuiltinFunc,
       {},
       names({"torch.cumsum"}),
       names({"aten::cumsum", "aten::cumsum_"}),
       names({"cumsum", "cumsum_"}),
       roles({DataIn, Config, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"cumprod",
       BuiltinFunc,
       {},
       names({"torch.cumprod"}),
       names({"aten::cumprod", "aten::cumprod_"}),
       names({"cumprod", "cumprod_"}),
       roles({DataIn, Config, Config}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"scatter_add",
       BuiltinFunc,
       {},
       names({"torch.scatter_add"}),
       names({"aten::scatter_add", "aten::scatter_add_"}),
       names({"scatter_add", "scatter_add_"}),
       roles({DataIn, Config, DataIn, DataIn}),
       arithmetic<argElementFlops<3>>,
       nullptr},
      // The contraction is in the equation, a config value.
      {"einsum",
       BuiltinFunc,
       {},
       names({"torch.einsum"}),
       names({"aten::einsum"}),
       {},
       roles({Config, DataIn, Config}),
       einsumCost,
       nullptr},
      {"norm",
       BuiltinFunc,
       {},
       names({"torch.norm", "torch.linalg.norm", "torch.linalg.vector_norm",
              "torch.frobenius_norm"}),
       names({"aten::norm", "aten::linalg_norm", "aten::linalg_vector_norm",
              "aten::frobenius_norm"}),
       names({"norm"}),
       roles({DataIn, Config, Config, Config, Config}),
       arithmetic<perInputElementFlops<2>>,
       nullptr},

      //===--- Bitwise and logical ---===//
      {"bitwise_and",
       BuiltinFunc,
       {},
       names({"torch.bitwise_and", "operator.and_", "operator.iand"}),
       names({"aten::__and__", "aten::__iand__", "aten::bitwise_and",
              "aten::bitwise_and_"}),
       names(
           {"bitwise_and", "bitwise_and_", "__and__", "__iand__", "__rand__"}),
       roles({DataIn, DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"bitwise_or",
       BuiltinFunc,
       {},
       names({"torch.bitwise_or", "operator.or_", "operator.ior"}),
       names({"aten::__or__", "aten::__ior__", "aten::bitwise_or",
              "aten::bitwise_or_"}),
       names({"bitwise_or", "bitwise_or_", "__or__", "__ior__", "__ror__"}),
       roles({DataIn, DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"bitwise_xor",
       BuiltinFunc,
       {},
       names({"torch.bitwise_xor", "operator.xor", "operator.ixor"}),
       names({"aten::__xor__", "aten::__ixor__", "aten::bitwise_xor",
              "aten::bitwise_xor_"}),
       names(
           {"bitwise_xor", "bitwise_xor_", "__xor__", "__ixor__", "__rxor__"}),
       roles({DataIn, DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"bitwise_not",
       BuiltinFunc,
       {},
       names({"torch.bitwise_not", "operator.invert"}),
       names({"aten::bitwise_not", "aten::bitwise_not_"}),
       names({"bitwise_not", "bitwise_not_", "__invert__"}),
       roles({DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"logical_and",
       BuiltinFunc,
       {},
       names({"torch.logical_and"}),
       names({"aten::logical_and", "aten::logical_and_"}),
       names({"logical_and", "logical_and_"}),
       roles({DataIn, DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"logical_or",
       BuiltinFunc,
       {},
       names({"torch.logical_or"}),
       names({"aten::logical_or", "aten::logical_or_"}),
       names({"logical_or", "logical_or_"}),
       roles({DataIn, DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},
      {"logical_not",
       BuiltinFunc,
       {},
       names({"torch.logical_not"}),
       names({"aten::logical_not", "aten::logical_not_"}),
       names({"logical_not", "logical_not_"}),
       roles({DataIn}),
       arithmetic<elementwiseFlops>,
       nullptr},

      //===--- Sorting and selection ---===//
      // Comparisons along a dimension that is a config value: no formula.
      {"topk",
       BuiltinFunc,
       {},
       names({"torch.topk"}),
       names({"aten::topk"}),
       names({"topk"}),
       roles({DataIn, Config, Config, Config, Config}),
       uncountedCost,
       nullptr},
      {"sort",
       BuiltinFunc,
       {},
       names({"torch.sort"}),
       names({"aten::sort"}),
       names({"sort"}),
       roles({DataIn, Config, Config, Config}),
       uncountedCost,
       nullptr},
      {"argsort",
       BuiltinFunc,
       {},
       names({"torch.argsort"}),
       names({"aten::argsort"}),
       names({"argsort"}),
       roles({DataIn, Config, Config, Config}),
       uncountedCost,
       nullptr},

      //===--- Indexing (continued) ---===//
      {"triu",
       ImplicitFunc,
       {},
       names({"torch.triu"}),
       names({"aten::triu", "aten::triu_"}),
       names({"triu", "triu_"}),
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"tril",
       ImplicitFunc,
       {},
       names({"torch.tril"}),
       names({"aten::tril", "aten::tril_"}),
       names({"tril", "tril_"}),
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"flip",
       ImplicitFunc,
       {},
       names({"torch.flip", "torch.fliplr", "torch.flipud"}),
       names({"aten::flip", "aten::fliplr", "aten::flipud"}),
       names({"flip", "fliplr", "flipud"}),
       roles({DataIn, Config}),
       nullptr,
       nullptr},
      {"gather",
       ImplicitFunc,
       {},
       names({"torch.gather"}),
       names({"aten::gather"}),
       names({"gather"}),
       roles({DataIn, Config, DataIn, Config}),
       nullptr,
       nullptr},
      {"scatter",
       ImplicitFunc,
       {},
       names({"torch.scatter"}),
       names({"aten::scatter", "aten::scatter_"}),
       names({"scatter", "scatter_"}),
       roles({DataIn, Config, DataIn, DataIn}),
       nullptr,
       nullptr},
      {"index_copy",
       ImplicitFunc,
       {},
       names({"torch.index_copy"}),
       names({"aten::index_copy", "aten::index_copy_"}),
       names({"index_copy", "index_copy_"}),
       roles({DataIn, Config, DataIn, DataIn}),
       nullptr,
       nullptr},
      {"index_fill",
       ImplicitFunc,
       {},
       names({"torch.index_fill"}),
       names({"aten::index_fill", "aten::index_fill_"}),
       names({"index_fill", "index_fill_"}),
       roles({DataIn, Config, DataIn, Config}),
       nullptr,
       nullptr},
      // With a tensor of repeats, the result's extent depends on its values.
      {"repeat_interleave",
       ImplicitFunc,
       {},
       names({"torch.repeat_interleave"}),
       names({"aten::repeat_interleave"}),
       names({"repeat_interleave"}),
       roles({DataIn, DataIn, Config, Config}),
       nullptr,
       nullptr},
      {"tensor_split",
       ImplicitFunc,
       {},
       names({"torch.tensor_split"}),
       names({"aten::tensor_split"}),
       names({"tensor_split"}),
       roles({DataIn, Config, Config}),
       nullptr,
       nullptr},
      {"broadcast_tensors",
       ImplicitFunc,
       {},
       names({"torch.broadcast_tensors"}),
       names({"aten::broadcast_tensors"}),
       {},
       roles({DataIn}),
       nullptr,
       nullptr},
      {"meshgrid",
       ImplicitFunc,
       {},
       names({"torch.meshgrid"}),
       names({"aten::meshgrid"}),
       {},
       roles({DataIn, Config}),
       nullptr,
       nullptr},

      //===--- Copies and creation (continued) ---===//
      {"copy",
       ImplicitFunc,
       {},
       {},
       names({"aten::copy_"}),
       names({"copy_"}),
       roles({DataIn, DataIn, Config}),
       nullptr,
       nullptr},
      {"zero",
       ImplicitFunc,
       {},
       names({"torch.zero_"}),
       names({"aten::zero_"}),
       names({"zero_"}),
       roles({DataIn}),
       nullptr,
       nullptr},
      {"empty",
       ImplicitFunc,
       {},
       names({"torch.empty"}),
       names({"aten::empty"}),
       {},
       roles({Config, Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"empty_like",
       ImplicitFunc,
       {},
       names({"torch.empty_like"}),
       names({"aten::empty_like"}),
       {},
       roles({DataIn, Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"new_empty",
       ImplicitFunc,
       {},
       {},
       names({"aten::new_empty"}),
       names({"new_empty"}),
       roles({DataIn, Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"linspace",
       ImplicitFunc,
       {},
       names({"torch.linspace"}),
       names({"aten::linspace"}),
       {},
       roles({Config, Config, Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"logspace",
       ImplicitFunc,
       {},
       names({"torch.logspace"}),
       names({"aten::logspace"}),
       {},
       roles({Config, Config, Config, Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"triu_indices",
       ImplicitFunc,
       {},
       names({"torch.triu_indices"}),
       names({"aten::triu_indices"}),
       {},
       roles({Config, Config, Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
      {"tril_indices",
       ImplicitFunc,
       {},
       names({"torch.tril_indices"}),
       names({"aten::tril_indices"}),
       {},
       roles({Config, Config, Config, Config, Config, Config, Config}),
       nullptr,
       nullptr},
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
