//===- ShapeRulesTest.cpp - mav's shape rules against libtorch ------------===//
//
// A differential test: for every operator whose registry entry has a shape
// rule, many generated calls, edge cases included, run through libtorch on
// cpu tensors and through the rule (as shape propagation runs it, over the
// bound call's stack). Where libtorch computes, the rule must give the same
// result shapes (and undefined tensors where libtorch returns them); where
// libtorch refuses the arguments, the rule must refuse them too.
//
//===----------------------------------------------------------------------===//

#include "ShapeFunctions.h"

#include "mav/IR/AtenSchemas.h"

#include "gtest/gtest.h"

#include <ATen/ATen.h>
#include <torch/csrc/jit/runtime/operator.h>

#include <functional>
#include <map>
#include <sstream>

using namespace mav;

namespace {

/// One generated call: the full schema-ordered stack.
using Call = torch::jit::Stack;

/// The calls each operator with a rule is tested on.
using Generator = std::function<std::vector<Call>()>;

std::vector<Call> multiHeadAttentionCalls() {
  std::vector<Call> calls;
  auto tensor = [](std::vector<int64_t> shape) { return at::randn(shape); };
  for (int64_t batch : {1, 2, 3})
    for (int64_t length : {1, 3, 6})
      for (int64_t embed : {2, 4, 6, 12})
        for (int64_t heads : {1, 2, 3, 4, 5})
          for (bool needWeights : {true, false})
            for (bool average : {true, false})
              for (int variant = 0; variant < 9; ++variant) {
                std::vector<int64_t> query = {batch, length, embed};
                std::vector<int64_t> key = query;
                int64_t embedArg = embed;
                if (variant == 1) // key of another length
                  key = {batch, length + 1, embed};
                if (variant == 2) // unbatched query
                  query = key = {length, embed};
                if (variant == 3) // embed_dim disagrees with the query
                  embedArg = embed * 2;
                // Masks: key padding [B, L] (type 1), per head [B, H, L, L]
                // (type 2), and refused ones: [B, L, L], no type, type 0.
                c10::IValue mask, maskType;
                auto boolMask = [](std::vector<int64_t> shape) {
                  return at::zeros(shape, at::kBool);
                };
                if (variant == 4 || variant == 7 || variant == 8)
                  mask = boolMask({batch, length});
                if (variant == 5)
                  mask = boolMask({batch, heads, length, length});
                if (variant == 6)
                  mask = boolMask({batch, length, length});
                if (variant == 4 || variant == 6)
                  maskType = int64_t(1);
                if (variant == 5)
                  maskType = int64_t(2);
                if (variant == 8)
                  maskType = int64_t(0);
                calls.push_back({tensor(query), tensor(key), tensor(key),
                                 embedArg, heads, tensor({3 * embed, embed}),
                                 tensor({3 * embed}), tensor({embed, embed}),
                                 tensor({embed}), mask, needWeights, average,
                                 maskType});
              }
  return calls;
}

const std::map<std::string, Generator> &getGenerators() {
  static const std::map<std::string, Generator> generators = {
      {"aten::_native_multi_head_attention", multiHeadAttentionCalls},
  };
  return generators;
}

std::string describe(const Call &call) {
  std::ostringstream os;
  for (const c10::IValue &value : call) {
    if (value.isTensor())
      os << value.toTensor().sizes();
    else
      os << value;
    os << " ";
  }
  return os.str();
}

/// Every rule has a generator here: a rule cannot go untested.
TEST(ShapeRules, EveryRuleIsTested) {
  unsigned rules = 0;
  for (const AtenSchema &schema : getAtenSchemas()) {
    if (!schema.shape)
      continue;
    ++rules;
    std::string target = schema.name.str();
    if (!schema.overload.empty())
      target += "." + schema.overload.str();
    EXPECT_TRUE(getGenerators().count(target))
        << target << " has a shape rule but no generated calls";
  }
  EXPECT_GT(rules, 0u);
}

TEST(ShapeRules, AgreeWithLibtorch) {
  at::manual_seed(0);
  for (const auto &[name, generate] : getGenerators()) {
    const auto &operators =
        torch::jit::getAllOperatorsFor(c10::Symbol::fromQualString(name));
    ASSERT_FALSE(operators.empty()) << name;
    const torch::jit::Operator &op = *operators.front();
    unsigned computed = 0, refused = 0;
    for (const Call &call : generate()) {
      std::optional<std::vector<c10::IValue>> ruled =
          runtime::runShapeRule(op, call);
      torch::jit::Stack stack = call;
      bool ran = true;
      try {
        op.getOperation()(stack);
      } catch (const std::exception &) {
        ran = false;
      }
      if (!ran) {
        ++refused;
        EXPECT_FALSE(ruled) << name << " refuses " << describe(call)
                            << "but its rule gives shapes";
        continue;
      }
      ++computed;
      ASSERT_TRUE(ruled) << name << " computes " << describe(call)
                         << "but its rule refuses it";
      ASSERT_EQ(ruled->size(), stack.size()) << describe(call);
      for (size_t i = 0; i < stack.size(); ++i) {
        const at::Tensor &expected = stack[i].toTensor();
        const at::Tensor &actual = (*ruled)[i].toTensor();
        ASSERT_EQ(actual.defined(), expected.defined())
            << name << " result " << i << " of " << describe(call);
        if (!expected.defined())
          continue;
        EXPECT_EQ(actual.sizes(), expected.sizes())
            << name << " result " << i << " of " << describe(call);
        EXPECT_EQ(actual.scalar_type(), expected.scalar_type());
        EXPECT_TRUE(actual.is_meta());
      }
    }
    // The generator reaches both sides.
    EXPECT_GT(computed, 0u) << name;
    EXPECT_GT(refused, 0u) << name;
  }
}

} // namespace
