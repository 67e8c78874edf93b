//===- SpectralTest.cpp - Complex types and the spectral cost formulas ----===//
//
// Complex element types in shape specs and dtype names, and the FLOPs of the
// spectral entries of the op table: an FFT of N points is 5 N log2 N, half
// for a one-sided spectrum (docs/Visualization.md).
//
//===----------------------------------------------------------------------===//

#include "mav/IR/MavDialect.h"
#include "mav/IR/MavTypes.h"
#include "mav/Operators/OpRegistry.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace mav;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;

namespace {

using Shape = std::vector<int64_t>;

/// Integer constants of a call by schema position: single ints, or lists
/// (`with`), read as mav::getIntList reads them.
class IntArguments : public CallArguments {
public:
  IntArguments(std::initializer_list<std::pair<const unsigned, int64_t>> ints) {
    for (auto [position, value] : ints)
      lists[position] = {value};
  }
  IntArguments &with(unsigned position, std::vector<int64_t> values) {
    lists[position] = std::move(values);
    return *this;
  }
  std::optional<ArrayRef<int64_t>> getShape(unsigned,
                                            StringRef) const override {
    return std::nullopt;
  }
  std::optional<SmallVector<int64_t>> getInts(unsigned position, StringRef,
                                              size_t count) const override {
    auto it = lists.find(position);
    if (it == lists.end())
      return std::nullopt;
    if (it->second.size() == 1)
      return SmallVector<int64_t>(count, it->second.front());
    return SmallVector<int64_t>(it->second.begin(), it->second.end());
  }
  std::optional<StringRef> getString(unsigned, StringRef) const override {
    return std::nullopt;
  }

private:
  std::map<unsigned, std::vector<int64_t>> lists;
};

std::optional<int64_t> flopsOf(StringRef aten, const std::vector<Shape> &args,
                               const Shape &result,
                               const CallArguments &config) {
  std::vector<std::optional<ArrayRef<int64_t>>> argShapes;
  for (const Shape &arg : args)
    argShapes.push_back(arg.empty() ? std::nullopt
                                    : std::optional<ArrayRef<int64_t>>(arg));
  ArrayRef<int64_t> results[] = {result};
  const OpInfo *info = lookupAtenOp(aten);
  if (!info || !info->cost)
    return std::nullopt;
  std::optional<OpCost> cost =
      info->cost(CostInputs{argShapes, results, {}, &config});
  if (!cost)
    return std::nullopt;
  EXPECT_EQ(cost->macs, 0) << aten.str();
  return cost->flops;
}

TEST(Spectral, ShapeSpecsSpellComplexAsMlirDoes) {
  mlir::MLIRContext context;
  auto complex = parseShapeSpec("1x9x17xcomplex<f32>", &context);
  ASSERT_TRUE(succeeded(complex));
  EXPECT_EQ(complex->getShape(), ArrayRef<int64_t>({1, 9, 17}));
  auto element = mlir::dyn_cast<mlir::ComplexType>(complex->getElementType());
  ASSERT_TRUE(element);
  EXPECT_TRUE(element.getElementType().isF32());
  auto scalar = parseShapeSpec("complex<f64>", &context);
  ASSERT_TRUE(succeeded(scalar));
  EXPECT_EQ(scalar->getRank(), 0);
  EXPECT_EQ(getTorchDtypeName(scalar->getElementType()), "torch.complex128");
  EXPECT_EQ(getTorchDtypeName(element), "torch.complex64");
  auto real = parseShapeSpec("2x3xf32", &context);
  ASSERT_TRUE(succeeded(real));
  EXPECT_EQ(real->getShape(), ArrayRef<int64_t>({2, 3}));
  for (StringRef bad : {"1x9xcomplex<f16>", "1x9xcomplex", "1xxcomplex<f32>",
                        "1x9complex<f32>", "complex<f32>x3", "", "x", "1x"})
    EXPECT_TRUE(failed(parseShapeSpec(bad, &context))) << bad.str();
}

TEST(Spectral, StftCountsOneTransformPerFrame) {
  // (1, 80) samples, n_fft 16, window given: 17 frames of 9 bins. A
  // one-sided transform of 16 points is 2.5 * 16 * log2(16) = 160 FLOPs, a
  // two-sided one 320.
  IntArguments config({{1, 16}, {4, 1}});
  EXPECT_EQ(flopsOf("aten::stft", {{1, 80}}, {1, 9, 17}, config),
            17 * (160 + 16));
  // Two-sided (16 bins): a full complex transform; no batch dimension.
  EXPECT_EQ(flopsOf("aten::stft", {{80}}, {16, 17}, config), 17 * (320 + 16));
  // return_complex=False: a trailing 2 does not change the frames.
  EXPECT_EQ(flopsOf("aten::stft", {{3, 80}}, {3, 9, 17, 2}, config),
            3 * 17 * (160 + 16));
  // Without the window, no products.
  IntArguments noWindow({{1, 16}});
  EXPECT_EQ(flopsOf("aten::stft", {{1, 80}}, {1, 9, 17}, noWindow), 17 * 160);
  // n_fft is a config value the formula needs.
  EXPECT_EQ(flopsOf("aten::stft", {{1, 80}}, {1, 9, 17}, IntArguments({})),
            std::nullopt);
}

TEST(Spectral, IstftCountsFramesAndTheEnvelope) {
  IntArguments config({{1, 16}});
  EXPECT_EQ(flopsOf("aten::istft", {{1, 9, 17}}, {1, 64}, config),
            17 * (160 + 2 * 16) + 64);
  EXPECT_EQ(flopsOf("aten::istft", {{16, 17}}, {64}, config),
            17 * (320 + 2 * 16) + 64);
}

TEST(Spectral, FftAlongOneDimension) {
  // fft of 8 points along the last dimension, 3 rows.
  IntArguments last({{2, -1}});
  EXPECT_EQ(flopsOf("aten::fft_fft", {{3, 8}}, {3, 8}, last), 3 * 5 * 8 * 3);
  EXPECT_EQ(flopsOf("aten::fft_ifft", {{3, 8}}, {3, 8}, last), 3 * 5 * 8 * 3);
  // rfft of 8 real samples gives 5 bins; irfft takes them back.
  EXPECT_EQ(flopsOf("aten::fft_rfft", {{3, 8}}, {3, 5}, last), 3 * 20 * 3);
  EXPECT_EQ(flopsOf("aten::fft_irfft", {{3, 5}}, {3, 8}, last), 3 * 20 * 3);
  // Along dim 0, with n given (padding to 16).
  IntArguments first({{1, 16}, {2, 0}});
  EXPECT_EQ(flopsOf("aten::fft_fft", {{8, 3}}, {16, 3}, first), 3 * 5 * 16 * 4);
  EXPECT_EQ(flopsOf("aten::fft_fft", {{8, 3}}, {16, 3}, IntArguments({{2, 2}})),
            std::nullopt);
}

TEST(Spectral, FftOverSeveralDimensionsIsSeparable) {
  // fft2 of 4 x 8 points over the last two dimensions of (2, 4, 8): 32
  // points, 5 * 32 * log2(32) = 800 FLOPs, the same as 8 transforms of 4
  // points (5 * 4 * 2 each) and 4 of 8 (5 * 8 * 3 each).
  IntArguments lastTwo({});
  lastTwo.with(2, {-2, -1});
  EXPECT_EQ(flopsOf("aten::fft_fft2", {{2, 4, 8}}, {2, 4, 8}, lastTwo),
            2 * 800);
  EXPECT_EQ(800, 8 * 5 * 4 * 2 + 4 * 5 * 8 * 3);
  // fftn without dim: every dimension; with s: the last len(s) ones.
  EXPECT_EQ(flopsOf("aten::fft_fftn", {{2, 4, 8}}, {2, 4, 8}, IntArguments({})),
            5 * 64 * 6);
  IntArguments padded({});
  padded.with(1, {4, 16});
  EXPECT_EQ(flopsOf("aten::fft_fftn", {{2, 4, 8}}, {2, 4, 16}, padded),
            2 * 5 * 64 * 6);
  // rfft2 of 4 x 8 real samples: 4 x 5 bins, half of 800.
  EXPECT_EQ(flopsOf("aten::fft_rfft2", {{4, 8}}, {4, 5}, lastTwo), 400);
  EXPECT_EQ(flopsOf("aten::fft_irfft2", {{4, 5}}, {4, 8}, lastTwo), 400);
  // s and dim of different lengths are refused, as torch refuses them.
  IntArguments mismatched({});
  mismatched.with(1, {4, 16}).with(2, {-1});
  EXPECT_EQ(flopsOf("aten::fft_fftn", {{2, 4, 8}}, {2, 4, 16}, mismatched),
            std::nullopt);
  EXPECT_EQ(lookupAtenOp("aten::fft_fftshift")->cost, nullptr);
  EXPECT_EQ(lookupAtenOp("aten::fft_rfftfreq")->cost, nullptr);
}

TEST(Spectral, ViewsAndWindowsCostNothing) {
  for (StringRef aten :
       {"aten::view_as_real", "aten::view_as_complex", "aten::hann_window",
        "aten::hamming_window.periodic", "aten::real", "aten::conj"}) {
    const OpInfo *info = lookupAtenOp(aten);
    ASSERT_TRUE(info) << aten.str();
    EXPECT_EQ(info->maseType, MaseType::ImplicitFunc) << aten.str();
    EXPECT_EQ(info->cost, nullptr) << aten.str();
  }
  EXPECT_EQ(lookupAtenOp("aten::stft")->argRoles[4], ArgRole::Weight);
  EXPECT_EQ(lookupAtenOp("aten::istft")->argRoles[4], ArgRole::Weight);
}

} // namespace
