//===- ShapeRulesLayers.cpp - Convolution, pooling, norms, products -------===//
//
// The checks follow libtorch 1.13's native implementations (Convolution.cpp,
// Pool.h, layer_norm.cpp, LinearAlgebra.cpp) closely enough to refuse what
// they refuse.
//
//===----------------------------------------------------------------------===//

#include "ShapeRules.h"
#include "TensorLayout.h"

using namespace mav;
using namespace mav::shape_rules;
using llvm::ArrayRef;
using llvm::SmallVector;

/// `count` integers of argument `position` (one stands for all).
static std::optional<SmallVector<int64_t>> getList(const CallArguments &call,
                                                   unsigned position,
                                                   llvm::StringRef keyword,
                                                   size_t count) {
  std::optional<SmallVector<int64_t>> values =
      call.getInts(position, keyword, count);
  if (!values || values->size() != count)
    return std::nullopt;
  return values;
}

static bool isEmpty(const TensorRef &tensor) {
  return llvm::is_contained(tensor.sizes, 0);
}

static bool isFloatingTensor(const std::optional<TensorRef> &tensor) {
  return tensor && layout::isFloatingDType(tensor->dtype);
}

/// The layout pooling and batch norm give their result: contiguous, or
/// channels-last for a channels-last 4-D input; std::nullopt for any other
/// input layout.
static std::optional<SmallVector<int64_t>>
poolingStrides(const TensorRef &input, ArrayRef<int64_t> sizes) {
  if (layout::isContiguous(input.sizes, input.strides))
    return layout::contiguousStrides(sizes);
  if (layout::isChannelsLastContiguous(input.sizes, input.strides))
    return layout::channelsLastStrides(sizes);
  return std::nullopt;
}

Results shape_rules::convolution(const CallArguments &call) {
  std::optional<TensorRef> input = call.getTensor(0, "");
  std::optional<TensorRef> weight = call.getTensor(1, "weight");
  if (!isFloatingTensor(input) || !weight || weight->dtype != input->dtype ||
      weight->sizes.size() < 3 || input->sizes.size() != weight->sizes.size())
    return std::nullopt;
  size_t spatial = weight->sizes.size() - 2;
  std::optional<bool> transposed = getFlag(call, 6, "transposed", false);
  std::optional<int64_t> groups = getInt(call, 8, "groups");
  auto stride = getList(call, 3, "stride", spatial);
  auto padding = getList(call, 4, "padding", spatial);
  auto dilation = getList(call, 5, "dilation", spatial);
  auto outputPadding = getList(call, 7, "output_padding", spatial);
  if (!transposed || !groups || *groups <= 0 || !stride || !padding ||
      !dilation || !outputPadding)
    return std::nullopt;
  for (size_t i = 0; i < spatial; ++i)
    if ((*stride)[i] <= 0 || (*padding)[i] < 0 || (*dilation)[i] <= 0 ||
        (*outputPadding)[i] < 0 ||
        (*transposed && (*outputPadding)[i] >= (*stride)[i] &&
         (*outputPadding)[i] >= (*dilation)[i]))
      return std::nullopt;
  ArrayRef<int64_t> in = input->sizes, kernel = weight->sizes;
  int64_t outChannels = *transposed ? kernel[1] * *groups : kernel[0];
  int64_t inChannels = *transposed ? kernel[0] : kernel[1] * *groups;
  if (in[1] != inChannels || kernel[0] % *groups)
    return std::nullopt;
  if (std::optional<TensorRef> bias = call.getTensor(2, "bias"))
    if (bias->sizes.size() != 1 || bias->sizes[0] != outChannels ||
        bias->dtype != input->dtype)
      return std::nullopt;
  SmallVector<int64_t> sizes = {in[0], outChannels};
  for (size_t i = 0; i < spatial; ++i) {
    int64_t extent = (*dilation)[i] * (kernel[i + 2] - 1) + 1;
    int64_t size =
        *transposed
            ? (in[i + 2] - 1) * (*stride)[i] - 2 * (*padding)[i] + extent +
                  (*outputPadding)[i]
            : (in[i + 2] + 2 * (*padding)[i] - extent) / (*stride)[i] + 1;
    if (!*transposed && in[i + 2] + 2 * (*padding)[i] < extent)
      return std::nullopt;
    if (size <= 0)
      return std::nullopt;
    sizes.push_back(size);
  }
  return single(sizes, layout::contiguousStrides(sizes), input->dtype);
}

