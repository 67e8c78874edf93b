//===- NodeMetadataTest.cpp - Common metadata without what types say ----===//
//
// setCommonMeta stores less than it is given, and getCommonMeta gives all of
// it back: for tensors that are contiguous or not, fixed-point formats,
// constants, a module's weights (not values of the graph), a dynamic
// extent, and results that say more than their type.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/MavDialect.h"
#include "mav/IR/MavOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mav;

namespace {

constexpr const char *kModule = R"mlir(
mav.graph @forward(%x: tensor<2x4xf32>, %n: tensor<?x4xf32>) -> tensor<4x2xf32> {
  %t = mav.call_method "transpose" (%x, 0, 1) : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %fc = mav.call_module "fc" (%t) {module_class = "torch.nn.modules.linear.Linear"} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %r = mav.call_function "aten::relu" (%n) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  mav.output %fc : tensor<4x2xf32>
}
)mlir";

class NodeMetadataTest : public ::testing::Test {
protected:
  NodeMetadataTest() {
    context.loadDialect<MavDialect>();
    module = parseSourceString<ModuleOp>(kModule, &context);
  }

  Operation *node(StringRef name) {
    Operation *found = nullptr;
    module->walk([&](NodeOpInterface node) {
      if (node.getNodeName() == name)
        found = node;
    });
    return found;
  }

  ValueMetaAttr value(StringRef name, ArrayRef<int64_t> shape,
                      StringRef kind = "float",
                      ArrayRef<int64_t> precision = {32},
                      ArrayRef<int64_t> stride = {}, Attribute constant = {}) {
    Builder builder(&context);
    return ValueMetaAttr::get(
        &context, name,
        shape.empty() ? nullptr : builder.getDenseI64ArrayAttr(shape),
        shape.empty() ? "" : "torch.float32", kind,
        precision.empty() ? nullptr : builder.getDenseI64ArrayAttr(precision),
        stride.empty() ? nullptr : builder.getDenseI64ArrayAttr(stride),
        constant);
  }

  /// Stores `complete` on `name` and checks what comes back and what is kept.
  CommonMetaAttr roundTrip(StringRef name, ArrayRef<Attribute> args,
                           ArrayRef<Attribute> results) {
    Builder builder(&context);
    Operation *op = node(name);
    auto complete = CommonMetaAttr::get(&context, "module_related_func", "op",
                                        builder.getArrayAttr(args),
                                        builder.getArrayAttr(results));
    setCommonMeta(op, complete);
    EXPECT_EQ(cast<NodeOpInterface>(op).getCommonMeta(), complete);
    EXPECT_TRUE(succeeded(verify(*module)));
    return op->getAttrOfType<CommonMetaAttr>("common");
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(NodeMetadataTest, KeepsOnlyWhatTheTypesDoNotSay) {
  Builder builder(&context);
  CommonMetaAttr stored = roundTrip(
      "t",
      {value("data_in_0", {2, 4}, "float", {32}, {4, 1}),
       value("dim0", {}, "int", {}, {}, builder.getI64IntegerAttr(0)),
       value("dim1", {}, "int", {}, {}, builder.getI64IntegerAttr(1))},
      {value("data_out_0", {4, 2}, "float", {32}, {1, 4})});
  ASSERT_TRUE(stored);
  // The contiguous input says nothing its type does not.
  EXPECT_EQ(stored.getArgs()[0],
            ValueMetaAttr::get(&context, "data_in_0", {}, "", "", {}, {}, {}));
  // Constants keep their kind and value.
  EXPECT_EQ(stored.getArgs()[1],
            value("dim0", {}, "int", {}, {}, builder.getI64IntegerAttr(0)));
  // The transposed result keeps its strides, and only them.
  ASSERT_TRUE(stored.getResults());
  EXPECT_EQ(stored.getResults()[0],
            ValueMetaAttr::get(&context, "data_out_0", {}, "", "", {},
                               builder.getDenseI64ArrayAttr({1, 4}), {}));
}

TEST_F(NodeMetadataTest, LeavesOutResultsThatSayNothing) {
  CommonMetaAttr stored =
      roundTrip("t", {value("data_in_0", {2, 4}, "float", {32}, {4, 1})},
                {value("data_out_0", {4, 2}, "float", {32}, {2, 1})});
  ASSERT_TRUE(stored);
  EXPECT_FALSE(stored.getResults());
}

TEST_F(NodeMetadataTest, KeepsFixedPointFormats) {
  CommonMetaAttr stored =
      roundTrip("t", {value("data_in_0", {2, 4}, "fixed", {8, 4}, {4, 1})},
                {value("data_out_0", {4, 2}, "fixed", {8, 4}, {1, 4})});
  ASSERT_TRUE(stored);
  auto input = stored.getArgs()[0].cast<ValueMetaAttr>();
  EXPECT_FALSE(input.getShape());
  EXPECT_EQ(input.getType(), "fixed");
  EXPECT_EQ(input.getPrecision().asArrayRef(), ArrayRef<int64_t>({8, 4}));
}

TEST_F(NodeMetadataTest, KeepsModuleWeightsWhole) {
  ValueMetaAttr weight = value("weight", {2, 2});
  CommonMetaAttr stored = roundTrip(
      "fc", {value("data_in_0", {4, 2}, "float", {32}, {1, 4}), weight},
      {value("data_out_0", {4, 2}, "float", {32}, {2, 1})});
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored.getArgs()[1], weight);
}

TEST_F(NodeMetadataTest, DynamicExtentsKeepTheirStrides) {
  CommonMetaAttr stored = roundTrip(
      "r",
      {value("data_in_0", {ShapedType::kDynamic, 4}, "float", {32}, {4, 1})},
      {value("data_out_0", {ShapedType::kDynamic, 4}, "float", {32}, {4, 1})});
  ASSERT_TRUE(stored);
  auto input = stored.getArgs()[0].cast<ValueMetaAttr>();
  EXPECT_FALSE(input.getShape());
  ASSERT_TRUE(input.getStride());
}

TEST_F(NodeMetadataTest, ShapesThatDisagreeAreKept) {
  // Not what the type says: stored as given, and the verifier names it.
  Builder builder(&context);
  Operation *op = node("r");
  auto complete = CommonMetaAttr::get(
      &context, "module_related_func", "relu", builder.getArrayAttr({}),
      builder.getArrayAttr({value("data_out_0", {3, 5})}));
  setCommonMeta(op, complete);
  EXPECT_EQ(cast<NodeOpInterface>(op).getCommonMeta(), complete);
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  EXPECT_TRUE(failed(verify(*module)));
}

} // namespace
