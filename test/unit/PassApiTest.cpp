//===- PassApiTest.cpp - The IR API for pass authors ----------------------===//
//
// WeightData.h, ModuleNodes.h, ArgumentEditor.h, NodeBuilder.h,
// GraphCleanup.h and the node walks of OperatorInference.h, on a small
// parsed module: a conv2d module without bias and a relu.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/ArgumentEditor.h"
#include "mav/IR/GraphCleanup.h"
#include "mav/IR/ModuleNodes.h"
#include "mav/IR/NodeBuilder.h"
#include "mav/IR/WeightData.h"
#include "mav/Operators/OperatorInference.h"

#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mav;

namespace {

constexpr const char *kModule = R"mlir(
mav.weight @conv.weight parameter = dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]]> : tensor<2x2x1x1xf32>
mav.weight @head.weight parameter = dense<0.5> : tensor<2xf32>
mav.weight @spare parameter = dense<1.0> : tensor<2xf32>
mav.weight @alias parameter = dense<0.5> : tensor<2xf32> {tied_to = @head.weight}
mav.graph @forward(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %conv = mav.call_module "conv" (%x) {body = @conv.forward, module_class = "torch.nn.modules.conv.Conv2d"} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %relu = mav.call_function "aten::relu" (%conv) : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %sigmoid = mav.call_function "aten::sigmoid" (%relu) : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %unused = mav.call_function "aten::neg" (%sigmoid) : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %relu_ = mav.call_function "aten::relu_" (%conv) : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  mav.output %relu : tensor<1x2x3x3xf32>
}
mav.graph private @conv.forward(%input: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %conv_weight = mav.get_attr @conv.weight : tensor<2x2x1x1xf32>
  %_convolution = mav.call_function "aten::_convolution" (%input, %conv_weight, None, [1, 1], [0, 0], [1, 1], false, [0, 0], 1, false, false, true, true) : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  mav.output %_convolution : tensor<1x2x3x3xf32>
}
mav.graph private @orphan.forward(%input: !mav.tensor) -> !mav.tensor {
  mav.output %input : !mav.tensor
}
)mlir";

class PassApiTest : public ::testing::Test {
protected:
  PassApiTest() {
    context.loadDialect<MavDialect>();
    module = parseSourceString<ModuleOp>(kModule, &context);
  }
  template <typename OpT> OpT find(StringRef name) {
    OpT found;
    module->walk([&](OpT op) {
      if (cast<NodeOpInterface>(op.getOperation()).getNodeName() == name)
        found = op;
    });
    return found;
  }
  WeightOp weight(StringRef name) {
    return SymbolTable(*module).lookup<WeightOp>(name);
  }
  /// Collects diagnostics instead of printing them.
  std::string diagnostics;
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  ScopedDiagnosticHandler handler{&context, [this](Diagnostic &diagnostic) {
                                    diagnostics += diagnostic.str() + "\n";
                                    for (Diagnostic &note :
                                         diagnostic.getNotes())
                                      diagnostics += note.str() + "\n";
                                    return success();
                                  }};
};

TEST_F(PassApiTest, ReadsWeightsInPlaceAndTyped) {
  ASSERT_TRUE(module);
  FailureOr<ArrayRef<float>> data = getWeightData<float>(weight("conv.weight"));
  ASSERT_TRUE(succeeded(data));
  EXPECT_EQ(SmallVector<float>(data->begin(), data->end()),
            (SmallVector<float>{1, 2, 3, 4}));
  // A splat has no element array to view; readWeightData expands it.
  EXPECT_TRUE(failed(getWeightData<float>(weight("spare"))));
  EXPECT_EQ(*readWeightData<float>(weight("spare")),
            (SmallVector<float>{1, 1}));
  // The wrong C++ type is refused, naming the weight.
  EXPECT_TRUE(failed(getWeightData<double>(weight("conv.weight"))));
  EXPECT_NE(diagnostics.find("weight 'conv.weight' holds 'f32' elements, not "
                             "double"),
            std::string::npos);
}

