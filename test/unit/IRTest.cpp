//===- IRTest.cpp - Building mav IR from C++
//-------------------------------===//

#include "mav/IR/MavOps.h"
#include "mav/IR/NodeArguments.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mav;

namespace {

class IRTest : public ::testing::Test {
protected:
  IRTest() { context.loadDialect<MavDialect>(); }
  MLIRContext context;
};

/// Builds `forward(x) = relu(x) + x` through the C++ API and checks that its
/// printed form parses back to the same text.
TEST_F(IRTest, BuildPrintParse) {
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());

  Type tensor = RankedTensorType::get({2, 3}, builder.getF32Type());
  auto graph = builder.create<GraphOp>(
      loc, builder.getStringAttr("forward"),
      TypeAttr::get(builder.getFunctionType({tensor}, {tensor})),
      builder.getStrArrayAttr({"x"}), StringAttr());
  Block *body = builder.createBlock(&graph.getBody(), {}, {tensor}, {loc});
  Value x = body->getArgument(0);

  ArgumentTreeBuilder reluArgs(&context);
  Attribute reluInput = reluArgs.use(x);
  auto relu = builder.create<CallFunctionOp>(
      loc, TypeRange{tensor}, reluArgs.getOperands(),
      builder.getStringAttr("aten::relu"), builder.getArrayAttr({reluInput}),
      builder.getDictionaryAttr({}), builder.getStringAttr("relu"), Attribute(),
      Attribute(), Attribute(), Attribute());

  ArgumentTreeBuilder addArgs(&context);
  SmallVector<Attribute> positional = {addArgs.use(relu.getResult(0)),
                                       addArgs.use(x)};
  NamedAttribute alpha(builder.getStringAttr("alpha"),
                       builder.getI64IntegerAttr(1));
  auto add = builder.create<CallFunctionOp>(
      loc, TypeRange{tensor}, addArgs.getOperands(),
      builder.getStringAttr("aten::add"), builder.getArrayAttr(positional),
      builder.getDictionaryAttr({alpha}), builder.getStringAttr("add"),
      Attribute(), Attribute(), Attribute(), Attribute());

  ArgumentTreeBuilder outputArgs(&context);
  Attribute outputValue = outputArgs.use(add.getResult(0));
  builder.create<OutputOp>(loc, outputArgs.getOperands(), outputValue);
  ASSERT_TRUE(succeeded(verify(*module)));

  std::string printed;
  llvm::raw_string_ostream(printed) << *module;
  EXPECT_NE(printed.find("%relu = mav.call_function \"aten::relu\" (%x)"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("(%relu, %x, alpha = 1)"), std::string::npos)
      << printed;

  OwningOpRef<ModuleOp> reparsed =
      parseSourceString<ModuleOp>(printed, &context);
  ASSERT_TRUE(reparsed);
  std::string reprinted;
  llvm::raw_string_ostream(reprinted) << *reparsed;
  EXPECT_EQ(printed, reprinted);
}

TEST_F(IRTest, ArgumentTreeOrderIsChecked) {
  Builder builder(&context);
  Attribute second = OperandRefAttr::get(&context, 1);
  Attribute first = OperandRefAttr::get(&context, 0);
  std::string messages;
  ScopedDiagnosticHandler collect(&context, [&](Diagnostic &diagnostic) {
    messages += diagnostic.str() + "\n";
  });
  auto verify = [&](ArrayRef<Attribute> roots, unsigned numOperands) {
    return verifyArgumentTree(roots, numOperands, [&] {
      return mlir::emitError(builder.getUnknownLoc());
    });
  };
  EXPECT_TRUE(succeeded(verify({first, second}, 2)));
  EXPECT_TRUE(failed(verify({second, first}, 2)));
  EXPECT_TRUE(failed(verify({first}, 2)));
  EXPECT_TRUE(failed(verify({builder.getI32IntegerAttr(3)}, 0)));
  EXPECT_EQ(messages, "operand reference #1 is out of order: expected #0\n"
                      "arguments reference 1 operands but the node has 2\n"
                      "argument 3 : i32 is not an int (i64), float (f64), "
                      "bool, None, string, list, tuple, dict, dtype, device, "
                      "memory format, layout or operand\n");
}

/// Bytecode can give a node a builtin tensor type that text would not parse
/// (a tensor of tensors); such a value is no mav value, and the verifier says
/// so rather than letting it print as unreadable text.
TEST_F(IRTest, TensorOfInvalidElementTypeIsNoValue) {
  Builder builder(&context);
  Type element = RankedTensorType::get({4}, builder.getF32Type());
  EXPECT_TRUE(isValueType(RankedTensorType::get({2}, builder.getF32Type())));
  EXPECT_FALSE(isValueType(RankedTensorType::get({2}, element)));
  EXPECT_FALSE(isValueType(UnrankedTensorType::get(element)));
  EXPECT_TRUE(isValueType(UnknownTensorType::get(&context)));
}

} // namespace
