//===- OpRegistryTest.cpp - Tests of the operator table -------------------===//
//
// MAV_TRACED_OPS names a file of aten op kinds, one a line, as printed by
// test/models/list_traced_ops.py; without it the coverage test is skipped.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/OpRegistry.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace mav;
using llvm::ArrayRef;
using llvm::StringRef;

namespace {

using Shape = std::vector<int64_t>;

const MaseType allMaseTypes[] = {
    MaseType::ModuleRelatedFunc,
    MaseType::Module,
    MaseType::BuiltinFunc,
    MaseType::ImplicitFunc,
    MaseType::Placeholder,
    MaseType::GetAttr,
    MaseType::Output,
};

/// Calls the formula of `op` on tensor arguments (std::nullopt for a
/// non-tensor argument) and one result.
std::optional<int64_t> flopsOf(const OpInfo &op,
                               ArrayRef<std::optional<Shape>> args,
                               const Shape &result) {
  std::vector<std::optional<ArrayRef<int64_t>>> argShapes;
  for (const std::optional<Shape> &arg : args)
    argShapes.push_back(arg ? std::optional<ArrayRef<int64_t>>(*arg)
                            : std::nullopt);
  ArrayRef<int64_t> results[] = {result};
  return op.flops(FlopInputs{argShapes, results});
}

void expectEachTargetOnce(StringRef kind, ArrayRef<StringRef> OpInfo::*targets,
                          const OpInfo *(*lookup)(StringRef)) {
  llvm::StringMap<unsigned> seen;
  for (const OpInfo &op : getAllOps()) {
    for (StringRef target : op.*targets) {
      EXPECT_EQ(++seen[target], 1u)
          << kind.str() << " '" << target.str() << "' is listed twice";
      EXPECT_EQ(lookup(target), &op) << kind.str() << " '" << target.str()
                                     << "' does not find " << op.maseOp.str();
    }
  }
}

TEST(OpRegistry, EveryTargetMapsToExactlyOneEntry) {
  expectEachTargetOnce("module class", &OpInfo::moduleClasses,
                       lookupModuleClass);
  expectEachTargetOnce("functional", &OpInfo::functionals, lookupFunctional);
  expectEachTargetOnce("aten op", &OpInfo::atenOps, lookupAtenOp);
  expectEachTargetOnce("Tensor method", &OpInfo::tensorMethods,
                       lookupTensorMethod);
}

TEST(OpRegistry, MaseOpsAreUnique) {
  llvm::StringMap<unsigned> seen;
  for (const OpInfo &op : getAllOps()) {
    EXPECT_FALSE(op.maseOp.empty());
    EXPECT_EQ(++seen[op.maseOp], 1u) << op.maseOp.str() << " is listed twice";
    EXPECT_EQ(lookupMaseOp(op.maseOp), &op);
  }
}

TEST(OpRegistry, TargetsAreWellFormed) {
  for (const OpInfo &op : getAllOps()) {
    for (StringRef aten : op.atenOps) {
      EXPECT_TRUE(aten.startswith("aten::") || aten.startswith("prim::"))
          << aten.str();
      EXPECT_EQ(aten.find('.'), StringRef::npos)
          << aten.str() << " carries an overload";
    }
    for (StringRef moduleClass : op.moduleClasses)
      EXPECT_TRUE(moduleClass.startswith("torch.nn.modules."))
          << moduleClass.str();
    for (StringRef method : op.tensorMethods)
      EXPECT_EQ(method.find('.'), StringRef::npos) << method.str();
    EXPECT_FALSE(op.argRoles.empty()) << op.maseOp.str();
  }
}

TEST(OpRegistry, LooksUpEachKindOfTarget) {
  const OpInfo *conv2d = lookupMaseOp("conv2d");
  ASSERT_NE(conv2d, nullptr);
  EXPECT_EQ(lookupModuleClass("torch.nn.modules.conv.Conv2d"), conv2d);
  EXPECT_EQ(lookupFunctional("torch.nn.functional.conv2d"), conv2d);
  EXPECT_EQ(lookupAtenOp("aten::conv2d"), conv2d);

  const OpInfo *view = lookupTensorMethod("view");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->maseOp, "view");
  EXPECT_EQ(lookupAtenOp("aten::view"), view);