Results shape_rules::batchNorm(const CallArguments &call) {
  std::optional<TensorRef> input = call.getTensor(0, "");
  std::optional<bool> training = getFlag(call, 5, "training", false);
  if (!isFloatingTensor(input) || input->sizes.size() < 2 || !training)
    return std::nullopt;
  int64_t channels = input->sizes[1];
  unsigned position = 1;
  for (llvm::StringRef name : {"weight", "bias", "running_mean", "running_var"})
    if (std::optional<TensorRef> tensor = call.getTensor(position++, name))
      if (tensor->sizes.size() != 1 || tensor->sizes[0] != channels)
        return std::nullopt;
  if (*training) {
    int64_t perChannel = 1;
    for (size_t i = 0; i < input->sizes.size(); ++i)
      if (i != 1)
        perChannel *= input->sizes[i];
    if (perChannel <= 1)
      return std::nullopt;
  }
  std::optional<SmallVector<int64_t>> strides =
      poolingStrides(*input, input->sizes);
  if (!strides)
    return std::nullopt;
  return single(input->sizes, *strides, input->dtype);
}

Results shape_rules::layerNorm(const CallArguments &call) {
  std::optional<TensorRef> input = call.getTensor(0, "");
  std::optional<SmallVector<int64_t>> normalized =
      call.getInts(1, "normalized_shape", 1);
  if (!isFloatingTensor(input) || !normalized || normalized->empty() ||
      isEmpty(*input) || normalized->size() > input->sizes.size() ||
      input->sizes.take_back(normalized->size()) != ArrayRef(*normalized))
    return std::nullopt;
  unsigned position = 2;
  for (llvm::StringRef name : {"weight", "bias"})
    if (std::optional<TensorRef> tensor = call.getTensor(position++, name))
      if (tensor->sizes != ArrayRef(*normalized))
        return std::nullopt;
  return single(input->sizes, layout::contiguousStrides(input->sizes),
                input->dtype);
}

/// at::native::pooling_output_shape, or std::nullopt below one element.
static std::optional<int64_t> poolingOutputSize(int64_t input, int64_t kernel,
                                                int64_t pad, int64_t stride,
                                                int64_t dilation,
                                                bool ceilMode) {
  int64_t numerator = input + 2 * pad - dilation * (kernel - 1) - 1 +
                      (ceilMode ? stride - 1 : 0);
  int64_t size = (numerator >= 0 ? numerator / stride
                                 : -((-numerator + stride - 1) / stride)) +
                 1;
  if (ceilMode && (size - 1) * stride >= input + pad)
    --size;
  if (size < 1)
    return std::nullopt;
  return size;
}

static Results pool2d(const CallArguments &call, bool hasDilation) {
  std::optional<TensorRef> input = call.getTensor(0, "");
  if (!isFloatingTensor(input) ||
      (input->sizes.size() != 3 && input->sizes.size() != 4))
    return std::nullopt;
  auto kernel = getList(call, 1, "kernel_size", 2);
  std::optional<SmallVector<int64_t>> stride = call.getInts(2, "stride", 2);
  if (!stride || stride->empty())
    stride = kernel;
  else if (stride->size() != 2)
    return std::nullopt;
  auto padding = call.has(3, "padding") ? getList(call, 3, "padding", 2)
                                        : SmallVector<int64_t>{0, 0};
  std::optional<SmallVector<int64_t>> dilation = SmallVector<int64_t>{1, 1};
  if (hasDilation && call.has(4, "dilation"))
    dilation = getList(call, 4, "dilation", 2);
  std::optional<bool> ceilMode =
      getFlag(call, hasDilation ? 5 : 4, "ceil_mode", false);
  if (!kernel || !stride || !padding || !dilation || !ceilMode)
    return std::nullopt;
  if (!hasDilation)
    if (std::optional<int64_t> divisor = getInt(call, 6, "divisor_override"))
      if (*divisor == 0)
        return std::nullopt;
  SmallVector<int64_t> sizes(input->sizes.drop_back(2));
  for (int i = 0; i < 2; ++i) {
    int64_t size = input->sizes[input->sizes.size() - 2 + i];
    if ((*kernel)[i] <= 0 || (*stride)[i] <= 0 || (*dilation)[i] <= 0 ||
        (*padding)[i] < 0 || (*padding)[i] > (*kernel)[i] / 2 || size <= 0)
      return std::nullopt;
    std::optional<int64_t> out =
        poolingOutputSize(size, (*kernel)[i], (*padding)[i], (*stride)[i],
                          (*dilation)[i], *ceilMode);
    if (!out)
      return std::nullopt;
    sizes.push_back(*out);
  }
  for (int64_t size : input->sizes)
    if (size <= 0)
      return std::nullopt;
  std::optional<SmallVector<int64_t>> strides = poolingStrides(*input, sizes);
  if (!strides)
    return std::nullopt;
  return single(sizes, *strides, input->dtype);
}

