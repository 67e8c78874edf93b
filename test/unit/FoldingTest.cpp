//===- FoldingTest.cpp - The folding model of -mav-fold-parallelism -------===//
//
// enumerateFoldings on a linear node against fixed_linear's documented cycle
// formula; chooseFolding and findTargetForBudget on hand-made foldings.
//
//===----------------------------------------------------------------------===//

#include "mav/Hardware/Folding.h"

#include "gtest/gtest.h"

#include <set>
#include <utility>

using namespace mav;

namespace {

/// A linear node 6 -> 4 on a batch of 2 vectors.
HardwareNode makeLinear() {
  HardwareNode node;
  node.component = lookupComponent("fixed_linear");
  node.inShape = {2, 6};
  node.outShape = {2, 4};
  return node;
}

Folding makeFolding(int64_t in, int64_t out, int64_t cycles,
                    int64_t multipliers) {
  return Folding{StreamWidths{{in}, out}, cycles, multipliers};
}

} // namespace

TEST(FoldingTest, LinearFoldingsAreEveryPairOfDivisorsCheapestFirst) {
  HardwareNode node = makeLinear();
  ASSERT_NE(node.component, nullptr);
  std::vector<Folding> foldings = enumerateFoldings(node);
  std::set<std::pair<int64_t, int64_t>> seen;
  for (const Folding &folding : foldings) {
    int64_t in = folding.widths.in[0], out = folding.widths.out;
    EXPECT_EQ(6 % in, 0);
    EXPECT_EQ(4 % out, 0);
    seen.insert({in, out});
    // fixed_linear.sv: IN/P_in + (OUT/P_out)(IN/P_in + 1) per vector.
    EXPECT_EQ(folding.cycles, 2 * (6 / in + (4 / out) * (6 / in + 1)));
    EXPECT_EQ(folding.multipliers, in * out);
  }
  EXPECT_EQ(seen.size(), 4u * 3u);
  EXPECT_EQ(foldings.size(), seen.size());
  for (size_t i = 1; i < foldings.size(); ++i)
    EXPECT_LE(foldings[i - 1].multipliers, foldings[i].multipliers);
  // Two multipliers: (1,2) before (2,1), the widths in order.
  EXPECT_EQ(foldings[1].widths, (StreamWidths{{1}, 2}));
  EXPECT_EQ(foldings[2].widths, (StreamWidths{{2}, 1}));
}

TEST(FoldingTest, ChooseTakesTheCheapestWithinTheTargetElseTheFastest) {
  std::vector<Folding> foldings = {
      makeFolding(1, 1, 100, 1), makeFolding(1, 2, 60, 2),
      makeFolding(2, 1, 50, 2), makeFolding(2, 2, 30, 4),
      makeFolding(2, 4, 30, 8)};
  bool reached;
  EXPECT_EQ(chooseFolding(foldings, 100, reached).cycles, 100);
  EXPECT_TRUE(reached);
  EXPECT_EQ(chooseFolding(foldings, 55, reached).widths,
            (StreamWidths{{2}, 1}));
  EXPECT_TRUE(reached);
  const Folding &fastest = chooseFolding(foldings, 10, reached);
  EXPECT_FALSE(reached);
  EXPECT_EQ(fastest.widths, (StreamWidths{{2}, 2})); // the cheaper of the 30s
}

TEST(FoldingTest, BudgetGivesTheLowestBottleneckThatFits) {
  // Node a: 100 cycles at 1 multiplier, 40 at 4, 20 at 8; node b: 50
  // cycles at 1, 25 at 3; b cannot go below 25.
  std::vector<std::vector<Folding>> nodes = {
      {makeFolding(1, 1, 100, 1), makeFolding(2, 2, 40, 4),
       makeFolding(2, 4, 20, 8)},
      {makeFolding(1, 1, 50, 1), makeFolding(1, 3, 25, 3)}};
  EXPECT_EQ(minimumMultipliers(nodes), 2);
  EXPECT_EQ(findTargetForBudget(nodes, 1), std::nullopt);
  EXPECT_EQ(findTargetForBudget(nodes, 2), 100);
  EXPECT_EQ(findTargetForBudget(nodes, 4), 100);
  // 50: a 4 (40 cycles) + b 1.
  EXPECT_EQ(findTargetForBudget(nodes, 5), 50);
  EXPECT_EQ(findTargetForBudget(nodes, 6), 50);
  // 40: a 4 + b 3 (b's 50 is over).
  EXPECT_EQ(findTargetForBudget(nodes, 7), 40);
  // 25 is b's floor: a needs 8 there (20), b 3.
  EXPECT_EQ(findTargetForBudget(nodes, 10), 40);
  EXPECT_EQ(findTargetForBudget(nodes, 11), 25);
  EXPECT_EQ(findTargetForBudget(nodes, 1000), 25);
}
