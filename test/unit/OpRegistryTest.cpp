//===- OpRegistryTest.cpp - Tests of the operator table -------------------===//
//
// MAV_TRACED_OPS names a file of aten op kinds, one a line, as printed by
// test/models/list_traced_ops.py; without it the coverage test is skipped.
//
//===----------------------------------------------------------------------===//

#include "mav/Operators/OpRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace mav;
using llvm::ArrayRef;
using llvm::SmallString;
using llvm::SmallVector;
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
  std::optional<OpCost> cost = op.cost(CostInputs{argShapes, results});
  if (!cost)
    return std::nullopt;
  return cost->flops;
}

/// The entry listing functional `name`. mav has no functional lookup (a
/// call_function node's target is an aten op); the table still lists each
/// functional under exactly one entry.
const OpInfo *findFunctional(StringRef name) {
  for (const OpInfo &op : getAllOps())
    if (llvm::is_contained(op.functionals, name))
      return &op;
  return nullptr;
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
  expectEachTargetOnce("functional", &OpInfo::functionals, findFunctional);
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
      EXPECT_TRUE(aten.starts_with("aten::") || aten.starts_with("prim::"))
          << aten.str();
      EXPECT_EQ(aten.find('.'), StringRef::npos)
          << aten.str() << " carries an overload";
    }
    for (StringRef moduleClass : op.moduleClasses)
      EXPECT_TRUE(moduleClass.starts_with("torch.nn.modules."))
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
  EXPECT_EQ(findFunctional("torch.nn.functional.conv2d"), conv2d);
  EXPECT_EQ(lookupAtenOp("aten::conv2d"), conv2d);

  const OpInfo *view = lookupTensorMethod("view");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->maseOp, "view");
  EXPECT_EQ(lookupAtenOp("aten::view"), view);

  const OpInfo *flatten = lookupMaseOp("flatten");
  ASSERT_NE(flatten, nullptr);
  EXPECT_EQ(lookupModuleClass("torch.nn.modules.flatten.Flatten"), flatten);
  EXPECT_EQ(findFunctional("torch.flatten"), flatten);
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
    EXPECT_EQ(findFunctional(("torch.nn.functional." + functional).str()),
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
  EXPECT_EQ(lookupMaseOp("view")->cost, nullptr);
  EXPECT_EQ(lookupMaseOp("size")->cost, nullptr);
}

/// Looks a target up by its kind: module classes start with
/// "torch.nn.modules.", aten ops with "aten::"; functionals are qualified and
/// Tensor methods are not.
const OpInfo *lookupTarget(StringRef target) {
  if (target.starts_with("torch.nn.modules."))
    return lookupModuleClass(target);
  if (target.starts_with("aten::"))
    return lookupAtenOp(target);
  if (target.contains('.'))
    return findFunctional(target);
  return lookupTensorMethod(target);
}

struct ExpectedTargets {
  StringRef maseOp;
  std::vector<StringRef> targets;
};