TEST_F(PassApiTest, WritesWeightsAndTheirTies) {
  ASSERT_TRUE(module);
  SmallVector<float> values = {7, 8};
  ASSERT_TRUE(succeeded(setWeightData<float>(weight("head.weight"), values)));
  EXPECT_EQ(*readWeightData<float>(weight("head.weight")), values);
  // The weight tied to it shares its value, as PyTorch shares a Parameter.
  EXPECT_EQ(*readWeightData<float>(weight("alias")), values);
  // Written again, the blob is replaced in place, under the same key.
  auto key = [&] {
    return weight("head.weight")
        .getValue()
        .cast<DenseResourceElementsAttr>()
        .getRawHandle()
        .getKey()
        .str();
  };
  std::string before = key();
  SmallVector<float> again = {9, 10};
  ASSERT_TRUE(succeeded(setWeightData<float>(weight("head.weight"), again)));
  EXPECT_EQ(key(), before);
  EXPECT_EQ(*readWeightData<float>(weight("head.weight")), again);
  EXPECT_EQ(*readWeightData<float>(weight("alias")), again);
  // A tied name is written through the weight it is tied to.
  EXPECT_TRUE(failed(setWeightData<float>(weight("alias"), values)));
  // A new type: the values must fill it.
  auto type = RankedTensorType::get({1, 2}, Float32Type::get(&context));
  EXPECT_TRUE(succeeded(setWeightData<float>(weight("spare"), values, type)));
  EXPECT_EQ(weight("spare").getWeightType(), type);
  SmallVector<int64_t> wrong = {1, 2};
  EXPECT_TRUE(failed(setWeightData<int64_t>(weight("spare"), wrong)));
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(PassApiTest, CreatesAndErasesWeights) {
  ASSERT_TRUE(module);
  auto type = RankedTensorType::get({2}, Float32Type::get(&context));
  SmallVector<float> values = {1, 2};
  WeightOp created =
      createWeight<float>(*module, "spare", WeightKind::buffer, type, values);
  EXPECT_NE(created.getSymName(), "spare"); // renamed: the name is taken
  EXPECT_EQ(*readWeightData<float>(created), values);
  EXPECT_TRUE(succeeded(eraseWeight(created)));
  // A weight a node reads cannot go.
  EXPECT_TRUE(failed(eraseWeight(weight("conv.weight"))));
  EXPECT_NE(diagnostics.find("read by node 'conv_weight'"), std::string::npos);
  // Unused: spare (the tie keeps head.weight, nothing keeps alias).
  EXPECT_EQ(eraseUnusedWeights(*module), 2u);
  EXPECT_TRUE(weight("head.weight"));
  EXPECT_FALSE(weight("spare"));
}

TEST_F(PassApiTest, ModuleOwnsWhatItsBodyReads) {
  ASSERT_TRUE(module);
  SymbolTableCollection symbols;
  auto conv = find<CallModuleOp>("conv");
  GraphOp body = getModuleBody(conv, symbols);
  ASSERT_TRUE(body);
  EXPECT_EQ(body.getSymName(), "conv.forward");
  SmallVector<ModuleWeight> owned = getModuleWeights(conv, symbols);
  ASSERT_EQ(owned.size(), 1u);
  EXPECT_EQ(owned[0].localName, "weight");
  EXPECT_EQ(owned[0].weight, weight("conv.weight"));
  EXPECT_EQ(lookupModuleWeight(conv, "weight", symbols), weight("conv.weight"));
  EXPECT_FALSE(lookupModuleWeight(conv, "bias", symbols));
  // The module's mase_op comes from its class, its body's from aten.
  EXPECT_EQ(getMaseOp(conv), "conv2d");
  FailureOr<AtenCall> call = getAtenCall(conv, symbols);
  ASSERT_TRUE(succeeded(call));
  EXPECT_EQ(getMaseOp(call->call), "convolution");
  EXPECT_EQ(getWeightArgument(*call, 1, "weight", symbols),
            weight("conv.weight"));
  EXPECT_FALSE(getWeightArgument(*call, 2, "bias", symbols));
}

/// What folding a batch norm does to a conv without bias: a new weight, read
/// in the body, passed as the call's third argument.
TEST_F(PassApiTest, AddsABiasThroughTheApi) {
  ASSERT_TRUE(module);
  SymbolTableCollection symbols;
  auto conv = find<CallModuleOp>("conv");
  auto type = RankedTensorType::get({2}, Float32Type::get(&context));
  SmallVector<float> values = {0.25, -0.25};
  FailureOr<ModuleWeight> bias = addModuleWeight<float>(
      conv, "bias", WeightKind::parameter, type, values, symbols);
  ASSERT_TRUE(succeeded(bias));
  EXPECT_EQ(bias->weight.getSymName(), "conv.bias");
  EXPECT_EQ(bias->read.getName(), "conv_bias");
  FailureOr<AtenCall> call = getAtenCall(conv, symbols);
  ASSERT_TRUE(succeeded(call));
  ArgumentEditor edit(call->call);
  EXPECT_FALSE(edit.getValue(2));
  EXPECT_TRUE(edit.getConstant(2).isa<NoneAttr>());
  edit.set(2, bias->read.getResult());
  edit.apply();
  EXPECT_TRUE(succeeded(verify(*module)));
  EXPECT_EQ(lookupModuleWeight(conv, "bias", symbols), bias->weight);
  call = getAtenCall(conv, symbols);
  EXPECT_EQ(getWeightArgument(*call, 2, "bias", symbols), bias->weight);
  // Operands are renumbered in tree order: input, weight, bias.
  EXPECT_EQ(call->call->getNumOperands(), 3u);
  EXPECT_EQ(call->call->getOperand(2), bias->read.getResult());
}

TEST_F(PassApiTest, EditsKeywordsAndStructures) {
  ASSERT_TRUE(module);
  auto relu = find<CallFunctionOp>("relu");
  Value conv = relu->getOperand(0);
  Value x = conv.getDefiningOp()->getOperand(0);
  ArgumentEditor edit(relu);
  edit.setKeyword("extra", edit.use(x));
  edit.append(Builder(&context).getI64IntegerAttr(3));
  edit.set(0, Builder(&context).getArrayAttr({edit.use(x), edit.use(conv)}));
  edit.apply();
  // Positional first ([x, conv], 3), then keywords: x again.
  ASSERT_EQ(relu->getNumOperands(), 3u);
  EXPECT_EQ(relu->getOperand(0), x);
  EXPECT_EQ(relu->getOperand(1), conv);
  EXPECT_EQ(relu->getOperand(2), x);
  EXPECT_TRUE(succeeded(verify(*module)));
  ArgumentEditor again(relu);
  EXPECT_EQ(again.getKeywordValue("extra"), x);
  again.eraseKeyword("extra");
  again.erase(0);
  again.apply();
  EXPECT_EQ(relu->getNumOperands(), 0u);
  EXPECT_TRUE(relu.getKwargs().empty());
}

TEST_F(PassApiTest, EditingDropsStaleMetadata) {
  ASSERT_TRUE(module);
  auto relu = find<CallFunctionOp>("relu");
  relu->setAttr("common", CommonMetaAttr::get(&context, "builtin_func", "relu",
                                              ArrayAttr(), ArrayAttr()));
  ArgumentEditor edit(relu);
  edit.apply();
  EXPECT_FALSE(relu.getCommonAttr());
}

TEST_F(PassApiTest, NamesNewNodesAsFxDoes) {
  ASSERT_TRUE(module);
  auto relu = find<CallFunctionOp>("relu");
  relu->setAttr("scope", ScopeAttr::get(&context, "block", "my.Block"));
  NodeBuilder nodes = NodeBuilder::after(relu);
  ArgumentTreeBuilder args(&context);
  // The operands are read when the call is built, after its arguments.
  CallFunctionOp again = nodes.createCallFunction(
      relu.getLoc(), "aten::relu_", {args.use(relu->getOperand(0))}, {}, args,
      relu->getResultTypes());
  EXPECT_EQ(again.getName(), "relu_1"); // relu is taken; `_` dropped as FX
  EXPECT_EQ(again->getNumOperands(), 1u);
  EXPECT_EQ(again->getPrevNode(), relu.getOperation());
  EXPECT_EQ(again.getScopeAttr(), relu.getScopeAttr());
  ArgumentTreeBuilder methodArgs(&context);
  CallMethodOp method = nodes.createCallMethod(
      relu.getLoc(), "relu", {methodArgs.use(relu->getOperand(0))}, {},
      methodArgs, relu->getResultTypes());
  EXPECT_EQ(method.getName(), "relu_2");
  GetAttrOp read = nodes.createGetAttr(relu.getLoc(), weight("head.weight"));
  EXPECT_EQ(read.getName(), "head_weight");
  EXPECT_EQ(nodes.claimName("x"), "x_1"); // placeholders are taken too
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(PassApiTest, ErasesDeadNodesAndBodies) {
  ASSERT_TRUE(module);
  auto graph = SymbolTable(*module).lookup<GraphOp>("forward");
  // neg and then sigmoid are dead; relu_ writes its input and stays.
  EXPECT_EQ(eraseDeadNodes(graph), 2u);
  EXPECT_FALSE(find<CallFunctionOp>("sigmoid"));
  EXPECT_TRUE(find<CallFunctionOp>("relu_"));
  eraseUnusedBodies(*module);
  EXPECT_FALSE(SymbolTable(*module).lookup("orphan.forward"));
  EXPECT_TRUE(SymbolTable(*module).lookup("conv.forward"));
}

TEST_F(PassApiTest, WalksByMaseOpAndType) {
  ASSERT_TRUE(module);
  SmallVector<StringRef> names;
  walkNodes(*module, "relu", [&](Operation *node) {
    names.push_back(cast<NodeOpInterface>(node).getNodeName());
  });
  EXPECT_EQ(names, (SmallVector<StringRef>{"relu", "relu_"}));
  unsigned modules = 0, weights = 0;
  walkNodes(*module, MaseType::ModuleRelatedFunc,
            [&](Operation *node) { modules += isa<CallModuleOp>(node); });
  walkNodes(*module, MaseType::GetAttr, [&](Operation *) { ++weights; });
  EXPECT_EQ(modules, 1u);
  EXPECT_EQ(weights, 1u);
  EXPECT_EQ(getMaseType(find<CallModuleOp>("conv")),
            MaseType::ModuleRelatedFunc);
}

} // namespace
