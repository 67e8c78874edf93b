//===- ShapeRules.cpp - Result shapes computed by mav ---------------------===//
//
// The helpers the rules share, and the rule for multi-head attention, which
// libtorch 1.13 can compute neither on the meta device nor with a
// TorchScript shape function.
//
//===----------------------------------------------------------------------===//

#include "ShapeRules.h"

using namespace mav;
using namespace mav::shape_rules;
using llvm::SmallVector;

std::optional<bool> shape_rules::getFlag(const CallArguments &call,
                                         unsigned position,
                                         llvm::StringRef keyword,
                                         bool fallback) {
  std::optional<SmallVector<int64_t>> value =
      call.getInts(position, keyword, 1);
  if (!value)
    return fallback;
  if (value->size() != 1)
    return std::nullopt;
  return value->front() != 0;
}

std::optional<int64_t> shape_rules::getInt(const CallArguments &call,
                                           unsigned position,
                                           llvm::StringRef keyword) {
  std::optional<SmallVector<int64_t>> value =
      call.getInts(position, keyword, 1);
  if (!value || value->size() != 1)
    return std::nullopt;
  return value->front();
}

std::optional<int64_t> shape_rules::wrapDim(int64_t dim, int64_t rank) {
  int64_t bound = std::max<int64_t>(rank, 1);
  if (dim < -bound || dim >= bound)
    return std::nullopt;
  return dim < 0 ? dim + bound : dim;
}

shape_rules::Results shape_rules::single(llvm::ArrayRef<int64_t> sizes,
                                         llvm::ArrayRef<int64_t> strides,
                                         std::optional<ScalarType> dtype) {
  return SmallVector<ResultShape>{TensorShape{
      SmallVector<int64_t>(sizes), SmallVector<int64_t>(strides), dtype}};
}

shape_rules::Results
shape_rules::nativeMultiHeadAttention(const CallArguments &call) {
  // (query, key, value, embed_dim, num_head, qkv_weight, qkv_bias,
  //  proj_weight, proj_bias, mask, need_weights, average_attn_weights,
  //  mask_type)
  auto query = call.getShape(0, "query"), key = call.getShape(1, "key"),
       value = call.getShape(2, "value");
  std::optional<int64_t> embedDim = getInt(call, 3, "embed_dim"),
                         numHeads = getInt(call, 4, "num_head");
  std::optional<bool> needWeights = getFlag(call, 10, "need_weights", true),
                      average = getFlag(call, 11, "average_attn_weights", true);
  if (!query || !key || !value || !embedDim || !numHeads || !needWeights ||
      !average)
    return std::nullopt;
  // libtorch 1.13 takes batched self-attention shapes only.
  if (query->size() != 3 || *query != *key || *query != *value ||
      (*query)[2] != *embedDim || *numHeads <= 0 || *embedDim % *numHeads)
    return std::nullopt;
  int64_t batch = (*query)[0], length = (*query)[1];
  // A mask needs its type: 1, a key padding mask [B, L], or 2, a mask per
  // head [B, H, L, L]; 0, a source mask, has no cpu kernel.
  if (auto mask = call.getShape(9, "mask")) {
    std::optional<int64_t> maskType = getInt(call, 12, "mask_type");
    bool padding = llvm::ArrayRef<int64_t>{batch, length} == *mask;
    bool perHead =
        llvm::ArrayRef<int64_t>{batch, *numHeads, length, length} == *mask;
    if (!maskType || (*maskType != 1 && *maskType != 2) ||
        (!padding && !perHead))
      return std::nullopt;
  }
  SmallVector<ResultShape> results = {TensorShape{{batch, length, *embedDim}}};
  if (!*needWeights)
    results.push_back(std::nullopt);
  else if (*average)
    results.push_back(TensorShape{{batch, length, length}});
  else
    results.push_back(TensorShape{{batch, *numHeads, length, length}});
  return results;
}