// The operators of issue 12 (operator coverage), with every target.
TEST(OpRegistry, CoverageOperatorsLookUp) {
  const ExpectedTargets table[] = {
      {"mish",
       {"torch.nn.modules.activation.Mish", "torch.nn.functional.mish",
        "aten::mish", "aten::mish_"}},
      {"celu",
       {"torch.nn.modules.activation.CELU", "torch.nn.functional.celu",
        "torch.nn.functional.celu_", "torch.celu", "torch.celu_", "aten::celu",
        "aten::celu_"}},
      {"glu",
       {"torch.nn.modules.activation.GLU", "torch.nn.functional.glu",
        "aten::glu"}},
      {"threshold",
       {"torch.nn.modules.activation.Threshold",
        "torch.nn.functional.threshold", "torch.nn.functional.threshold_",
        "torch.threshold", "torch.threshold_", "aten::threshold",
        "aten::threshold_"}},
      {"rrelu",
       {"torch.nn.modules.activation.RReLU", "torch.nn.functional.rrelu",
        "torch.nn.functional.rrelu_", "torch.rrelu", "torch.rrelu_",
        "aten::rrelu", "aten::rrelu_"}},
      {"tanhshrink",
       {"torch.nn.modules.activation.Tanhshrink",
        "torch.nn.functional.tanhshrink"}},
      {"softmin",
       {"torch.nn.modules.activation.Softmin", "torch.nn.functional.softmin"}},
      {"local_response_norm",
       {"torch.nn.modules.normalization.LocalResponseNorm",
        "torch.nn.modules.normalization.CrossMapLRN2d",
        "torch.nn.functional.local_response_norm"}},
      {"adaptive_max_pool3d",
       {"torch.nn.modules.pooling.AdaptiveMaxPool3d",
        "torch.nn.functional.adaptive_max_pool3d",
        "aten::adaptive_max_pool3d"}},
      {"max_unpool1d",
       {"torch.nn.modules.pooling.MaxUnpool1d",
        "torch.nn.functional.max_unpool1d"}},
      {"max_unpool2d",
       {"torch.nn.modules.pooling.MaxUnpool2d",
        "torch.nn.functional.max_unpool2d", "aten::max_unpool2d"}},
      {"max_unpool3d",
       {"torch.nn.modules.pooling.MaxUnpool3d",
        "torch.nn.functional.max_unpool3d", "aten::max_unpool3d"}},
      {"fractional_max_pool2d",
       {"torch.nn.modules.pooling.FractionalMaxPool2d",
        "torch.nn.functional.fractional_max_pool2d",
        "torch.nn.functional.fractional_max_pool2d_with_indices",
        "aten::fractional_max_pool2d"}},
      {"fractional_max_pool3d",
       {"torch.nn.modules.pooling.FractionalMaxPool3d",
        "torch.nn.functional.fractional_max_pool3d",
        "torch.nn.functional.fractional_max_pool3d_with_indices",
        "aten::fractional_max_pool3d"}},
      {"lp_pool1d",
       {"torch.nn.modules.pooling.LPPool1d", "torch.nn.functional.lp_pool1d"}},
      {"lp_pool2d",
       {"torch.nn.modules.pooling.LPPool2d", "torch.nn.functional.lp_pool2d"}},
      {"interpolate",
       {"torch.nn.modules.upsampling.Upsample",
        "torch.nn.functional.interpolate", "torch.nn.functional.upsample"}},
      {"upsample_nearest1d", {"aten::upsample_nearest1d"}},
      {"upsample_nearest2d",
       {"torch.nn.modules.upsampling.UpsamplingNearest2d",
        "torch.nn.functional.upsample_nearest", "aten::upsample_nearest2d"}},
      {"upsample_nearest3d", {"aten::upsample_nearest3d"}},
      {"upsample_linear1d", {"aten::upsample_linear1d"}},
      {"upsample_bilinear2d",
       {"torch.nn.modules.upsampling.UpsamplingBilinear2d",
        "torch.nn.functional.upsample_bilinear", "aten::upsample_bilinear2d"}},
      {"upsample_bicubic2d", {"aten::upsample_bicubic2d"}},
      {"upsample_trilinear3d", {"aten::upsample_trilinear3d"}},
      {"grid_sample",
       {"torch.nn.functional.grid_sample", "torch.grid_sampler",
        "aten::grid_sampler", "aten::grid_sampler_2d",
        "aten::grid_sampler_3d"}},
      {"affine_grid",
       {"torch.nn.functional.affine_grid", "torch.affine_grid_generator",
        "aten::affine_grid_generator"}},
      {"pixel_shuffle",
       {"torch.nn.modules.pixelshuffle.PixelShuffle",
        "torch.nn.functional.pixel_shuffle", "torch.pixel_shuffle",
        "aten::pixel_shuffle"}},
      {"pixel_unshuffle",
       {"torch.nn.modules.pixelshuffle.PixelUnshuffle",
        "torch.nn.functional.pixel_unshuffle", "torch.pixel_unshuffle",
        "aten::pixel_unshuffle"}},
      {"channel_shuffle",
       {"torch.nn.modules.channelshuffle.ChannelShuffle",
        "torch.nn.functional.channel_shuffle", "torch.channel_shuffle",
        "torch.native_channel_shuffle", "aten::channel_shuffle",
        "aten::native_channel_shuffle"}},
      {"im2col",
       {"torch.nn.modules.fold.Unfold", "torch.nn.functional.unfold",
        "aten::im2col"}},
      {"col2im",
       {"torch.nn.modules.fold.Fold", "torch.nn.functional.fold",
        "aten::col2im"}},
      {"bilinear",
       {"torch.nn.modules.linear.Bilinear", "torch.nn.functional.bilinear",
        "torch.bilinear", "aten::bilinear"}},
      {"pairwise_distance",
       {"torch.nn.modules.distance.PairwiseDistance",
        "torch.nn.functional.pairwise_distance", "torch.pairwise_distance",
        "aten::pairwise_distance"}},
      {"cosine_similarity",
       {"torch.nn.modules.distance.CosineSimilarity",
        "torch.nn.functional.cosine_similarity", "torch.cosine_similarity",
        "aten::cosine_similarity"}},
      {"embedding_bag",
       {"torch.nn.modules.sparse.EmbeddingBag",
        "torch.nn.functional.embedding_bag", "torch.embedding_bag",
        "aten::embedding_bag", "aten::_embedding_bag"}},
      {"one_hot", {"torch.nn.functional.one_hot", "aten::one_hot"}},
      {"rnn",
       {"torch.nn.modules.rnn.RNN", "torch.rnn_tanh", "torch.rnn_relu",
        "aten::rnn_tanh", "aten::rnn_relu"}},
      {"lstm", {"torch.nn.modules.rnn.LSTM", "torch.lstm", "aten::lstm"}},
      {"gru", {"torch.nn.modules.rnn.GRU", "torch.gru", "aten::gru"}},
      {"rnn_cell",
       {"torch.nn.modules.rnn.RNNCell", "torch.rnn_tanh_cell",
        "torch.rnn_relu_cell", "aten::rnn_tanh_cell", "aten::rnn_relu_cell"}},
      {"lstm_cell",
       {"torch.nn.modules.rnn.LSTMCell", "torch.lstm_cell", "aten::lstm_cell"}},
      {"gru_cell",
       {"torch.nn.modules.rnn.GRUCell", "torch.gru_cell", "aten::gru_cell"}},
      {"pack_padded_sequence",
       {"torch.nn.utils.rnn.pack_padded_sequence",
        "torch._pack_padded_sequence", "aten::_pack_padded_sequence"}},
      {"pad_packed_sequence",
       {"torch.nn.utils.rnn.pad_packed_sequence", "torch._pad_packed_sequence",
        "aten::_pad_packed_sequence"}},
      {"l1_loss",
       {"torch.nn.modules.loss.L1Loss", "torch.nn.functional.l1_loss",
        "aten::l1_loss"}},
      {"mse_loss",
       {"torch.nn.modules.loss.MSELoss", "torch.nn.functional.mse_loss",
        "aten::mse_loss"}},
      {"smooth_l1_loss",
       {"torch.nn.modules.loss.SmoothL1Loss",
        "torch.nn.functional.smooth_l1_loss", "aten::smooth_l1_loss"}},
      {"huber_loss",
       {"torch.nn.modules.loss.HuberLoss", "torch.nn.functional.huber_loss",
        "aten::huber_loss"}},
      {"nll_loss",
       {"torch.nn.modules.loss.NLLLoss", "torch.nn.modules.loss.NLLLoss2d",
        "torch.nn.functional.nll_loss", "aten::nll_loss", "aten::nll_loss_nd",
        "aten::nll_loss2d"}},
      {"cross_entropy",
       {"torch.nn.modules.loss.CrossEntropyLoss",
        "torch.nn.functional.cross_entropy", "aten::cross_entropy_loss"}},
      {"kl_div",
       {"torch.nn.modules.loss.KLDivLoss", "torch.nn.functional.kl_div",
        "aten::kl_div"}},
      {"binary_cross_entropy",
       {"torch.nn.modules.loss.BCELoss",
        "torch.nn.functional.binary_cross_entropy",
        "aten::binary_cross_entropy"}},
      {"binary_cross_entropy_with_logits",
       {"torch.nn.modules.loss.BCEWithLogitsLoss",
        "torch.nn.functional.binary_cross_entropy_with_logits",
        "aten::binary_cross_entropy_with_logits"}},
      {"poisson_nll_loss",
       {"torch.nn.modules.loss.PoissonNLLLoss",
        "torch.nn.functional.poisson_nll_loss", "aten::poisson_nll_loss"}},
      {"cosine_embedding_loss",
       {"torch.nn.modules.loss.CosineEmbeddingLoss",
        "torch.nn.functional.cosine_embedding_loss",
        "aten::cosine_embedding_loss"}},
      {"ctc_loss",
       {"torch.nn.modules.loss.CTCLoss", "torch.nn.functional.ctc_loss",
        "aten::ctc_loss"}},
      {"hinge_embedding_loss",
       {"torch.nn.modules.loss.HingeEmbeddingLoss",
        "torch.nn.functional.hinge_embedding_loss",
        "aten::hinge_embedding_loss"}},
      {"margin_ranking_loss",
       {"torch.nn.modules.loss.MarginRankingLoss",
        "torch.nn.functional.margin_ranking_loss",
        "aten::margin_ranking_loss"}},
      {"multilabel_margin_loss",
       {"torch.nn.modules.loss.MultiLabelMarginLoss",
        "torch.nn.functional.multilabel_margin_loss",
        "aten::multilabel_margin_loss"}},
      {"multilabel_soft_margin_loss",
       {"torch.nn.modules.loss.MultiLabelSoftMarginLoss",
        "torch.nn.functional.multilabel_soft_margin_loss"}},
      {"multi_margin_loss",
       {"torch.nn.modules.loss.MultiMarginLoss",
        "torch.nn.functional.multi_margin_loss", "aten::multi_margin_loss"}},
      {"soft_margin_loss",
       {"torch.nn.modules.loss.SoftMarginLoss",
        "torch.nn.functional.soft_margin_loss", "aten::soft_margin_loss"}},
      {"gaussian_nll_loss",
       {"torch.nn.modules.loss.GaussianNLLLoss",
        "torch.nn.functional.gaussian_nll_loss"}},
      {"triplet_margin_loss",
       {"torch.nn.modules.loss.TripletMarginLoss",
        "torch.nn.functional.triplet_margin_loss",
        "aten::triplet_margin_loss"}},
      {"triplet_margin_with_distance_loss",
       {"torch.nn.modules.loss.TripletMarginWithDistanceLoss",
        "torch.nn.functional.triplet_margin_with_distance_loss"}},
      {"reciprocal",
       {"torch.reciprocal", "aten::reciprocal", "aten::reciprocal_",
        "reciprocal", "reciprocal_"}},
      {"sign", {"torch.sign", "aten::sign", "aten::sign_", "sign", "sign_"}},
      {"clamp_min",
       {"torch.clamp_min", "aten::clamp_min", "aten::clamp_min_", "clamp_min",
        "clamp_min_"}},
      {"clamp_max",
       {"torch.clamp_max", "aten::clamp_max", "aten::clamp_max_", "clamp_max",
        "clamp_max_"}},
      {"cumsum",
       {"torch.cumsum", "aten::cumsum", "aten::cumsum_", "cumsum", "cumsum_"}},
      {"cumprod",
       {"torch.cumprod", "aten::cumprod", "aten::cumprod_", "cumprod",
        "cumprod_"}},
      {"scatter_add",
       {"torch.scatter_add", "aten::scatter_add", "aten::scatter_add_",
        "scatter_add", "scatter_add_"}},
      {"einsum", {"torch.einsum", "aten::einsum"}},
      {"norm",
       {"torch.norm", "torch.linalg.norm", "torch.linalg.vector_norm",
        "torch.frobenius_norm", "aten::norm", "aten::linalg_norm",
        "aten::linalg_vector_norm", "aten::frobenius_norm", "norm"}},
      {"bitwise_and",
       {"torch.bitwise_and", "operator.and_", "operator.iand", "aten::__and__",
        "aten::__iand__", "aten::bitwise_and", "aten::bitwise_and_",
        "bitwise_and", "bitwise_and_", "__and__", "__iand__", "__rand__"}},
      {"bitwise_or",
       {"torch.bitwise_or", "operator.or_", "operator.ior", "aten::__or__",
        "aten::__ior__", "aten::bitwise_or", "aten::bitwise_or_", "bitwise_or",
        "bitwise_or_", "__or__", "__ior__", "__ror__"}},
      {"bitwise_xor",
       {"torch.bitwise_xor", "operator.xor", "operator.ixor", "aten::__xor__",
        "aten::__ixor__", "aten::bitwise_xor", "aten::bitwise_xor_",
        "bitwise_xor", "bitwise_xor_", "__xor__", "__ixor__", "__rxor__"}},
      {"bitwise_not",
       {"torch.bitwise_not", "operator.invert", "aten::bitwise_not",
        "aten::bitwise_not_", "bitwise_not", "bitwise_not_", "__invert__"}},
      {"logical_and",
       {"torch.logical_and", "aten::logical_and", "aten::logical_and_",
        "logical_and", "logical_and_"}},
      {"logical_or",
       {"torch.logical_or", "aten::logical_or", "aten::logical_or_",
        "logical_or", "logical_or_"}},
      {"logical_not",
       {"torch.logical_not", "aten::logical_not", "aten::logical_not_",
        "logical_not", "logical_not_"}},
      {"topk", {"torch.topk", "aten::topk", "topk"}},
      {"sort", {"torch.sort", "aten::sort", "sort"}},
      {"argsort", {"torch.argsort", "aten::argsort", "argsort"}},
      {"triu", {"torch.triu", "aten::triu", "aten::triu_", "triu", "triu_"}},
      {"tril", {"torch.tril", "aten::tril", "aten::tril_", "tril", "tril_"}},
      {"flip",
       {"torch.flip", "torch.fliplr", "torch.flipud", "aten::flip",
        "aten::fliplr", "aten::flipud", "flip", "fliplr", "flipud"}},
      {"gather", {"torch.gather", "aten::gather", "gather"}},
      {"scatter",
       {"torch.scatter", "aten::scatter", "aten::scatter_", "scatter",
        "scatter_"}},
      {"index_copy",
       {"torch.index_copy", "aten::index_copy", "aten::index_copy_",
        "index_copy", "index_copy_"}},
      {"index_fill",
       {"torch.index_fill", "aten::index_fill", "aten::index_fill_",
        "index_fill", "index_fill_"}},
      {"nonzero", {"torch.nonzero", "aten::nonzero", "nonzero"}},
      {"broadcast_tensors",
       {"torch.broadcast_tensors", "aten::broadcast_tensors"}},
      {"meshgrid", {"torch.meshgrid", "aten::meshgrid"}},
      {"copy", {"aten::copy_", "copy_"}},
      {"zero", {"torch.zero_", "aten::zero_", "zero_"}},
      {"empty", {"torch.empty", "aten::empty"}},
      {"empty_like", {"torch.empty_like", "aten::empty_like"}},
      {"new_empty", {"aten::new_empty", "new_empty"}},
      {"linspace", {"torch.linspace", "aten::linspace"}},
      {"logspace", {"torch.logspace", "aten::logspace"}},
      {"triu_indices", {"torch.triu_indices", "aten::triu_indices"}},
      {"tril_indices", {"torch.tril_indices", "aten::tril_indices"}},
      {"conv_transpose3d",
       {"torch.nn.modules.conv.ConvTranspose3d",
        "torch.nn.functional.conv_transpose3d", "torch.conv_transpose3d",
        "aten::conv_transpose3d"}},
      {"instance_norm1d", {"torch.nn.modules.instancenorm.InstanceNorm1d"}},
      {"instance_norm3d", {"torch.nn.modules.instancenorm.InstanceNorm3d"}},
      {"batch_norm2d", {"torch.nn.modules.batchnorm.SyncBatchNorm"}},
      {"chunk", {"aten::unsafe_chunk"}},
      {"repeat_interleave",
       {"torch.repeat_interleave", "aten::repeat_interleave",
        "repeat_interleave"}},
      {"tensor_split",
       {"torch.tensor_split", "aten::tensor_split", "tensor_split"}},
      {"pad",
       {"torch.nn.modules.padding.ConstantPad1d",
        "torch.nn.modules.padding.ConstantPad2d",
        "torch.nn.modules.padding.ConstantPad3d",
        "torch.nn.modules.padding.ZeroPad2d",
        "torch.nn.modules.padding.ReflectionPad1d",
        "torch.nn.modules.padding.ReflectionPad2d",
        "torch.nn.modules.padding.ReflectionPad3d",
        "torch.nn.modules.padding.ReplicationPad1d",
        "torch.nn.modules.padding.ReplicationPad2d",
        "torch.nn.modules.padding.ReplicationPad3d", "aten::reflection_pad1d",
        "aten::reflection_pad2d", "aten::reflection_pad3d",
        "aten::replication_pad1d", "aten::replication_pad2d",
        "aten::replication_pad3d"}},
      {"split", {"aten::unsafe_split", "aten::unsafe_split_with_sizes"}},
  };
  for (const ExpectedTargets &row : table) {
    const OpInfo *op = lookupMaseOp(row.maseOp);
    ASSERT_NE(op, nullptr) << row.maseOp.str();
    for (StringRef target : row.targets)
      EXPECT_EQ(lookupTarget(target), op)
          << target.str() << " does not find " << row.maseOp.str();
  }

  // The overloads that traces of the test models record.
  const std::pair<StringRef, StringRef> overloads[] = {
      {"aten::lstm.input", "lstm"},
      {"aten::lstm.data", "lstm"},
      {"aten::gru.input", "gru"},
      {"aten::rnn_tanh.input", "rnn"},
      {"aten::rnn_relu.data", "rnn"},
      {"aten::embedding_bag.padding_idx", "embedding_bag"},
      {"aten::upsample_nearest2d.vec", "upsample_nearest2d"},
      {"aten::upsample_bilinear2d.vec", "upsample_bilinear2d"},
      {"aten::__and__.Tensor", "bitwise_and"},
      {"aten::scatter.src", "scatter"},
      {"aten::scatter.value", "scatter"},
      {"aten::norm.ScalarOpt_dim", "norm"},
      {"aten::frobenius_norm.dim", "norm"},
      {"aten::meshgrid.indexing", "meshgrid"},
      {"aten::ctc_loss.Tensor", "ctc_loss"},
      {"aten::index_fill_.int_Scalar", "index_fill"},
  };
  for (auto [aten, maseOp] : overloads)
    EXPECT_EQ(lookupAtenOp(aten), lookupMaseOp(maseOp)) << aten.str();

  EXPECT_EQ(lookupMaseOp("lstm")->maseType, MaseType::Module);
  EXPECT_EQ(lookupMaseOp("mish")->maseType, MaseType::ModuleRelatedFunc);
  EXPECT_EQ(lookupMaseOp("pixel_shuffle")->maseType, MaseType::ImplicitFunc);
  EXPECT_EQ(lookupMaseOp("reciprocal")->maseType, MaseType::BuiltinFunc);
  const ArgRole bilinearRoles[] = {ArgRole::DataIn, ArgRole::DataIn,
                                   ArgRole::Weight, ArgRole::Bias};
  EXPECT_EQ(lookupMaseOp("bilinear")->argRoles,
            ArrayRef<ArgRole>(bilinearRoles));
  EXPECT_EQ(lookupMaseOp("embedding_bag")->argRoles.front(), ArgRole::Weight);
}