Results shape_rules::maxPool2d(const CallArguments &call) {
  return pool2d(call, /*hasDilation=*/true);
}

Results shape_rules::avgPool2d(const CallArguments &call) {
  return pool2d(call, /*hasDilation=*/false);
}

Results shape_rules::adaptiveAvgPool2d(const CallArguments &call) {
  std::optional<TensorRef> input = call.getTensor(0, "");
  std::optional<SmallVector<int64_t>> outputSize =
      call.getInts(1, "output_size", 1);
  if (!isFloatingTensor(input) || !outputSize || outputSize->size() != 2 ||
      (input->sizes.size() != 3 && input->sizes.size() != 4))
    return std::nullopt;
  for (int64_t size : input->sizes.take_back(2))
    if (size <= 0)
      return std::nullopt;
  for (int64_t size : *outputSize)
    if (size < 0)
      return std::nullopt;
  SmallVector<int64_t> sizes(input->sizes.drop_back(2));
  sizes.append(outputSize->begin(), outputSize->end());
  std::optional<SmallVector<int64_t>> strides = poolingStrides(*input, sizes);
  if (!strides)
    return std::nullopt;
  return single(sizes, *strides, input->dtype);
}

Results shape_rules::linear(const CallArguments &call) {
  std::optional<TensorRef> input = call.getTensor(0, "");
  std::optional<TensorRef> weight = call.getTensor(1, "weight");
  if (!isFloatingTensor(input) || !weight || weight->dtype != input->dtype ||
      input->sizes.empty() || weight->sizes.size() != 2 ||
      input->sizes.back() != weight->sizes[1])
    return std::nullopt;
  SmallVector<int64_t> sizes(input->sizes.drop_back());
  sizes.push_back(weight->sizes[0]);
  if (std::optional<TensorRef> bias = call.getTensor(2, "bias")) {
    std::optional<SmallVector<int64_t>> biased =
        layout::broadcastShapes(sizes, bias->sizes);
    if (bias->dtype != input->dtype || !biased || *biased != sizes)
      return std::nullopt;
  }
  return single(sizes, layout::contiguousStrides(sizes), input->dtype);
}

Results shape_rules::matmul(const CallArguments &call) {
  std::optional<TensorRef> lhs = call.getTensor(0, "");
  std::optional<TensorRef> rhs = call.getTensor(1, "other");
  if (!isFloatingTensor(lhs) || !rhs || rhs->dtype != lhs->dtype ||
      lhs->sizes.empty() || rhs->sizes.empty())
    return std::nullopt;
  SmallVector<int64_t> a(lhs->sizes), b(rhs->sizes);
  bool vectorLhs = a.size() == 1, vectorRhs = b.size() == 1;
  if (vectorLhs)
    a.insert(a.begin(), 1);
  if (vectorRhs)
    b.push_back(1);
  if (a.back() != b[b.size() - 2])
    return std::nullopt;
  std::optional<SmallVector<int64_t>> batch = layout::broadcastShapes(
      ArrayRef(a).drop_back(2), ArrayRef(b).drop_back(2));
  if (!batch)
    return std::nullopt;
  SmallVector<int64_t> sizes = *batch;
  if (!vectorLhs)
    sizes.push_back(a[a.size() - 2]);
  if (!vectorRhs)
    sizes.push_back(b.back());
  return single(sizes, layout::contiguousStrides(sizes), lhs->dtype);
}

Results shape_rules::batchMatmul(const CallArguments &call) {
  std::optional<TensorRef> lhs = call.getTensor(0, "");
  std::optional<TensorRef> rhs = call.getTensor(1, "mat2");
  if (!isFloatingTensor(lhs) || !rhs || rhs->dtype != lhs->dtype ||
      lhs->sizes.size() != 3 || rhs->sizes.size() != 3 ||
      lhs->sizes[0] != rhs->sizes[0] || lhs->sizes[2] != rhs->sizes[1])
    return std::nullopt;
  SmallVector<int64_t> sizes = {lhs->sizes[0], lhs->sizes[1], rhs->sizes[2]};
  return single(sizes, layout::contiguousStrides(sizes), lhs->dtype);
}

