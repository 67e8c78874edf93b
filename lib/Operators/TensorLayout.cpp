//===- TensorLayout.cpp - Strides and dtypes as libtorch computes them ----===//

#include "TensorLayout.h"
#include "mav/IR/ScalarTypes.h"

#include "llvm/ADT/STLExtras.h"

#include <numeric>

using namespace mav;
using llvm::ArrayRef;
using llvm::SmallVector;

SmallVector<int64_t> layout::channelsLastStrides(ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> strides(4, 1);
  int64_t next = 1;
  for (int dim : {1, 3, 2, 0}) {
    strides[dim] = next;
    next *= std::max<int64_t>(sizes[dim], 1);
  }
  return strides;
}

static int64_t numElements(ArrayRef<int64_t> sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), int64_t(1),
                         std::multiplies<int64_t>());
}

bool layout::isContiguous(ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides) {
  if (numElements(sizes) == 0)
    return true;
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1)
      continue;
    if (strides[i] != expected)
      return false;
    expected *= sizes[i];
  }
  return true;
}

bool layout::isChannelsLastContiguous(ArrayRef<int64_t> sizes,
                                      ArrayRef<int64_t> strides) {
  if (sizes.size() != 4)
    return false;
  if (numElements(sizes) == 0)
    return true;
  int64_t expected = 1;
  for (int dim : {1, 3, 2, 0}) {
    if (sizes[dim] == 1)
      continue;
    if (strides[dim] != expected)
      return false;
    expected *= sizes[dim];
  }
  return true;
}

bool layout::isChannelsLastLike(ArrayRef<int64_t> sizes,
                                ArrayRef<int64_t> strides) {
  if (sizes.size() != 4 || strides[1] == 0)
    return false;
  int64_t min = 0;
  for (int dim : {1, 3, 2, 0}) {
    if (sizes[dim] == 0 || strides[dim] < min)
      return false;
    // N111 and N11W tensors are ambiguous; c10 calls them contiguous.
    if (dim == 0 && min == strides[1])
      return false;
    min = strides[dim];
    if (sizes[dim] > 1)
      min *= sizes[dim];
  }
  return true;
}

bool layout::isNonOverlappingAndDense(ArrayRef<int64_t> sizes,
                                      ArrayRef<int64_t> strides) {
  if (isContiguous(sizes, strides) || isChannelsLastContiguous(sizes, strides))
    return true;
  if (sizes.size() == 1)
    return sizes[0] < 2 || strides[0] == 1;
  SmallVector<int64_t> order(sizes.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    if (sizes[a] < 2)
      return false;
    if (sizes[b] < 2)
      return true;
    return strides[a] < strides[b];
  });
  int64_t expected = 1;
  for (int64_t dim : order) {
    if (sizes[dim] < 2)
      return true;
    if (strides[dim] != expected)
      return false;
    expected *= sizes[dim];
  }
  return true;
}

std::optional<SmallVector<int64_t>>
layout::broadcastShapes(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t a = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t b = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (a != b && a != 1 && b != 1)
      return std::nullopt;
    result[i] = a == 1 ? b : a;
  }
  return result;
}

SmallVector<int64_t> layout::elementwiseStrides(ArrayRef<TensorRef> inputs,
                                                ArrayRef<int64_t> sizes) {
  size_t rank = sizes.size();
  if (rank == 0)
    return {};
  // TensorIterator's fast set-up: operands of one shape.
  if (!inputs.empty() && llvm::all_of(inputs, [&](const TensorRef &input) {
        return input.sizes == sizes;
      })) {
    auto all = [&](auto predicate) {
      return llvm::all_of(inputs, [&](const TensorRef &input) {
        return predicate(input.sizes, input.strides);
      });
    };
    if (all(isContiguous))
      return contiguousStrides(sizes);
    if (all(isChannelsLastContiguous))
      return channelsLastStrides(sizes);
    if (all(isNonOverlappingAndDense) &&
        llvm::all_of(inputs, [&](const TensorRef &input) {
          return input.strides == inputs.front().strides;
        }))
      return SmallVector<int64_t>(inputs.front().strides);
  }
  // The general case: order the dimensions by the inputs' strides in bytes,
  // broadcast dimensions ignored, and lay the result out in that order.
  SmallVector<SmallVector<int64_t>> byteStrides;
  for (const TensorRef &input : inputs) {
    SmallVector<int64_t> strides(rank, 0);
    size_t offset = rank - input.sizes.size();
    for (size_t i = 0; i < input.sizes.size(); ++i)
      strides[offset + i] =
          input.sizes[i] == 1 && sizes[offset + i] != 1
              ? 0
              : input.strides[i] * getElementSize(input.dtype);
    byteStrides.push_back(std::move(strides));
  }
  auto shouldSwap = [&](size_t dim0, size_t dim1) {
    for (const SmallVector<int64_t> &strides : byteStrides) {
      int64_t stride0 = strides[dim0], stride1 = strides[dim1];
      if (stride0 == 0 || stride1 == 0)
        continue;
      if (stride0 < stride1)
        return -1;
      if (stride0 > stride1)
        return 1;
      if (sizes[dim0] > sizes[dim1])
        return 1;
    }
    return 0;
  };
  SmallVector<size_t> order(rank);
  for (size_t i = 0; i < rank; ++i)
    order[i] = rank - 1 - i;
  if (rank > 1)
    for (size_t i = 1; i < rank; ++i) {
      size_t dim1 = i;
      for (size_t dim0 = i; dim0-- > 0;) {
        int comparison = shouldSwap(order[dim0], order[dim1]);
        if (comparison > 0) {
          std::swap(order[dim0], order[dim1]);
          dim1 = dim0;
        } else if (comparison < 0) {
          break;
        }
      }
    }
  SmallVector<int64_t> strides(rank);
  int64_t next = 1;
  for (size_t dim : order) {
    strides[dim] = next;
    next *= sizes[dim];
  }
  return strides;
}