TEST(OpRegistry, CoverageOperatorFlops) {
  const int64_t batch = 4, in1 = 3, in2 = 5, out = 6;
  std::optional<Shape> bilinearArgs[] = {Shape{batch, in1}, Shape{batch, in2},
                                         Shape{out, in1, in2}, Shape{out}};
  EXPECT_EQ(flopsOf(*lookupMaseOp("bilinear"), bilinearArgs, {batch, out}),
            2 * batch * out * in1 * in2);

  const int64_t bags = 3, bagSize = 4, dim = 8;
  std::optional<Shape> bagArgs[] = {Shape{50, dim}, Shape{bags, bagSize},
                                    Shape{0}};
  EXPECT_EQ(flopsOf(*lookupMaseOp("embedding_bag"), bagArgs, {bags, dim}),
            bags * bagSize * dim);

  Shape image = {1, 2, 8, 8};
  std::optional<Shape> upsampleArgs[] = {Shape{1, 2, 4, 4}, std::nullopt};
  EXPECT_EQ(flopsOf(*lookupMaseOp("upsample_bilinear2d"), upsampleArgs, image),
            7 * 2 * 8 * 8);
  EXPECT_EQ(lookupMaseOp("upsample_nearest2d")->cost, nullptr);

  const int64_t input = 5, hidden = 4;
  std::optional<Shape> cellArgs[] = {Shape{batch, input}, std::nullopt,
                                     Shape{4 * hidden, input},
                                     Shape{4 * hidden, hidden}};
  EXPECT_EQ(flopsOf(*lookupMaseOp("lstm_cell"), cellArgs, {batch, hidden}),
            2 * batch * (4 * hidden * input + 4 * hidden * hidden));

  Shape matrix = {4, 6};
  std::optional<Shape> scatterArgs[] = {matrix, std::nullopt, matrix, matrix};
  EXPECT_EQ(flopsOf(*lookupMaseOp("scatter_add"), scatterArgs, matrix), 24);
  std::optional<Shape> normArgs[] = {matrix, std::nullopt};
  EXPECT_EQ(flopsOf(*lookupMaseOp("norm"), normArgs, {4}), 2 * 24);
  EXPECT_EQ(flopsOf(*lookupMaseOp("reciprocal"), normArgs, matrix), 24);

  // Their formulas need config values that shapes do not give.
  EXPECT_EQ(flopsOf(*lookupMaseOp("einsum"), normArgs, matrix), std::nullopt);
  EXPECT_EQ(flopsOf(*lookupMaseOp("lstm"), normArgs, matrix), std::nullopt);
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