/// An optional dtype argument; `fallback` when absent.
static std::optional<ScalarType>
getDType(const CallArguments &call, unsigned position, ScalarType fallback) {
  if (!call.has(position, "dtype"))
    return fallback;
  std::optional<int64_t> code = getInt(call, position, "dtype");
  if (!code || *code < 0)
    return std::nullopt;
  auto dtype = static_cast<ScalarType>(*code);
  if (!layout::isSupportedDType(dtype))
    return std::nullopt;
  return dtype;
}

Results shape_rules::softmax(const CallArguments &call) {
  std::optional<TensorRef> input = call.getTensor(0, "");
  std::optional<int64_t> dim = getInt(call, 1, "dim");
  if (!input || !dim || !wrapDim(*dim, input->sizes.size()))
    return std::nullopt;
  std::optional<ScalarType> dtype = getDType(call, 2, input->dtype);
  if (!dtype || !layout::isFloatingDType(*dtype) ||
      !layout::isSupportedDType(input->dtype))
    return std::nullopt;
  return single(input->sizes, layout::contiguousStrides(input->sizes), *dtype);
}

Results shape_rules::meanDim(const CallArguments &call) {
  std::optional<TensorRef> input = call.getTensor(0, "");
  if (!input)
    return std::nullopt;
  int64_t rank = input->sizes.size();
  std::optional<SmallVector<int64_t>> dims = call.getInts(1, "dim", 1);
  std::optional<bool> keepdim = getFlag(call, 2, "keepdim", false);
  std::optional<ScalarType> dtype = getDType(call, 3, input->dtype);
  if (!keepdim || !dtype || !layout::isFloatingDType(*dtype) ||
      !layout::isSupportedDType(input->dtype))
    return std::nullopt;
  SmallVector<bool> reduced(std::max<int64_t>(rank, 1), false);
  if (!dims || dims->empty()) {
    reduced.assign(reduced.size(), true);
  } else {
    for (int64_t dim : *dims) {
      std::optional<int64_t> wrapped = wrapDim(dim, rank);
      if (!wrapped || reduced[*wrapped])
        return std::nullopt;
      reduced[*wrapped] = true;
    }
  }
  SmallVector<int64_t> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[d])
      sizes.push_back(input->sizes[d]);
    else if (*keepdim)
      sizes.push_back(1);
  }
  return single(sizes, layout::contiguousStrides(sizes), *dtype);
}

Results shape_rules::embedding(const CallArguments &call) {
  std::optional<TensorRef> weight = call.getTensor(0, "weight");
  std::optional<TensorRef> indices = call.getTensor(1, "indices");
  if (!weight || weight->sizes.size() != 2 || !indices ||
      (indices->dtype != ScalarType::int64 &&
       indices->dtype != ScalarType::int32))
    return std::nullopt;
  SmallVector<int64_t> sizes(indices->sizes);
  sizes.push_back(weight->sizes[1]);
  return single(sizes, layout::contiguousStrides(sizes), weight->dtype);
}

Results shape_rules::segmentReduce(const CallArguments &call) {
  std::optional<TensorRef> data = call.getTensor(0, "data");
  std::optional<int64_t> axis = getInt(call, 5, "axis");
  if (!data || !axis || !layout::isFloatingDType(data->dtype))
    return std::nullopt;
  std::optional<int64_t> wrapped =
      wrapDim(*axis, static_cast<int64_t>(data->sizes.size()));
  if (!wrapped || data->sizes.empty())
    return std::nullopt;
  // Segments are counted along `axis` of lengths, or between offsets; their
  // values (which libtorch checks against data) do not change the shape.
  std::optional<TensorRef> lengths = call.getTensor(2, "lengths");
  std::optional<TensorRef> offsets = call.getTensor(4, "offsets");
  std::optional<TensorRef> counts = lengths ? lengths : offsets;
  if (!counts || static_cast<int64_t>(counts->sizes.size()) != *wrapped + 1 ||
      (counts->dtype != ScalarType::int64 &&
       counts->dtype != ScalarType::int32))
    return std::nullopt;
  SmallVector<int64_t> sizes(data->sizes);
  sizes[*wrapped] = counts->sizes[*wrapped] - (lengths ? 0 : 1);
  if (sizes[*wrapped] < 0)
    return std::nullopt;
  return single(sizes, layout::contiguousStrides(sizes), data->dtype);
}
