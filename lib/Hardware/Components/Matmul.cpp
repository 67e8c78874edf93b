//===- Matmul.cpp - fixed_matmul: Y = A B, both operands streamed ---------===//
//
// Attention's Q K^T and A V: per item (the leading dimensions are batch,
// heads included), A is ROWS x INNER and B is INNER x COLS, row-major.
//
//===----------------------------------------------------------------------===//

#include "AffineRules.h"
#include "DescribeSupport.h"
#include "Entries.h"
#include "Estimates.h"

#include <cmath>

using namespace mlir;
using namespace mav;

namespace {

struct Sizes {
  int64_t rows, inner, cols;
};

Sizes getSizes(const HardwareNode &node) {
  size_t rank = node.inShape.size();
  return Sizes{node.inShape[rank - 2], node.inShape[rank - 1],
               node.secondShape[rank - 1]};
}

bool describe(ComponentCall call, HardwareNode &node, std::string &reason) {
  Value other = call.call.operand(1, "other");
  if (call.maseOp == "bmm")
    other = call.call.operand(1, "mat2");
  std::optional<SmallVector<int64_t>> second =
      other ? getStaticShape(other) : std::nullopt;
  if (!second)
    return fail(reason, "both operands must be tensors with static shapes");
  size_t rank = node.inShape.size();
  if (rank < 2 || second->size() != rank)
    return fail(reason, "fixed_matmul needs operands of one rank, at least 2 "
                        "(no broadcasting), got " +
                            joinSizes(node.inShape) + " and " +
                            joinSizes(*second));
  if (!llvm::equal(ArrayRef(node.inShape).drop_back(2),
                   ArrayRef(*second).drop_back(2)) ||
      node.inShape[rank - 1] != (*second)[rank - 2])
    return fail(reason, "its operands " + joinSizes(node.inShape) + " and " +
                            joinSizes(*second) + " do not multiply");
  std::optional<unsigned> index = findStreamOperand(node, other, 1);
  if (!index)
    return fail(reason, "its second operand is not an input of the node");
  node.streamOperands = {0, *index};
  node.secondShape = *second;
  node.batchDims = rank - 2;
  return true;
}

bool prepare(HardwareNode &node, std::string &reason) {
  return checkAccumulator(node, getSizes(node).inner, reason);
}

/// Calls `body(item, m, n, a, b)` for every output, where a and b index
/// the item's row m of A and column n of B as a(k), b(k).
template <typename Body>
void forEachOutput(const HardwareNode &node, Body &&body) {
  Sizes size = getSizes(node);
  for (int64_t item = 0, e = node.items(); item < e; ++item) {
    int64_t aBase = item * size.rows * size.inner,
            bBase = item * size.inner * size.cols;
    for (int64_t m = 0; m < size.rows; ++m)
      for (int64_t n = 0; n < size.cols; ++n)
        body(
            size.inner, [=](int64_t k) { return aBase + m * size.inner + k; },
            [=](int64_t k) { return bBase + k * size.cols + n; });
  }
}

std::vector<int64_t> evaluate(const HardwareNode &node,
                              const NodeWords &words) {
  ArrayRef<int64_t> a = words.operands[0], b = words.operands[1];
  std::vector<int64_t> y;
  y.reserve(node.outNumel());
  forEachOutput(node, [&](int64_t inner, auto aAt, auto bAt) {
    int64_t sum = 0;
    for (int64_t k = 0; k < inner; ++k)
      sum += a[aAt(k)] * b[bAt(k)];
    y.push_back(requantize(sum, node.format.frac, node.format.width));
  });
  return y;
}

/// |a^ b^ - a b| <= |a| e_b + |b| e_a + e_a e_b per product, plus the
/// result's rounding against the product of the reals read.
std::vector<double> bound(const HardwareNode &node, const NodeErrors &in) {
  const std::vector<double> &a = in.operands[0], &b = in.operands[1];
  const std::vector<double> &ea = in.errors[0], &eb = in.errors[1];
  std::vector<double> result;
  result.reserve(in.result.size());
  forEachOutput(node, [&](int64_t inner, auto aAt, auto bAt) {
    double propagated = 0, exact = 0;
    for (int64_t k = 0; k < inner; ++k) {
      int64_t i = aAt(k), j = bAt(k);
      propagated +=
          std::abs(a[i]) * eb[j] + std::abs(b[j]) * ea[i] + ea[i] * eb[j];
      exact += a[i] * b[j];
    }
    size_t at = result.size();
    result.push_back(propagated +
                     std::abs(dequantize(in.result[at], node.format) - exact));
  });
  return result;
}

/// First order, with each operand's errors taken as fully correlated along
/// the sum: (sum_k |b_k| rms_a,k)^2 + (sum_k |a_k| rms_b,k)^2, plus the
/// result's rounding. Attention sums over tokens (A V) and over a head's
/// features (Q K^T); the tokens' values pass through the same weights,
/// LayerNorm and roundings, so their errors are not independent, and
/// taken as independent they were underestimated by up to twice in rms
/// on a four-layer encoder (docs/Hardware.md, "Transformers").
NoiseEstimate estimate(const HardwareNode &node, const NodeNoise &in) {
  const std::vector<double> &a = in.operands[0], &b = in.operands[1];
  const std::vector<double> &ma = in.meanSquares[0], &mb = in.meanSquares[1];
  double rounding = roundingMeanSquare(node.format);
  NoiseEstimate estimate;
  forEachOutput(node, [&](int64_t inner, auto aAt, auto bAt) {
    double fromA = 0, fromB = 0, exact = 0;
    for (int64_t k = 0; k < inner; ++k) {
      int64_t i = aAt(k), j = bAt(k);
      fromA += std::abs(b[j]) * std::sqrt(ma[i]);
      fromB += std::abs(a[i]) * std::sqrt(mb[j]);
      exact += a[i] * b[j];
    }
    size_t at = estimate.meanSquare.size();
    estimate.meanSquare.push_back(fromA * fromA + fromB * fromB + rounding);
    estimate.saturated += isSaturated(in.result[at], exact, node.format);
  });
  return estimate;
}

/// A's beats carry P_in words of a row (P_in divides INNER); B's and the
/// result's P_out words of a row (P_out divides COLS).
StreamWidths legalWidths(const HardwareNode &node, const StreamWidths &cap) {
  Sizes size = getSizes(node);
  int64_t in = largestDivisorAtMost(size.inner, cap.in[0]);
  int64_t out = largestDivisorAtMost(size.cols, std::min(cap.in[1], cap.out));
  return StreamWidths{{in, out}, out};
}

/// Beats and cycles of one item (fixed_matmul.sv): A's loads, B's loads,
/// and per block of P_out outputs, K/P_in MAC cycles and one emit cycle.
struct Schedule {
  int64_t aBeats, bBeats, blocks, macCycles;
};

Schedule getSchedule(const HardwareNode &node) {
  Sizes size = getSizes(node);
  int64_t in = node.widths.in[0], out = node.widths.out;
  return Schedule{size.rows * size.inner / in, size.inner * size.cols / out,
                  size.rows * size.cols / out, size.inner / in};
}

int64_t itemCycles(const HardwareNode &node) {
  Schedule schedule = getSchedule(node);
  return schedule.aBeats + schedule.bBeats +
         schedule.blocks * (schedule.macCycles + 1);
}

int64_t multipliers(const HardwareNode &node) {
  return node.widths.in[0] * node.widths.out;
}

ComponentTiming timing(const HardwareNode &node) {
  Schedule schedule = getSchedule(node);
  ComponentTiming timing =
      bufferedTiming(schedule.aBeats + schedule.bBeats, schedule.blocks,
                     schedule.macCycles, 1);
  timing.phases = {{0, schedule.aBeats, false}, {1, schedule.bBeats, false}};
  return timing;
}

/// Both operands buffered; P_out accumulators adding P_in products each.
ResourceEstimate resources(const HardwareNode &node) {
  Sizes size = getSizes(node);
  int64_t width = node.format.width;
  ResourceEstimate estimate =
      macResources(node, node.widths.out, 2 * width + ceilLog2(size.inner + 1),
                   multipliers(node), 48);
  estimate.memoryBits =
      (size.rows * size.inner + size.inner * size.cols) * width;
  estimate.flipFlops += node.widths.out * width;
  return estimate;
}

void instanceParameters(const HardwareNode &node, ParameterValues &values) {
  Sizes size = getSizes(node);
  setParameter(values, "ROWS", size.rows);
  setParameter(values, "INNER", size.inner);
  setParameter(values, "COLS", size.cols);
  setParameter(values, "IN_PARALLELISM", node.widths.in[0]);
  setParameter(values, "OUT_PARALLELISM", node.widths.out);
}

constexpr llvm::StringRef parameters[] = {
    "DATA_WIDTH", "FRAC_WIDTH",     "ROWS",           "INNER",
    "COLS",       "IN_PARALLELISM", "OUT_PARALLELISM"};
constexpr llvm::StringRef files[] = {"fixed_round_sat.sv", "fixed_matmul.sv"};
constexpr llvm::StringRef operators[] = {"matmul", "bmm"};

} // namespace

constexpr Component mav::components::fixedMatmul = {
    .module = "fixed_matmul",
    .parameters = parameters,
    .dependenceFiles = files,
    .operators = operators,
    .describe = describe,
    .prepare = prepare,
    .evaluate = evaluate,
    .bound = bound,
    .estimate = estimate,
    .legalWidths = legalWidths,
    .itemCycles = itemCycles,
    .multipliers = multipliers,
    .timing = timing,
    .resources = resources,
    .instanceParameters = instanceParameters,
};
