//===- ShapeRulesViews.cpp - Views, layouts and concatenation -------------===//
//
// A view shares its input's storage, so its strides follow from the input's
// (at::detail::computeStride for view and reshape); a copy is contiguous.
//
//===----------------------------------------------------------------------===//

#include "ShapeRules.h"
#include "TensorLayout.h"

#include <algorithm>
#include <numeric>

using namespace mav;
using namespace mav::shape_rules;
using llvm::ArrayRef;
using llvm::SmallVector;

static int64_t numElements(ArrayRef<int64_t> sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), int64_t(1),
                         std::multiplies<int64_t>());
}

/// at::infer_size: `shape` with its one -1 resolved for `numel` elements.
static std::optional<SmallVector<int64_t>> inferSize(ArrayRef<int64_t> shape,
                                                     int64_t numel) {
  SmallVector<int64_t> sizes(shape);
  std::optional<size_t> inferred;
  int64_t known = 1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      if (inferred)
        return std::nullopt;
      inferred = i;
    } else if (sizes[i] < 0) {
      return std::nullopt;
    } else {
      known *= sizes[i];
    }
  }
  if (inferred) {
    if (known == 0 || numel % known)
      return std::nullopt;
    sizes[*inferred] = numel / known;
  } else if (known != numel) {
    return std::nullopt;
  }
  return sizes;
}

/// at::detail::computeStride: the strides of `newSizes` viewing a tensor of
/// `sizes` and `strides` without a copy, or std::nullopt when no view can.
static std::optional<SmallVector<int64_t>>
computeViewStrides(ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides,
                   ArrayRef<int64_t> newSizes) {
  if (sizes.empty())
    return SmallVector<int64_t>(newSizes.size(), 1);
  int64_t numel = numElements(sizes);
  if (numel == 0 && sizes == newSizes)
    return SmallVector<int64_t>(strides);
  SmallVector<int64_t> newStrides(newSizes.size());
  if (numel == 0) {
    for (int64_t d = newSizes.size() - 1; d >= 0; --d)
      newStrides[d] =
          d == int64_t(newSizes.size()) - 1
              ? 1
              : std::max<int64_t>(newSizes[d + 1], 1) * newStrides[d + 1];
    return newStrides;
  }
  int64_t viewDim = int64_t(newSizes.size()) - 1;
  int64_t chunkBaseStride = strides.back();
  int64_t tensorNumel = 1, viewNumel = 1;
  for (int64_t d = int64_t(sizes.size()) - 1; d >= 0; --d) {
    tensorNumel *= sizes[d];
    if (d == 0 || (sizes[d - 1] != 1 &&
                   strides[d - 1] != tensorNumel * chunkBaseStride)) {
      while (viewDim >= 0 &&
             (viewNumel < tensorNumel || newSizes[viewDim] == 1)) {
        newStrides[viewDim] = viewNumel * chunkBaseStride;
        viewNumel *= newSizes[viewDim];
        --viewDim;
      }
      if (viewNumel != tensorNumel)
        return std::nullopt;
      if (d > 0) {
        chunkBaseStride = strides[d - 1];
        tensorNumel = 1;
        viewNumel = 1;
      }
    }
  }
  if (viewDim != -1)
    return std::nullopt;
  return newStrides;
}

/// aten::reshape: a view where one exists, else a contiguous copy.
static Results reshapeTo(const TensorRef &self, ArrayRef<int64_t> shape) {
  std::optional<SmallVector<int64_t>> sizes =
      inferSize(shape, numElements(self.sizes));
  if (!sizes)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> strides =
      computeViewStrides(self.sizes, self.strides, *sizes);
  return single(*sizes, strides ? *strides : layout::contiguousStrides(*sizes),
                self.dtype);
}

Results shape_rules::reshape(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  std::optional<SmallVector<int64_t>> shape = call.getInts(1, "shape", 1);
  if (!self || !shape)
    return std::nullopt;
  return reshapeTo(*self, *shape);
}

Results shape_rules::view(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  std::optional<SmallVector<int64_t>> shape = call.getInts(1, "size", 1);
  if (!self || !shape)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> sizes =
      inferSize(*shape, numElements(self->sizes));
  if (!sizes)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> strides =
      computeViewStrides(self->sizes, self->strides, *sizes);
  if (!strides)
    return std::nullopt;
  return single(*sizes, *strides, self->dtype);
}

