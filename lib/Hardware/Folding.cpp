//===- Folding.cpp - Choosing a node's stream widths for a target ---------===//

#include "mav/Hardware/Folding.h"

#include <algorithm>
#include <limits>
#include <tuple>

using namespace mlir;
using namespace mav;

static constexpr int64_t unbounded = std::numeric_limits<int64_t>::max();

/// The divisors of `value`, ascending.
static SmallVector<int64_t> getDivisors(int64_t value) {
  SmallVector<int64_t> divisors;
  for (int64_t divisor = 1; divisor <= value; ++divisor)
    if (value % divisor == 0)
      divisors.push_back(divisor);
  return divisors;
}

static int64_t sumOfWidths(const StreamWidths &widths) {
  int64_t sum = widths.out;
  for (int64_t width : widths.in)
    sum += width;
  return sum;
}

/// The order of enumerateFoldings: fewest multipliers, then the smallest
/// widths.
static bool isCheaper(const Folding &a, const Folding &b) {
  auto key = [](const Folding &folding) {
    return std::make_tuple(folding.multipliers, sumOfWidths(folding.widths),
                           folding.widths.in, folding.widths.out);
  };
  return key(a) < key(b);
}

std::vector<Folding> mav::enumerateFoldings(const HardwareNode &node) {
  const Component &component = *node.component;
  size_t inputs = node.streamOperands.size();
  StreamWidths open{SmallVector<int64_t, 2>(inputs, unbounded), unbounded};
  StreamWidths widest = component.legalWidths(node, open);
  // The candidates of port p are choices[p]; inputs first, then the output.
  SmallVector<SmallVector<int64_t>> choices;
  for (int64_t width : widest.in)
    choices.push_back(getDivisors(width));
  choices.push_back(getDivisors(widest.out));

  std::vector<Folding> foldings;
  SmallVector<size_t> index(choices.size(), 0);
  while (true) {
    StreamWidths candidate;
    for (size_t port = 0; port < inputs; ++port)
      candidate.in.push_back(choices[port][index[port]]);
    candidate.out = choices.back()[index.back()];
    if (component.legalWidths(node, candidate) == candidate) {
      HardwareNode folded = node;
      folded.widths = candidate;
      foldings.push_back(Folding{candidate,
                                 component.itemCycles(folded) * node.items(),
                                 component.multipliers(folded)});
    }
    // The next combination, the last port fastest.
    size_t port = choices.size();
    while (port > 0 && ++index[port - 1] == choices[port - 1].size())
      index[--port] = 0;
    if (port == 0)
      break;
  }
  std::stable_sort(foldings.begin(), foldings.end(), isCheaper);
  return foldings;
}

const Folding &mav::chooseFolding(ArrayRef<Folding> foldings,
                                  int64_t targetCycles, bool &reached) {
  reached = true;
  for (const Folding &folding : foldings)
    if (folding.cycles <= targetCycles)
      return folding;
  reached = false;
  // The cheapest of the fastest: foldings are cheapest first.
  const Folding *fastest = &foldings.front();
  for (const Folding &folding : foldings)
    if (folding.cycles < fastest->cycles)
      fastest = &folding;
  return *fastest;
}

/// The multipliers of every node's folding for `targetCycles`.
static int64_t multipliersAt(ArrayRef<std::vector<Folding>> nodes,
                             int64_t targetCycles) {
  int64_t total = 0;
  bool reached;
  for (const std::vector<Folding> &foldings : nodes)
    total += chooseFolding(foldings, targetCycles, reached).multipliers;
  return total;
}

int64_t mav::minimumMultipliers(ArrayRef<std::vector<Folding>> nodes) {
  return multipliersAt(nodes, unbounded);
}

std::optional<int64_t>
mav::findTargetForBudget(ArrayRef<std::vector<Folding>> nodes, int64_t budget) {
  // No target below the slowest node's fastest folding changes anything.
  int64_t floor = 0;
  for (const std::vector<Folding> &foldings : nodes) {
    int64_t fastest = unbounded;
    for (const Folding &folding : foldings)
      fastest = std::min(fastest, folding.cycles);
    floor = std::max(floor, fastest);
  }
  std::vector<int64_t> targets;
  for (const std::vector<Folding> &foldings : nodes)
    for (const Folding &folding : foldings)
      if (folding.cycles >= floor)
        targets.push_back(folding.cycles);
  llvm::sort(targets);
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  // The first target whose foldings fit the budget.
  auto fits = std::partition_point(
      targets.begin(), targets.end(), [&](int64_t targetCycles) {
        return multipliersAt(nodes, targetCycles) > budget;
      });
  if (fits == targets.end())
    return std::nullopt;
  return *fits;
}