bool layout::isSupportedDType(ScalarType type) {
  switch (type) {
  case ScalarType::Bool:
  case ScalarType::uint8:
  case ScalarType::int8:
  case ScalarType::int16:
  case ScalarType::int32:
  case ScalarType::int64:
  case ScalarType::float16:
  case ScalarType::bfloat16:
  case ScalarType::float32:
  case ScalarType::float64:
    return true;
  default:
    return false;
  }
}

bool layout::isFloatingDType(ScalarType type) {
  return type == ScalarType::float16 || type == ScalarType::bfloat16 ||
         type == ScalarType::float32 || type == ScalarType::float64;
}

bool layout::isIntegralDType(ScalarType type, bool includeBool) {
  switch (type) {
  case ScalarType::uint8:
  case ScalarType::int8:
  case ScalarType::int16:
  case ScalarType::int32:
  case ScalarType::int64:
    return true;
  case ScalarType::Bool:
    return includeBool;
  default:
    return false;
  }
}

/// The rank of a dtype among its kind: wider ranks higher.
static int rankOf(ScalarType type) {
  switch (type) {
  case ScalarType::int8:
  case ScalarType::uint8:
    return 1;
  case ScalarType::int16:
  case ScalarType::float16:
  case ScalarType::bfloat16:
    return 2;
  case ScalarType::int32:
  case ScalarType::float32:
    return 3;
  default:
    return 4;
  }
}

ScalarType layout::promoteTypes(ScalarType lhs, ScalarType rhs) {
  if (lhs == rhs)
    return lhs;
  if (lhs == ScalarType::Bool)
    return rhs;
  if (rhs == ScalarType::Bool)
    return lhs;
  bool lhsFloat = isFloatingDType(lhs), rhsFloat = isFloatingDType(rhs);
  if (lhsFloat != rhsFloat)
    return lhsFloat ? lhs : rhs;
  if (!lhsFloat) {
    // uint8 and int8 meet in int16; otherwise the wider integer.
    if (rankOf(lhs) == rankOf(rhs))
      return ScalarType::int16;
    return rankOf(lhs) > rankOf(rhs) ? lhs : rhs;
  }
  // float16 and bfloat16 meet in float32.
  if (rankOf(lhs) == rankOf(rhs))
    return ScalarType::float32;
  return rankOf(lhs) > rankOf(rhs) ? lhs : rhs;
}

std::optional<ScalarType> layout::resultType(ArrayRef<TensorRef> tensors,
                                             ArrayRef<bool> numbersAreFloat) {
  std::optional<ScalarType> dimResult, zeroResult, wrappedResult;
  auto update = [](std::optional<ScalarType> &state, ScalarType type) {
    state = state ? promoteTypes(*state, type) : type;
  };
  for (const TensorRef &tensor : tensors) {
    if (!isSupportedDType(tensor.dtype))
      return std::nullopt;
    update(tensor.sizes.empty() ? zeroResult : dimResult, tensor.dtype);
  }
  for (bool isFloat : numbersAreFloat)
    update(wrappedResult, isFloat ? ScalarType::float32 : ScalarType::int64);
  auto combine = [](std::optional<ScalarType> higher,
                    std::optional<ScalarType> lower) {
    if (!higher)
      return lower;
    if (!lower || isFloatingDType(*higher))
      return higher;
    if (*higher == ScalarType::Bool || isFloatingDType(*lower))
      return std::optional<ScalarType>(promoteTypes(*higher, *lower));
    return higher;
  };
  return combine(dimResult, combine(zeroResult, wrappedResult));
}
