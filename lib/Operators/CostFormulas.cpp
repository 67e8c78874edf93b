//===- CostFormulas.cpp - What one call of an operator costs -------------===//
//
// The cost formulas the op table (OpTable.cpp) names as an entry's `cost`.
//
// Costs are those of one inference call (docs/Visualization.md, "FLOPs"). A
// multiply-accumulate of a contraction counts one MAC and two FLOPs; every
// other arithmetic operation (activations, adds, compares) one FLOP per
// output element unless its formula says otherwise; biases are not counted,
// as torch.profiler does not count them. Dropout is the identity at
// inference and has no formula. Formulas that need constants (kernel sizes,
// head counts, an einsum equation) read them through CallArguments.
//
// A template formula is instantiated here for each argument the table uses:
// an entry with a new argument needs one more instantiation line.
//
//===----------------------------------------------------------------------===//

#include "CostFormulas.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using llvm::ArrayRef;
using llvm::StringRef;

namespace mav::formulas {

using Shape = ArrayRef<int64_t>;

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

Flops elementwiseFlops(const CostInputs &inputs) {
  return numElements(resultShape(inputs));
}

Flops reductionFlops(const CostInputs &inputs) {
  return numElements(argShape(inputs, 0));
}

/// max and min: one comparison per element of the larger of the input and
/// the result, which covers both forms: elementwise against another tensor
/// (max.other: the broadcast result) and a reduction (max.dim, max: the
/// input).
Flops selectionFlops(const CostInputs &inputs) {
  Flops input = numElements(argShape(inputs, 0));
  Flops result = numElements(resultShape(inputs));
  if (!input || !result)
    return std::nullopt;
  return std::max(*input, *result);
}

Flops softmaxFlops(const CostInputs &inputs) {
  return multiply(5, numElements(resultShape(inputs)));
}

/// Statistics, normalization, scale and shift.
Flops normalizationFlops(const CostInputs &inputs) {
  return multiply(5, numElements(resultShape(inputs)));
}

/// Running statistics fold into one scale and one shift per element.
Flops batchNormFlops(const CostInputs &inputs) {
  return multiply(2, numElements(resultShape(inputs)));
}

Flops linearFlops(const CostInputs &inputs) {
  std::optional<Shape> weight = argShape(inputs, 1);
  if (!weight || weight->empty())
    return std::nullopt;
  return multiply(multiply(2, numElements(resultShape(inputs))),
                  weight->back());
}

/// A matrix product whose left operand is argument `LhsIndex`; its last
/// extent is the contracted one.
template <size_t LhsIndex> Flops matmulFlops(const CostInputs &inputs) {
  std::optional<Shape> lhs = argShape(inputs, LhsIndex);
  if (!lhs || lhs->empty())
    return std::nullopt;
  return multiply(multiply(2, numElements(resultShape(inputs))), lhs->back());
}
template Flops matmulFlops<0>(const CostInputs &);
template Flops matmulFlops<1>(const CostInputs &);

/// Weight is (Cout, Cin / groups, kernel...): each output element costs
/// Cin / groups * prod(kernel) multiply-accumulates.
Flops convFlops(const CostInputs &inputs) {
  std::optional<Shape> weight = argShape(inputs, 1);
  if (!weight || weight->size() < 3)
    return std::nullopt;
  return multiply(multiply(2, numElements(resultShape(inputs))),
                  numElements(weight->drop_front()));
}

/// Weight is (Cin, Cout / groups, kernel...): each input element is scattered
/// to Cout / groups * prod(kernel) outputs.
Flops convTransposeFlops(const CostInputs &inputs) {
  std::optional<Shape> weight = argShape(inputs, 1);
  if (!weight || weight->size() < 3)
    return std::nullopt;
  return multiply(multiply(2, numElements(argShape(inputs, 0))),
                  numElements(weight->drop_front()));
}

/// aten::_convolution carries `transposed` as a flag (argument 6); without
/// it, the channel extents tell the two apart unless both readings fit and
/// disagree.
Flops convolutionFlops(const CostInputs &inputs) {
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
Flops adaptivePoolFlops(const CostInputs &inputs) {
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
template Flops adaptivePoolFlops<1>(const CostInputs &);
template Flops adaptivePoolFlops<2>(const CostInputs &);
template Flops adaptivePoolFlops<3>(const CostInputs &);

static Flops product(ArrayRef<int64_t> values) {
  Flops result = 1;
  for (int64_t value : values)
    result = value < 0 ? std::nullopt : multiply(result, value);
  return result;
}

/// Each output element reads its window once: max and average pooling,
/// kernel_size at argument `KernelArg`, `Rank` spatial dimensions.
template <unsigned KernelArg, size_t Rank>
Flops windowFlops(const CostInputs &inputs) {
  auto kernel = configInts(inputs, KernelArg, "kernel_size", Rank);
  if (!kernel)
    return std::nullopt;
  return multiply(numElements(resultShape(inputs)), product(*kernel));
}
template Flops windowFlops<1, 1>(const CostInputs &);
template Flops windowFlops<1, 2>(const CostInputs &);
template Flops windowFlops<1, 3>(const CostInputs &);

/// LP pooling raises each window element to the power p and accumulates it.
template <size_t Rank> Flops lpPoolFlops(const CostInputs &inputs) {
  return multiply(2, windowFlops<2, Rank>(inputs));
}
template Flops lpPoolFlops<1>(const CostInputs &);
template Flops lpPoolFlops<2>(const CostInputs &);

/// Local response norm: squares and sums `size` neighbouring channels, then
/// scales, raises and divides once per element.
Flops localResponseNormFlops(const CostInputs &inputs) {
  auto size = configInts(inputs, 1, "size", 1);
  if (!size || size->front() < 0)
    return std::nullopt;
  return multiply(numElements(resultShape(inputs)), 2 * size->front() + 3);
}

/// Arithmetic mav does not count: the cost depends on data (sorting) or on
/// a mode the formula does not model (interpolation modes, fused layers).
Cost uncountedCost(const CostInputs &) { return std::nullopt; }

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
Cost attentionCost(const CostInputs &inputs) {
  std::optional<Shape> query = tensorArg(inputs, 0, "query");
  // A self-attention call traced with the query alone reads it as the key.
  std::optional<Shape> key = tensorArg(inputs, 1, "key");
  if (!key)
    key = query;
  auto heads = configInts(inputs, 4, "num_heads", 1);
  // The native op is batch-first and says embed_dim; a module must say
  // batch_first (a traced nn.MultiheadAttention keeps neither it nor
  // num_heads, and is counted from its body instead: NodeCost.cpp).
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

/// The fused TransformerEncoderLayer (aten::_transformer_encoder_layer_fwd):
/// src (B, L, E) or (L, E), batch first. Its self-attention is counted as
/// attentionCost counts it (key length L); its feed-forward's two linears
/// (E -> F -> E, F from ffn_weight_1) are MACs; its two layer norms cost 5
/// FLOPs per element, its activation and its two residual adds 1.
Cost transformerEncoderLayerCost(const CostInputs &inputs) {
  std::optional<Shape> src = argShape(inputs, 0);
  auto heads = configInts(inputs, 2, "num_heads", 1);
  std::optional<Shape> ffn = tensorArg(inputs, 14, "ffn_weight_1");
  if (!src || src->empty() || src->size() > 3 || !heads || !ffn ||
      ffn->size() != 2 || src->back() <= 0)
    return std::nullopt;
  int64_t embed = src->back();
  int64_t hidden = (*ffn)[0];
  int64_t length = src->size() == 3 ? (*src)[1] : (*src)[0];
  Flops rows = numElements(src);
  if (!rows)
    return std::nullopt;
  *rows /= embed;
  // Projections: query, key and value in, one out, each rows * E * E.
  Flops projections = multiply(multiply(4 * *rows, embed), embed);
  Flops scores = multiply(*rows, length);
  Flops products = multiply(multiply(2, scores), embed);
  Flops feedForward = multiply(multiply(2 * *rows, embed), hidden);
  Flops softmax = multiply(multiply(5, scores), heads->front());
  Flops pointwise = multiply(*rows, 12 * embed + hidden);
  if (!projections || !products || !feedForward || !softmax || !pointwise)
    return std::nullopt;
  Flops other = *softmax + *pointwise;
  return macCost(*projections + *products + *feedForward, other);
}

/// A recurrent layer: every step multiplies the input by w_ih (Gates * H,
/// I_l) and the hidden state by w_hh (Gates * H, H) in each layer and
/// direction; I_0 is the input size, later layers read H * directions. The
/// gates' pointwise work is not counted. Input (T, B, I), (B, T, I), (T, I)
/// or packed (sum of the lengths, I).
template <int64_t Gates> Cost recurrentCost(const CostInputs &inputs) {
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
template Cost recurrentCost<1>(const CostInputs &);
template Cost recurrentCost<3>(const CostInputs &);
template Cost recurrentCost<4>(const CostInputs &);

/// The loop an einsum describes: with two or more operands, one MAC per
/// combination of all its indices; with one, a sum over the indices it drops.
/// Ellipses are not counted.
Cost einsumCost(const CostInputs &inputs) {
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

/// A fixed number of operations per element of the first argument: a p-norm
/// (power, accumulate), a loss (difference or log, accumulate), a distance.
template <int64_t PerElement>
Flops perInputElementFlops(const CostInputs &inputs) {
  return multiply(PerElement, numElements(argShape(inputs, 0)));
}
template Flops perInputElementFlops<2>(const CostInputs &);
template Flops perInputElementFlops<3>(const CostInputs &);
template Flops perInputElementFlops<6>(const CostInputs &);

/// One operation per element of argument `Index` (scatter_add's source).
template <size_t Index> Flops argElementFlops(const CostInputs &inputs) {
  return numElements(argShape(inputs, Index));
}
template Flops argElementFlops<0>(const CostInputs &);
template Flops argElementFlops<3>(const CostInputs &);

/// Weight is (Cout, Cin1, Cin2): each output element is x1^T W x2, about
/// Cin1 * Cin2 multiply-accumulates.
Flops bilinearFlops(const CostInputs &inputs) {
  std::optional<Shape> weight = argShape(inputs, 2);
  if (!weight || weight->size() != 3)
    return std::nullopt;
  return multiply(multiply(2, numElements(resultShape(inputs))),
                  multiply((*weight)[1], (*weight)[2]));
}

/// Every index of a bag adds one embedding row (weight is (N, D)).
Flops embeddingBagFlops(const CostInputs &inputs) {
  std::optional<Shape> weight = argShape(inputs, 0);
  if (!weight || weight->empty())
    return std::nullopt;
  return multiply(numElements(argShape(inputs, 1)), weight->back());
}

/// Each output element is a weighted sum of `Taps` inputs (2 per axis for
/// linear interpolation, 4 for cubic): Taps multiplies and Taps - 1 adds.
template <int64_t Taps> Flops interpolationFlops(const CostInputs &inputs) {
  return multiply(2 * Taps - 1, numElements(resultShape(inputs)));
}
template Flops interpolationFlops<2>(const CostInputs &);
template Flops interpolationFlops<4>(const CostInputs &);
template Flops interpolationFlops<8>(const CostInputs &);
template Flops interpolationFlops<16>(const CostInputs &);

/// An RNN cell: input (B, I) or (I), w_ih (G * H, I), w_hh (G * H, H); one
/// multiply-accumulate per weight element and batch row. The gates'
/// pointwise work is not counted.
Flops rnnCellFlops(const CostInputs &inputs) {
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

} // namespace mav::formulas

//===----------------------------------------------------------------------===//
// Spectral
//===----------------------------------------------------------------------===//

namespace mav::formulas {

/// One FFT of `points` points: 5 N log2 N FLOPs, as FFTW's benchmarks count
/// a complex transform of any length; half that when one side is real and
/// its spectrum one-sided (rfft, irfft, onesided stft and istft). Rounded
/// down.
static Flops fftFlops(int64_t points, bool oneSided) {
  if (points < 0)
    return std::nullopt;
  if (points < 2)
    return 0;
  double flops = (oneSided ? 2.5 : 5.0) * static_cast<double>(points) *
                 std::log2(static_cast<double>(points));
  if (!(flops < 9.0e18))
    return std::nullopt;
  return static_cast<int64_t>(flops);
}

static Flops add(Flops lhs, Flops rhs) {
  int64_t sum;
  if (!lhs || !rhs || llvm::AddOverflow(*lhs, *rhs, sum))
    return std::nullopt;
  return sum;
}

/// stft: input (L) or (B, L), result (F, T) or (B, F, T), with a trailing 2
/// when not complex. Each of the B * T frames is multiplied by the window
/// (n_fft FLOPs, when there is one) and transformed; F = n_fft / 2 + 1 bins
/// mean a one-sided transform.
Flops stftFlops(const CostInputs &inputs) {
  std::optional<Shape> input = argShape(inputs, 0);
  std::optional<Shape> result = resultShape(inputs);
  auto points = configInts(inputs, 1, "n_fft", 1);
  if (!input || !result || !points || input->empty() ||
      result->size() < input->size() + 1)
    return std::nullopt;
  int64_t n = points->front();
  int64_t bins = (*result)[input->size() - 1];
  int64_t frames = (*result)[input->size()];
  bool window = inputs.config && inputs.config->has(4, "window");
  Flops perFrame = add(fftFlops(n, n > 2 && bins == n / 2 + 1), window ? n : 0);
  return multiply(multiply(numElements(input->drop_back()), frames), perFrame);
}

/// istft: input (F, T) or (B, F, T) complex (a trailing 2 when real),
/// result (L) or (B, L). Each of the B * T frames is transformed back,
/// multiplied by the window and overlap-added (2 n_fft FLOPs); each output
/// sample is divided by the window envelope.
Flops istftFlops(const CostInputs &inputs) {
  std::optional<Shape> input = argShape(inputs, 0);
  std::optional<Shape> result = resultShape(inputs);
  auto points = configInts(inputs, 1, "n_fft", 1);
  if (!input || !result || !points || result->empty() ||
      input->size() < result->size() + 1)
    return std::nullopt;
  int64_t n = points->front();
  size_t batchRank = result->size() - 1;
  int64_t bins = (*input)[batchRank];
  int64_t frames = (*input)[batchRank + 1];
  Flops perFrame = add(fftFlops(n, n > 2 && bins == n / 2 + 1), 2 * n);
  Flops batch = numElements(result->drop_back());
  return add(multiply(multiply(batch, frames), perFrame), numElements(result));
}

/// An FFT over the dimensions `dim` (argument 2: one, a list, or None for
/// all of them, or the last len(s) when `s` is given) of the points in `n`
/// or `s` (argument 1), else along each of them the longer of the input's
/// and the result's extents (the signal's side). Transforms over several
/// dimensions are separable: P points in all cost 5 P log2 P, whatever their
/// layout. One transform per result element outside the dimensions.
template <bool OneSided> Flops fftOverDimsFlops(const CostInputs &inputs) {
  std::optional<Shape> input = argShape(inputs, 0);
  std::optional<Shape> result = resultShape(inputs);
  if (!input || !result || input->size() != result->size())
    return std::nullopt;
  int64_t rank = static_cast<int64_t>(result->size());
  auto points = configInts(inputs, 1, "", 1);
  auto dims = configInts(inputs, 2, "dim", 1);
  if (!dims) {
    int64_t count = points ? static_cast<int64_t>(points->size()) : rank;
    dims.emplace();
    for (int64_t dim = rank - count; dim < rank; ++dim)
      dims->push_back(dim);
  }
  if (dims->empty() || (points && points->size() != dims->size()))
    return std::nullopt;
  Flops signal = 1, transformed = 1;
  for (auto [index, dim] : llvm::enumerate(*dims)) {
    if (dim < -rank || dim >= rank)
      return std::nullopt;
    if (dim < 0)
      dim += rank;
    signal = multiply(signal, points ? (*points)[index]
                                     : std::max((*input)[dim], (*result)[dim]));
    transformed = multiply(transformed, (*result)[dim]);
  }
  Flops transforms = numElements(result);
  if (!transforms || !transformed || *transformed <= 0 || !signal)
    return std::nullopt;
  return multiply(*transforms / *transformed, fftFlops(*signal, OneSided));
}
template Flops fftOverDimsFlops<false>(const CostInputs &);
template Flops fftOverDimsFlops<true>(const CostInputs &);

} // namespace mav::formulas
