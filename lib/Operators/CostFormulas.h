//===- CostFormulas.h - The cost formulas of the op table -------*- C++ -*-===//
//
// What the op table (OpTable.cpp) names as an entry's `cost`. Internal to
// lib/Operators: the rest of mav reads a cost through OpInfo::cost.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_OPERATORS_COSTFORMULAS_H
#define MAV_LIB_OPERATORS_COSTFORMULAS_H

#include "mav/Operators/OpRegistry.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace mav::formulas {

using Flops = std::optional<int64_t>;
using Cost = std::optional<OpCost>;

// FLOP counts; `arithmetic` or `contraction` below makes a CostFormula of one.
Flops elementwiseFlops(const CostInputs &inputs);
Flops reductionFlops(const CostInputs &inputs);
Flops selectionFlops(const CostInputs &inputs);
Flops softmaxFlops(const CostInputs &inputs);
Flops normalizationFlops(const CostInputs &inputs);
Flops batchNormFlops(const CostInputs &inputs);
Flops linearFlops(const CostInputs &inputs);
Flops convFlops(const CostInputs &inputs);
Flops convTransposeFlops(const CostInputs &inputs);
Flops convolutionFlops(const CostInputs &inputs);
Flops localResponseNormFlops(const CostInputs &inputs);
Flops bilinearFlops(const CostInputs &inputs);
Flops embeddingBagFlops(const CostInputs &inputs);
Flops rnnCellFlops(const CostInputs &inputs);

// Spectral: FFTs count 5 N log2 N (docs/Visualization.md, "FLOPs").
Flops stftFlops(const CostInputs &inputs);
Flops istftFlops(const CostInputs &inputs);

// Instantiated in CostFormulas.cpp for the arguments the table uses.
template <size_t LhsIndex> Flops matmulFlops(const CostInputs &inputs);
template <size_t SpatialRank> Flops adaptivePoolFlops(const CostInputs &inputs);
template <unsigned KernelArg, size_t Rank>
Flops windowFlops(const CostInputs &inputs);
template <size_t Rank> Flops lpPoolFlops(const CostInputs &inputs);
template <int64_t PerElement>
Flops perInputElementFlops(const CostInputs &inputs);
template <size_t Index> Flops argElementFlops(const CostInputs &inputs);
template <int64_t Taps> Flops interpolationFlops(const CostInputs &inputs);
template <bool OneSided> Flops fftOverDimsFlops(const CostInputs &inputs);

// Cost formulas that count MACs themselves.
Cost uncountedCost(const CostInputs &inputs);
Cost attentionCost(const CostInputs &inputs);
Cost transformerEncoderLayerCost(const CostInputs &inputs);
Cost einsumCost(const CostInputs &inputs);
template <int64_t Gates> Cost recurrentCost(const CostInputs &inputs);

/// A formula counting only FLOPs (no contraction).
template <Flops (*Formula)(const CostInputs &)>
Cost arithmetic(const CostInputs &inputs) {
  Flops flops = Formula(inputs);
  if (!flops)
    return std::nullopt;
  return OpCost{*flops, 0};
}

/// A formula counting multiply-accumulates at 2 FLOPs each.
template <Flops (*Formula)(const CostInputs &)>
Cost contraction(const CostInputs &inputs) {
  Flops flops = Formula(inputs);
  if (!flops)
    return std::nullopt;
  return OpCost{*flops, *flops / 2};
}

} // namespace mav::formulas

#endif // MAV_LIB_OPERATORS_COSTFORMULAS_H
