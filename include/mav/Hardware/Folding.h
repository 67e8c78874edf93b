//===- Folding.h - Choosing a node's stream widths for a target -*- C++ -*-===//
//
// The model behind -mav-fold-parallelism (docs/Passes.md), after FINN's
// SetFolding. A folding of a node is one legal assignment of its stream
// widths (its component's legalWidths); it costs the multipliers the
// instance then has and takes itemCycles x items cycles per frame (one graph
// input, the batch included), the component's exact no-stall count. The
// design's cycles per frame are, to first order, the largest node's: the
// components are not pipelined inside, but run concurrently on consecutive
// items, so the slowest one sets the rate. Libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_HARDWARE_FOLDING_H
#define MAV_HARDWARE_FOLDING_H

#include "mav/Hardware/HardwareGraph.h"

#include <optional>
#include <vector>

namespace mav {

/// One way to fold a node: its stream widths and what they give.
struct Folding {
  StreamWidths widths;
  /// Cycles per frame: itemCycles at these widths times the node's items.
  int64_t cycles = 0;
  /// The instance's multipliers at these widths.
  int64_t multipliers = 0;
};

/// Every legal folding of `node` (its widths are ignored), cheapest first:
/// fewest multipliers, then the smallest sum of widths, then the widths in
/// lexicographic order (inputs, then output). The candidates are the
/// divisors of each port's widest legal width; a candidate is legal when
/// the component's legalWidths keeps it as it is.
std::vector<Folding> enumerateFoldings(const HardwareNode &node);

/// The folding of a node for `targetCycles`: the cheapest (the first of
/// `foldings`) whose cycles are at most the target; when none is, the
/// fastest (fewest cycles, then the cheapest), and `reached` is false.
const Folding &chooseFolding(llvm::ArrayRef<Folding> foldings,
                             int64_t targetCycles, bool &reached);

/// The smallest target in cycles per frame whose foldings (chooseFolding of
/// every node) have at most `budget` multipliers in all, among the nodes'
/// folding cycles no lower than the slowest node's fastest; none when even
/// the cheapest foldings need more. Every node's multipliers fall (or stay)
/// as the target rises, so the search is a bisection, and its result is
/// the lowest bottleneck within the budget.
std::optional<int64_t>
findTargetForBudget(llvm::ArrayRef<std::vector<Folding>> nodes, int64_t budget);

/// The multipliers of every node's cheapest folding (chooseFolding with no
/// limit): the least any folding of the design needs.
int64_t minimumMultipliers(llvm::ArrayRef<std::vector<Folding>> nodes);

} // namespace mav

#endif // MAV_HARDWARE_FOLDING_H