Results shape_rules::flatten(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  if (!self)
    return std::nullopt;
  int64_t rank = self->sizes.size();
  std::optional<int64_t> start = getInt(call, 1, "start_dim"),
                         end = getInt(call, 2, "end_dim");
  start = wrapDim(start.value_or(0), rank);
  end = wrapDim(end.value_or(-1), rank);
  if (!start || !end || *start > *end)
    return std::nullopt;
  if (rank == 0)
    return reshapeTo(*self, {1});
  if (*start == *end)
    return single(self->sizes, self->strides, self->dtype);
  SmallVector<int64_t> shape(self->sizes.begin(), self->sizes.begin() + *start);
  shape.push_back(numElements(self->sizes.slice(*start, *end - *start + 1)));
  shape.append(self->sizes.begin() + *end + 1, self->sizes.end());
  return reshapeTo(*self, shape);
}

Results shape_rules::permute(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  std::optional<SmallVector<int64_t>> dims = call.getInts(1, "dims", 1);
  if (!self || !dims || dims->size() != self->sizes.size())
    return std::nullopt;
  int64_t rank = self->sizes.size();
  SmallVector<int64_t> sizes, strides;
  SmallVector<bool> seen(rank, false);
  for (int64_t dim : *dims) {
    std::optional<int64_t> wrapped = wrapDim(dim, rank);
    if (!wrapped || rank == 0 || seen[*wrapped])
      return std::nullopt;
    seen[*wrapped] = true;
    sizes.push_back(self->sizes[*wrapped]);
    strides.push_back(self->strides[*wrapped]);
  }
  return single(sizes, strides, self->dtype);
}

Results shape_rules::transpose(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  if (!self)
    return std::nullopt;
  int64_t rank = self->sizes.size();
  std::optional<int64_t> dim0 = getInt(call, 1, "dim0"),
                         dim1 = getInt(call, 2, "dim1");
  if (!dim0 || !dim1 || !(dim0 = wrapDim(*dim0, rank)) ||
      !(dim1 = wrapDim(*dim1, rank)))
    return std::nullopt;
  SmallVector<int64_t> sizes(self->sizes), strides(self->strides);
  if (rank > 0) {
    std::swap(sizes[*dim0], sizes[*dim1]);
    std::swap(strides[*dim0], strides[*dim1]);
  }
  return single(sizes, strides, self->dtype);
}

Results shape_rules::unsqueeze(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  std::optional<int64_t> dim = getInt(call, 1, "dim");
  if (!self || !dim)
    return std::nullopt;
  int64_t rank = self->sizes.size();
  std::optional<int64_t> wrapped = wrapDim(*dim, rank + 1);
  if (!wrapped)
    return std::nullopt;
  SmallVector<int64_t> sizes(self->sizes), strides(self->strides);
  int64_t stride =
      *wrapped >= rank ? 1 : self->sizes[*wrapped] * self->strides[*wrapped];
  sizes.insert(sizes.begin() + *wrapped, 1);
  strides.insert(strides.begin() + *wrapped, stride);
  return single(sizes, strides, self->dtype);
}

Results shape_rules::contiguous(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  // Only the default memory format: contiguous_format (0).
  std::optional<int64_t> format = getInt(call, 1, "memory_format");
  if (!self || (format && *format != 0))
    return std::nullopt;
  if (layout::isContiguous(self->sizes, self->strides))
    return single(self->sizes, self->strides, self->dtype);
  return single(self->sizes, layout::contiguousStrides(self->sizes),
                self->dtype);
}

