//===- PassesTest.cpp - mav passes driven from C++ ------------------------===//

#include "mav/IR/MavOps.h"
#include "mav/Passes/AnalysisPasses.h"
#include "mav/Passes/TransformPasses.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mav;

namespace {

constexpr llvm::StringLiteral twoDropouts = R"mlir(
mav.graph @forward(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %d0 = mav.call_function "aten::dropout" (%x, 5.000000e-01, false) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %d1 = mav.call_function "aten::dropout" (%d0, 5.000000e-01, false) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  mav.output %d1 : tensor<2x4xf32>
}
)mlir";

/// The dropout_count of the last pass output the module records.
int64_t lastDropoutCount(ModuleOp module) {
  auto records =
      module->getAttrOfType<ArrayAttr>(MavDialect::getPassOutputsAttrName());
  auto last = records[records.size() - 1].cast<PassOutputAttr>();
  return last.getOutputs().getAs<IntegerAttr>("dropout_count").getInt();
}

/// A PassManager may be run more than once; each run of a pass instance
/// counts afresh.
TEST(PassesTest, CountDropoutRunTwiceCountsOnce) {
  MLIRContext context;
  context.loadDialect<MavDialect>();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(twoDropouts, &context);
  ASSERT_TRUE(module);
  PassManager pm(&context);
  pm.addPass(createCountDropout());
  for (int run = 0; run < 3; ++run) {
    ASSERT_TRUE(succeeded(pm.run(*module)));
    EXPECT_EQ(lastDropoutCount(*module), 2) << "run " << run;
  }
}

} // namespace
