//===- Reorder.cpp - fixed_reorder: slices, transposes, permutes ----------===//
//
// Every pure data movement of a transformer (the head split and merge, the
// transposes, the slices of the packed projection, the class token's
// select, the expansion of a stream) is a strided view of its row-major
// input. fixed_reorder buffers an item and emits the view's words.
//
//===----------------------------------------------------------------------===//

#include "DescribeSupport.h"
#include "Entries.h"
#include "Estimates.h"

using namespace mlir;
using namespace mav;

namespace {

/// The instance's dimensions: leading ones are size 1, stride 0.
constexpr size_t kReorderRank = 6;

/// A view of a row-major tensor: output index (j_d) reads offset
/// base + sum_d j_d * strides[d] of the input.
struct View {
  SmallVector<int64_t, 6> sizes, strides;
  int64_t base = 0;
};

View rowMajorView(ArrayRef<int64_t> shape) {
  View view;
  view.sizes.assign(shape.begin(), shape.end());
  view.strides.assign(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    view.strides[d] = view.strides[d + 1] * shape[d + 1];
  return view;
}

std::optional<int64_t> normalizeDim(Attribute value, size_t rank) {
  auto integer = llvm::dyn_cast_or_null<IntegerAttr>(value);
  if (!integer || integer.getType().isInteger(1))
    return std::nullopt;
  int64_t dim = integer.getInt();
  if (dim < 0)
    dim += rank;
  if (dim < 0 || dim >= static_cast<int64_t>(rank))
    return std::nullopt;
  return dim;
}

/// An int argument, or `fallback` when it is absent or None.
std::optional<int64_t> getIntOr(const AtenCall &call, unsigned position,
                                StringRef keyword, int64_t fallback) {
  if (call.isNone(position, keyword))
    return fallback;
  auto integer =
      llvm::dyn_cast_or_null<IntegerAttr>(call.get(position, keyword));
  if (!integer || integer.getType().isInteger(1))
    return std::nullopt;
  return integer.getInt();
}

/// The view `call` takes of its input; fails with the reason.
bool describeView(ComponentCall call, const HardwareNode &node, View &view,
                  std::string &reason) {
  view = rowMajorView(node.inShape);
  size_t rank = node.inShape.size();
  StringRef op = call.maseOp;
  if (op == "transpose" || op == "t") {
    std::optional<int64_t> a = 0, b = 1;
    if (op == "transpose") {
      a = normalizeDim(call.call.get(1, "dim0"), rank);
      b = normalizeDim(call.call.get(2, "dim1"), rank);
    }
    if (!a || !b || (op == "t" && rank != 2))
      return fail(reason, "its dimensions must be constants");
    std::swap(view.sizes[*a], view.sizes[*b]);
    std::swap(view.strides[*a], view.strides[*b]);
  } else if (op == "permute") {
    std::optional<SmallVector<int64_t>> dims =
        getIntList(call.call.get(1, "dims"), rank);
    if (!dims || dims->size() != rank)
      return fail(reason, "its dims must be a constant permutation");
    View permuted = view;
    SmallVector<bool> seen(rank, false);
    for (auto [to, from] : llvm::enumerate(*dims)) {
      int64_t dim = from < 0 ? from + static_cast<int64_t>(rank) : from;
      if (dim < 0 || dim >= static_cast<int64_t>(rank) || seen[dim])
        return fail(reason, "its dims must be a constant permutation");
      seen[dim] = true;
      permuted.sizes[to] = view.sizes[dim];
      permuted.strides[to] = view.strides[dim];
    }
    view = permuted;
  } else if (op == "slice") {
    std::optional<int64_t> dim = normalizeDim(call.call.get(1, "dim"), rank);
    if (call.call.isNone(1, "dim"))
      dim = 0;
    if (!dim)
      return fail(reason, "its dim must be a constant");
    int64_t extent = node.inShape[*dim];
    std::optional<int64_t> start = getIntOr(call.call, 2, "start", 0),
                           end = getIntOr(call.call, 3, "end", extent),
                           step = getIntOr(call.call, 4, "step", 1);
    if (!start || !end || !step || *step < 1)
      return fail(reason, "its start, end and step must be constants");
    auto clampIndex = [&](int64_t index) {
      if (index < 0)
        index += extent;
      return std::clamp<int64_t>(index, 0, extent);
    };
    int64_t first = clampIndex(*start), last = clampIndex(*end);
    view.base += first * view.strides[*dim];
    view.sizes[*dim] = last > first ? (last - first + *step - 1) / *step : 0;
    view.strides[*dim] *= *step;
  } else if (op == "select") {
    std::optional<int64_t> dim = normalizeDim(call.call.get(1, "dim"), rank);
    auto index = llvm::dyn_cast_or_null<IntegerAttr>(call.call.get(2, "index"));
    if (!dim || !index)
      return fail(reason, "its dim and index must be constants");
    int64_t at = index.getInt() < 0 ? index.getInt() + node.inShape[*dim]
                                    : index.getInt();
    if (at < 0 || at >= node.inShape[*dim])
      return fail(reason, "its index is out of range");
    view.base += at * view.strides[*dim];
    view.sizes.erase(view.sizes.begin() + *dim);
    view.strides.erase(view.strides.begin() + *dim);
  } else if (op == "expand") {
    // Broadcast: new leading dimensions and size-1 dimensions read stride 0.
    size_t outRank = node.outShape.size();
    if (outRank < rank)
      return fail(reason, "its sizes must not drop dimensions");
    View expanded;
    expanded.base = view.base;
    for (size_t d = 0; d < outRank; ++d) {
      expanded.sizes.push_back(node.outShape[d]);
      int64_t in = static_cast<int64_t>(d) - (outRank - rank);
      bool broadcast = in < 0 || node.inShape[in] != node.outShape[d];
      expanded.strides.push_back(broadcast ? 0 : view.strides[in]);
    }
    view = expanded;
  } else {
    return fail(reason, "fixed_reorder does not compute " + op);
  }
  if (SmallVector<int64_t>(view.sizes) != node.outShape)
    return fail(reason, "its view " + joinSizes(view.sizes) +
                            " does not match its result " +
                            joinSizes(node.outShape));
  return true;
}

/// Leading dimensions the view leaves in place are batch: the component
/// reorders within an item.
unsigned countBatchDims(const HardwareNode &node, const View &view) {
  View input = rowMajorView(node.inShape);
  unsigned batch = 0;
  while (batch < view.sizes.size() && batch < node.inShape.size() &&
         view.sizes[batch] == node.inShape[batch] &&
         view.strides[batch] == input.strides[batch] &&
         view.base < input.strides[batch])
    ++batch;
  return batch;
}

/// Merges neighbouring dimensions that step as one and drops size-1 ones.
View simplify(const View &view) {
  View result;
  result.base = view.base;
  for (auto [size, stride] : llvm::zip(view.sizes, view.strides)) {
    if (size == 1)
      continue;
    if (!result.sizes.empty() && result.strides.back() == stride * size) {
      result.sizes.back() *= size;
      result.strides.back() = stride;
      continue;
    }
    result.sizes.push_back(size);
    result.strides.push_back(stride);
  }
  return result;
}

/// The view of one item when the first `batchDims` dimensions are batch.
View getItemView(const View &view, unsigned batchDims) {
  View item = view;
  item.sizes.erase(item.sizes.begin(), item.sizes.begin() + batchDims);
  item.strides.erase(item.strides.begin(), item.strides.begin() + batchDims);
  return simplify(item);
}

int64_t getLargestIndex(const View &view) {
  int64_t largest = view.base;
  for (auto [size, stride] : llvm::zip(view.sizes, view.strides))
    largest += (size - 1) * stride;
  return largest;
}

bool describe(ComponentCall call, HardwareNode &node, std::string &reason) {
  View view;
  if (!describeView(call, node, view, reason))
    return false;
  if (node.outNumel() == 0)
    return fail(reason, "its result is empty");
  node.batchDims = countBatchDims(node, view);
  View item = getItemView(view, node.batchDims);
  while (node.batchDims > 0 && getLargestIndex(item) >= inItemWords(node))
    item = getItemView(view, --node.batchDims);
  if (item.sizes.size() > kReorderRank)
    return fail(reason,
                "fixed_reorder reorders at most " + Twine(kReorderRank) +
                    " dimensions, this view has " + Twine(item.sizes.size()));
  node.reorderSizes = item.sizes;
  node.reorderStrides = item.strides;
  node.reorderBase = item.base;
  return true;
}

/// Output word k of an item reads input word getReorderIndex(k).
std::vector<int64_t> getItemIndices(const HardwareNode &node) {
  std::vector<int64_t> indices;
  indices.reserve(outItemWords(node));
  size_t rank = node.reorderSizes.size();
  SmallVector<int64_t, 6> counter(rank, 0);
  int64_t offset = node.reorderBase;
  for (int64_t k = 0, e = outItemWords(node); k < e; ++k) {
    indices.push_back(offset);
    for (size_t d = rank; d-- > 0;) {
      offset += node.reorderStrides[d];
      if (++counter[d] < node.reorderSizes[d])
        break;
      offset -= counter[d] * node.reorderStrides[d];
      counter[d] = 0;
    }
  }
  return indices;
}

template <typename T>
std::vector<T> gather(const HardwareNode &node, ArrayRef<T> input) {
  std::vector<int64_t> indices = getItemIndices(node);
  int64_t inWords = inItemWords(node);
  std::vector<T> result;
  result.reserve(node.outNumel());
  for (int64_t item = 0, e = node.items(); item < e; ++item)
    for (int64_t index : indices)
      result.push_back(input[item * inWords + index]);
  return result;
}

std::vector<int64_t> evaluate(const HardwareNode &node,
                              const NodeWords &words) {
  return gather<int64_t>(node, words.operands[0]);
}

std::vector<double> bound(const HardwareNode &node, const NodeErrors &in) {
  return gather<double>(node, in.errors[0]);
}

NoiseEstimate estimate(const HardwareNode &node, const NodeNoise &in) {
  return NoiseEstimate{gather<double>(node, in.meanSquares[0]),
                       gather<double>(node, in.allowed[0]), 0};
}

StreamWidths legalWidths(const HardwareNode &, const StreamWidths &) {
  return StreamWidths{{1}, 1};
}

int64_t itemCycles(const HardwareNode &node) {
  return inItemWords(node) + outItemWords(node);
}

ComponentTiming timing(const HardwareNode &node) {
  return bufferedTiming(inItemWords(node), 1, 0, outItemWords(node));
}

/// The item buffer, the odometer's counters and offset, the output beat.
ResourceEstimate resources(const HardwareNode &node) {
  int64_t width = node.format.width;
  int64_t addressBits = ceilLog2(inItemWords(node) + 1);
  ResourceEstimate estimate;
  estimate.memoryBits = inItemWords(node) * width;
  estimate.flipFlops = (kReorderRank + 2) * addressBits + width + 4;
  estimate.luts = (kReorderRank + 2) * 2 * addressBits + width + 16;
  return estimate;
}

void instanceParameters(const HardwareNode &node, ParameterValues &values) {
  setParameter(values, "IN_WORDS", inItemWords(node));
  setParameter(values, "OUT_WORDS", outItemWords(node));
  setParameter(values, "BASE", node.reorderBase);
  size_t pad = kReorderRank - node.reorderSizes.size();
  for (size_t d = 0; d < kReorderRank; ++d) {
    bool used = d >= pad;
    setParameter(values, "SIZE_" + std::to_string(d),
                 used ? node.reorderSizes[d - pad] : 1);
    setParameter(values, "STRIDE_" + std::to_string(d),
                 used ? node.reorderStrides[d - pad] : 0);
  }
}

constexpr llvm::StringRef parameters[] = {
    "DATA_WIDTH", "FRAC_WIDTH", "IN_WORDS", "OUT_WORDS", "BASE",    "SIZE_0",
    "SIZE_1",     "SIZE_2",     "SIZE_3",   "SIZE_4",    "SIZE_5",  "STRIDE_0",
    "STRIDE_1",   "STRIDE_2",   "STRIDE_3", "STRIDE_4",  "STRIDE_5"};
constexpr llvm::StringRef files[] = {"fixed_reorder.sv"};
constexpr llvm::StringRef operators[] = {"transpose", "t",      "permute",
                                         "slice",     "select", "expand"};

} // namespace

constexpr Component mav::components::fixedReorder = {
    .module = "fixed_reorder",
    .parameters = parameters,
    .dependenceFiles = files,
    .operators = operators,
    .describe = describe,
    .prepare = nullptr,
    .evaluate = evaluate,
    .bound = bound,
    .estimate = estimate,
    .legalWidths = legalWidths,
    .itemCycles = itemCycles,
    .multipliers = noMultipliers,
    .timing = timing,
    .resources = resources,
    .instanceParameters = instanceParameters,
};