Results shape_rules::concatenate(const CallArguments &call) {
  std::optional<SmallVector<TensorRef>> tensors =
      call.getTensorList(0, "tensors");
  std::optional<int64_t> dim = getInt(call, 1, "dim");
  if (!tensors || tensors->empty())
    return std::nullopt;
  const TensorRef &first = tensors->front();
  int64_t rank = first.sizes.size();
  std::optional<int64_t> wrapped = wrapDim(dim.value_or(0), rank);
  if (rank == 0 || !wrapped)
    return std::nullopt;
  SmallVector<int64_t> sizes(first.sizes);
  sizes[*wrapped] = 0;
  ScalarType dtype = first.dtype;
  bool allChannelsLast = rank == 4;
  for (const TensorRef &tensor : *tensors) {
    if (tensor.sizes.size() != first.sizes.size() ||
        !layout::isSupportedDType(tensor.dtype))
      return std::nullopt;
    for (int64_t d = 0; d < rank; ++d)
      if (d != *wrapped && tensor.sizes[d] != first.sizes[d])
        return std::nullopt;
    sizes[*wrapped] += tensor.sizes[*wrapped];
    dtype = layout::promoteTypes(dtype, tensor.dtype);
    allChannelsLast &= layout::isChannelsLastLike(tensor.sizes, tensor.strides);
  }
  // The inputs' suggested memory format, when they agree; else contiguous.
  return single(sizes,
                allChannelsLast ? layout::channelsLastStrides(sizes)
                                : layout::contiguousStrides(sizes),
                dtype);
}

Results shape_rules::select(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  std::optional<int64_t> dim = getInt(call, 1, "dim"),
                         index = getInt(call, 2, "index");
  if (!self || self->sizes.empty() || !dim || !index ||
      !(dim = wrapDim(*dim, self->sizes.size())))
    return std::nullopt;
  int64_t size = self->sizes[*dim];
  if (*index < -size || *index >= size)
    return std::nullopt;
  SmallVector<int64_t> sizes(self->sizes), strides(self->strides);
  sizes.erase(sizes.begin() + *dim);
  strides.erase(strides.begin() + *dim);
  return single(sizes, strides, self->dtype);
}

Results shape_rules::slice(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  std::optional<int64_t> dim = getInt(call, 1, "dim");
  std::optional<int64_t> step = getInt(call, 4, "step");
  if (!self || self->sizes.empty() ||
      !(dim = wrapDim(dim.value_or(0), self->sizes.size())))
    return std::nullopt;
  if (call.has(4, "step") && (!step || *step <= 0))
    return std::nullopt;
  int64_t size = self->sizes[*dim], stride = step.value_or(1);
  auto bound = [&](unsigned position, llvm::StringRef keyword,
                   int64_t fallback) -> std::optional<int64_t> {
    if (!call.has(position, keyword))
      return fallback;
    std::optional<int64_t> value = getInt(call, position, keyword);
    if (!value)
      return std::nullopt;
    if (*value < 0)
      *value += size;
    return std::clamp<int64_t>(*value, 0, size);
  };
  std::optional<int64_t> start = bound(2, "start", 0),
                         end = bound(3, "end", size);
  if (!start || !end)
    return std::nullopt;
  if (*end < *start)
    end = start;
  SmallVector<int64_t> sizes(self->sizes), strides(self->strides);
  sizes[*dim] = (*end - *start + stride - 1) / stride;
  strides[*dim] *= stride;
  return single(sizes, strides, self->dtype);
}

Results shape_rules::expand(const CallArguments &call) {
  std::optional<TensorRef> self = call.getTensor(0, "");
  std::optional<SmallVector<int64_t>> target = call.getInts(1, "size", 1);
  if (!self || self->sizes.empty() || !target ||
      target->size() < self->sizes.size())
    return std::nullopt;
  int64_t rank = target->size(), selfRank = self->sizes.size();
  SmallVector<int64_t> sizes(rank), strides(rank);
  for (int64_t i = rank - 1; i >= 0; --i) {
    int64_t dim = selfRank - (rank - i);
    int64_t size = dim >= 0 ? self->sizes[dim] : 1;
    int64_t stride =
        dim >= 0 ? self->strides[dim] : sizes[i + 1] * strides[i + 1];
    int64_t wanted = (*target)[i];
    if (wanted == -1) {
      if (dim < 0)
        return std::nullopt;
      wanted = size;
    }
    if (wanted < 0)
      return std::nullopt;
    if (size != wanted) {
      if (size != 1)
        return std::nullopt;
      size = wanted;
      stride = 0;
    }
    sizes[i] = size;
    strides[i] = stride;
  }
  return single(sizes, strides, self->dtype);
}