  const OpInfo *flatten = lookupMaseOp("flatten");
  ASSERT_NE(flatten, nullptr);
  EXPECT_EQ(lookupModuleClass("torch.nn.modules.flatten.Flatten"), flatten);
  EXPECT_EQ(lookupFunctional("torch.flatten"), flatten);
  EXPECT_EQ(lookupTensorMethod("flatten"), flatten);
}

TEST(OpRegistry, OverloadsAndInPlaceVariantsResolve) {
  const OpInfo *add = lookupMaseOp("add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(lookupAtenOp("aten::add.Tensor"), add);
  EXPECT_EQ(lookupAtenOp("aten::add_"), add);
  EXPECT_EQ(lookupAtenOp("aten::add_.Scalar"), add);
  EXPECT_EQ(lookupTensorMethod("add_"), add);
  EXPECT_EQ(lookupTensorMethod("__iadd__"), add);

  EXPECT_EQ(lookupAtenOp("aten::relu_"), lookupMaseOp("relu"));
  EXPECT_EQ(lookupAtenOp("aten::hardswish_"), lookupMaseOp("hardswish"));
  EXPECT_EQ(lookupAtenOp("aten::hardtanh_"), lookupMaseOp("hardtanh"));
  EXPECT_EQ(lookupAtenOp("aten::__getitem__.t"), lookupMaseOp("getitem"));
  EXPECT_EQ(lookupAtenOp("aten::Int.Tensor"), lookupMaseOp("item"));
  EXPECT_EQ(lookupAtenOp("aten::_convolution.deprecated"),
            lookupMaseOp("convolution"));
}

TEST(OpRegistry, DropoutIsOneEntry) {
  const OpInfo *dropout = lookupMaseOp("dropout");
  ASSERT_NE(dropout, nullptr);
  EXPECT_EQ(dropout->maseType, MaseType::ModuleRelatedFunc);
  for (StringRef moduleClass :
       {"Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
        "FeatureAlphaDropout"})
    EXPECT_EQ(
        lookupModuleClass(("torch.nn.modules.dropout." + moduleClass).str()),
        dropout)
        << moduleClass.str();
  for (StringRef aten :
       {"aten::dropout", "aten::dropout_", "aten::feature_dropout",
        "aten::alpha_dropout", "aten::feature_alpha_dropout"})
    EXPECT_EQ(lookupAtenOp(aten), dropout) << aten.str();
  for (StringRef functional : {"dropout", "dropout1d", "dropout2d", "dropout3d",
                               "alpha_dropout", "feature_alpha_dropout"})
    EXPECT_EQ(lookupFunctional(("torch.nn.functional." + functional).str()),
              dropout)
        << functional.str();
}

TEST(OpRegistry, UnknownTargetsReturnNull) {
  EXPECT_EQ(lookupMaseOp("no_such_op"), nullptr);
  EXPECT_EQ(lookupMaseOp(""), nullptr);
  EXPECT_EQ(lookupModuleClass("Conv2d"), nullptr);
  EXPECT_EQ(lookupModuleClass("torch.nn.modules.conv.Conv2D"), nullptr);
  EXPECT_EQ(lookupModuleClass("torch.nn.modules.container.Sequential"),
            nullptr);
  EXPECT_EQ(lookupFunctional("torch.nn.functional.no_such_op"), nullptr);
  EXPECT_EQ(lookupAtenOp("aten::no_such_op"), nullptr);
  EXPECT_EQ(lookupAtenOp("aten::no_such_op.Tensor"), nullptr);
  EXPECT_EQ(lookupAtenOp("prim::Constant"), nullptr);
  EXPECT_EQ(lookupAtenOp("conv2d"), nullptr);
  EXPECT_EQ(lookupAtenOp(""), nullptr);
  EXPECT_EQ(lookupTensorMethod("no_such_method"), nullptr);
}

TEST(OpRegistry, MaseTypeSpellingsRoundTrip) {
  for (MaseType type : allMaseTypes)
    EXPECT_EQ(symbolizeMaseType(stringifyMaseType(type)), type)
        << stringifyMaseType(type).str();
  EXPECT_EQ(stringifyMaseType(MaseType::ModuleRelatedFunc),
            "module_related_func");
  EXPECT_EQ(stringifyMaseType(MaseType::GetAttr), "get_attr");
  EXPECT_EQ(symbolizeMaseType("no_such_type"), std::nullopt);
  EXPECT_EQ(symbolizeMaseType(""), std::nullopt);
}

TEST(OpRegistry, ArgRoleSpellings) {
  EXPECT_EQ(stringifyArgRole(ArgRole::DataIn), "data_in");
  EXPECT_EQ(stringifyArgRole(ArgRole::Weight), "weight");
  EXPECT_EQ(stringifyArgRole(ArgRole::Bias), "bias");
  EXPECT_EQ(stringifyArgRole(ArgRole::Config), "config");
}

TEST(OpRegistry, MaseTypesAndRoles) {
  EXPECT_EQ(lookupMaseOp("linear")->maseType, MaseType::ModuleRelatedFunc);
  EXPECT_EQ(lookupMaseOp("add")->maseType, MaseType::BuiltinFunc);
  EXPECT_EQ(lookupMaseOp("size")->maseType, MaseType::ImplicitFunc);
  EXPECT_EQ(lookupAtenOp("aten::_native_multi_head_attention")->maseType,
            MaseType::Module);

  const ArgRole conv2dRoles[] = {
      ArgRole::DataIn, ArgRole::Weight, ArgRole::Bias,  ArgRole::Config,
      ArgRole::Config, ArgRole::Config, ArgRole::Config};
  EXPECT_EQ(lookupMaseOp("conv2d")->argRoles, ArrayRef<ArgRole>(conv2dRoles));
  const ArgRole linearRoles[] = {ArgRole::DataIn, ArgRole::Weight,
                                 ArgRole::Bias};
  EXPECT_EQ(lookupMaseOp("linear")->argRoles, ArrayRef<ArgRole>(linearRoles));
  EXPECT_EQ(lookupMaseOp("linear")->hardwareComponent, "fixed_linear");
}

TEST(OpRegistry, Conv2dFlopsAreTextbook) {
  const int64_t batch = 2, inChannels = 6, outChannels = 4, groups = 2;
  const int64_t kernelH = 3, kernelW = 3, outH = 6, outW = 6;
  Shape input = {batch, inChannels, outH + kernelH - 1, outW + kernelW - 1};
  Shape weight = {outChannels, inChannels / groups, kernelH, kernelW};
  Shape result = {batch, outChannels, outH, outW};
  int64_t expected = 2 * (batch * outChannels * outH * outW) *
                     (inChannels / groups) * kernelH * kernelW;

  std::optional<Shape> args[] = {input,        weight,       std::nullopt,
                                 std::nullopt, std::nullopt, std::nullopt,
                                 std::nullopt};
  EXPECT_EQ(flopsOf(*lookupMaseOp("conv2d"), args, result), expected);
  // torch.jit.trace records convolutions as aten::_convolution.
  EXPECT_EQ(flopsOf(*lookupAtenOp("aten::_convolution"), args, result),
            expected);
}

TEST(OpRegistry, LinearFlopsAreTextbook) {
  const int64_t batch = 8, inFeatures = 16, outFeatures = 10;
  std::optional<Shape> args[] = {Shape{batch, inFeatures},
                                 Shape{outFeatures, inFeatures},
                                 Shape{outFeatures}};
  EXPECT_EQ(flopsOf(*lookupMaseOp("linear"), args, {batch, outFeatures}),
            2 * batch * outFeatures * inFeatures);
}

TEST(OpRegistry, AddFlopsAreTextbook) {
  Shape shape = {2, 3, 5};
  std::optional<Shape> args[] = {shape, shape, std::nullopt};
  EXPECT_EQ(flopsOf(*lookupMaseOp("add"), args, shape), 2 * 3 * 5);
}

TEST(OpRegistry, TransposedConvolutionFlops) {
  const int64_t batch = 1, inChannels = 4, outChannels = 6, kernel = 3;
  const int64_t inH = 5, inW = 5, outH = inH + kernel - 1,
                outW = inW + kernel - 1;
  std::optional<Shape> args[] = {
      Shape{batch, inChannels, inH, inW},
      Shape{inChannels, outChannels, kernel, kernel}};
  int64_t expected =
      2 * (batch * inChannels * inH * inW) * outChannels * kernel * kernel;
  Shape result = {batch, outChannels, outH, outW};
  EXPECT_EQ(flopsOf(*lookupMaseOp("conv_transpose2d"), args, result), expected);
  EXPECT_EQ(flopsOf(*lookupAtenOp("aten::_convolution"), args, result),
            expected);
  std::optional<Shape> tooFewDims[] = {
      Shape{inH, inW}, Shape{inChannels, outChannels, kernel, kernel}};
  EXPECT_EQ(flopsOf(*lookupAtenOp("aten::_convolution"), tooFewDims, result),
            std::nullopt);
}

TEST(OpRegistry, MatmulAndAdaptivePoolFlops) {
  const int64_t batch = 3, rows = 4, inner = 5, cols = 6;
  std::optional<Shape> operands[] = {Shape{batch, rows, inner},
                                     Shape{batch, inner, cols}};
  EXPECT_EQ(flopsOf(*lookupMaseOp("bmm"), operands, {batch, rows, cols}),
            2 * batch * rows * cols * inner);

  // Global pooling reads every input element once.
  const int64_t channels = 8, height = 7, width = 7;
  std::optional<Shape> input[] = {Shape{batch, channels, height, width},
                                  std::nullopt};
  EXPECT_EQ(flopsOf(*lookupMaseOp("adaptive_avg_pool2d"), input,
                    {batch, channels, 1, 1}),
            batch * channels * height * width);
}

TEST(OpRegistry, FlopsNeedTheirShapes) {
  std::optional<Shape> noWeight[] = {Shape{1, 3, 8, 8}, std::nullopt};
  EXPECT_EQ(flopsOf(*lookupMaseOp("conv2d"), noWeight, {1, 4, 6, 6}),
            std::nullopt);
  std::optional<Shape> dynamic[] = {Shape{-1, 3}, Shape{-1, 3}};
  EXPECT_EQ(flopsOf(*lookupMaseOp("add"), dynamic, {-1, 3}), std::nullopt);
  EXPECT_EQ(lookupMaseOp("view")->flops, nullptr);
  EXPECT_EQ(lookupMaseOp("size")->flops, nullptr);
}

TEST(OpRegistry, TracedModelOpsAreRegistered) {
  const char *path = std::getenv("MAV_TRACED_OPS");
  if (!path)
    GTEST_SKIP() << "MAV_TRACED_OPS is not set";
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(buffer) << "cannot read " << path << ": "
                      << buffer.getError().message();

  llvm::SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n', /*MaxSplit=*/-1,
                               /*KeepEmpty=*/false);
  std::string missing;
  unsigned count = 0;
  for (StringRef line : lines) {
    StringRef op = line.trim();
    if (op.empty())
      continue;
    ++count;
    if (!lookupAtenOp(op))
      missing += " " + op.str();
  }
  EXPECT_GT(count, 0u) << path << " lists no op";
  EXPECT_TRUE(missing.empty()) << "not in the registry:" << missing;
}

} // namespace
