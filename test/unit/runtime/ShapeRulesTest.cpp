//===- ShapeRulesTest.cpp - mav's shape rules against libtorch ------------===//
//
// A differential test: for every aten overload with a shape rule
// (AtenSchemas.h), many generated calls (ShapeRuleCalls.cpp), edge cases
// included, run through libtorch and through the rule (as shape propagation
// runs it, over the bound call's stack). Where libtorch computes on cpu, the
// rule must give the sizes, strides and dtype of libtorch's result, on the
// meta device where libtorch has a meta kernel, else on cpu; where libtorch
// refuses the arguments, the rule must refuse them too. A rule may decline
// calls it does not model (shape propagation then runs libtorch), but no
// more than half of those libtorch computes.
//
//===----------------------------------------------------------------------===//

#include "ShapeFunctions.h"
#include "ShapeRuleCalls.h"

#include "mav/Operators/AtenSchemas.h"

#include "gtest/gtest.h"

#include <ATen/ATen.h>
#include <c10/util/Logging.h>
#include <torch/csrc/jit/runtime/operator.h>

#include <chrono>
#include <iostream>
#include <sstream>

using namespace mav;
using mav::test::Call;

namespace {

std::string targetOf(const AtenSchema &schema) {
  std::string target = schema.name.str();
  if (!schema.overload.empty())
    target += "." + schema.overload.str();
  return target;
}

/// libtorch's operator for `target` ("aten::add.Tensor"), or null.
std::shared_ptr<torch::jit::Operator> findOperator(const std::string &target) {
  auto [name, overload] = llvm::StringRef(target).split('.');
  for (const auto &op :
       torch::jit::getAllOperatorsFor(c10::Symbol::fromQualString(name.str())))
    if (op->schema().overload_name() == overload.str())
      return op;
  return nullptr;
}

std::string describe(const Call &call) {
  std::ostringstream os;
  for (const c10::IValue &value : call) {
    if (value.isTensor())
      os << value.toTensor().sizes() << "@" << value.toTensor().strides() << ":"
         << value.toTensor().scalar_type();
    else if (value.isTensorList())
      for (const at::Tensor &tensor : value.toTensorList())
        os << tensor.sizes() << "@" << tensor.strides() << ":"
           << tensor.scalar_type() << ",";
    else
      os << value;
    os << " ";
  }
  return os.str();
}

c10::IValue onMeta(const c10::IValue &value) {
  auto meta = [](const at::Tensor &tensor) {
    return at::empty_strided(tensor.sizes(), tensor.strides(),
                             tensor.options().device(c10::kMeta));
  };
  if (value.isTensor() && value.toTensor().defined())
    return meta(value.toTensor());
  if (value.isTensorList()) {
    c10::List<at::Tensor> tensors;
    for (const at::Tensor &tensor : value.toTensorList())
      tensors.push_back(meta(tensor));
    return tensors;
  }
  return value;
}

/// Runs `op` on `stack`; false when libtorch refuses it.
bool run(const torch::jit::Operator &op, torch::jit::Stack &stack) {
  try {
    op.getOperation()(stack);
    return true;
  } catch (const std::exception &) {
    return false;
  }
}

/// Every schema is libtorch's, word for word.
TEST(ShapeRules, SchemasAreLibtorchs) {
  for (const AtenSchema &schema : getAtenSchemas()) {
    std::shared_ptr<torch::jit::Operator> op = findOperator(targetOf(schema));
    ASSERT_TRUE(op) << targetOf(schema) << " is not a libtorch operator";
    EXPECT_EQ(c10::toString(op->schema()), schema.text.str());
    EXPECT_EQ(op->schema().returns().size(), schema.numResults);
  }
}

/// Every rule has generated calls: a rule cannot go untested.
TEST(ShapeRules, EveryRuleIsTested) {
  unsigned rules = 0;
  for (const AtenSchema &schema : getAtenSchemas()) {
    if (!schema.shape)
      continue;
    ++rules;
    EXPECT_TRUE(test::getCallGenerators().count(targetOf(schema)))
        << targetOf(schema) << " has a shape rule but no generated calls";
  }
  EXPECT_GT(rules, 0u);
}

TEST(ShapeRules, AgreeWithLibtorch) {
  at::manual_seed(0);
  // Refused calls throw; a c10::Error without a backtrace costs microseconds
  // instead of milliseconds.
  c10::SetStackTraceFetcher([] { return std::string(); });
  for (const auto &[target, generate] : test::getCallGenerators()) {
    std::shared_ptr<torch::jit::Operator> op = findOperator(target);
    ASSERT_TRUE(op) << target;
    auto start = std::chrono::steady_clock::now();
    unsigned computed = 0, refused = 0, declined = 0, failures = 0;
    for (const Call &call : generate()) {
      std::optional<std::vector<c10::IValue>> ruled =
          runtime::runShapeRule(*op, call);
      torch::jit::Stack meta;
      for (const c10::IValue &value : call)
        meta.push_back(onMeta(value));
      bool ranOnMeta = run(*op, meta);
      torch::jit::Stack cpu = call;
      if (!run(*op, cpu)) {
        ++refused;
        EXPECT_FALSE(ruled) << target << " refuses " << describe(call)
                            << "but its rule gives results";
        continue;
      }
      ++computed;
      const torch::jit::Stack &expected = ranOnMeta ? meta : cpu;
      // A rule may decline what it does not model (a layout, a dtype):
      // shape propagation then runs libtorch.
      if (!ruled) {
        ++declined;
        continue;
      }
      ASSERT_EQ(ruled->size(), expected.size()) << describe(call);
      for (size_t i = 0; i < expected.size(); ++i) {
        const at::Tensor &want = expected[i].toTensor();
        const at::Tensor &got = (*ruled)[i].toTensor();
        ASSERT_EQ(got.defined(), want.defined())
            << target << " result " << i << " of " << describe(call);
        if (!want.defined())
          continue;
        bool same = got.sizes() == want.sizes() &&
                    got.strides() == want.strides() &&
                    got.scalar_type() == want.scalar_type();
        if (!same) {
          ADD_FAILURE() << target << " of " << describe(call) << "gives "
                        << want.sizes() << "@" << want.strides() << ":"
                        << want.scalar_type()
                        << (ranOnMeta ? " (meta)" : " (cpu)") << ", its rule "
                        << got.sizes() << "@" << got.strides() << ":"
                        << got.scalar_type();
          ++failures;
        }
      }
      if (failures > 10)
        break;
    }
    // The rule computes most of what libtorch computes.
    EXPECT_GT(computed, 0u) << target;
    EXPECT_LT(declined, computed / 2 + 1)
        << target << ": the rule declines " << declined << " of " << computed
        << " calls libtorch computes";
    std::cout << target << ": " << computed - declined << " agree, " << declined
              << " declined, " << refused << " refused by both ("
              << std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::steady_clock::now() - start)
                     .count()
              << " ms)\n";
  }
}

} // namespace
