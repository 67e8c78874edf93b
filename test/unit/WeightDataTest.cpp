//===- WeightDataTest.cpp - Typed access to weight values -----------------===//

#include "mav/IR/WeightData.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mav;

namespace {

class WeightDataTest : public ::testing::Test {
protected:
  RankedTensorType f32(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, Float32Type::get(&context));
  }
  MLIRContext context;
};

TEST_F(WeightDataTest, ReadsDenseAndSplat) {
  auto dense = DenseElementsAttr::get(f32({2, 2}), ArrayRef<float>{1, 2, 3, 4});
  EXPECT_EQ(readF32Elements(dense), (std::vector<float>{1, 2, 3, 4}));
  auto splat = DenseElementsAttr::get(f32({3}), 0.5f);
  EXPECT_EQ(readF32Elements(splat), (std::vector<float>{0.5f, 0.5f, 0.5f}));
}

/// A resource written and read back holds the same bits, -0 and NaN too.
TEST_F(WeightDataTest, ResourceRoundTripIsBitExact) {
  std::vector<float> values = {-0.0f, std::numeric_limits<float>::quiet_NaN(),
                               std::numeric_limits<float>::denorm_min(), 1e30f};
  ElementsAttr attr = makeF32Resource(f32({4}), values, "0.weight");
  ASSERT_TRUE(attr.isa<DenseResourceElementsAttr>());
  std::optional<std::vector<float>> back = readF32Elements(attr);
  ASSERT_TRUE(back);
  ASSERT_EQ(back->size(), values.size());
  EXPECT_EQ(
      std::memcmp(back->data(), values.data(), values.size() * sizeof(float)),
      0);
  // The key is a valid resource identifier even for a name that is not.
  EXPECT_EQ(
      attr.cast<DenseResourceElementsAttr>().getRawHandle().getKey().front(),
      '_');
}

TEST_F(WeightDataTest, RefusesOtherTypesAndMissingData) {
  auto f64 = DenseElementsAttr::get(
      RankedTensorType::get({2}, Float64Type::get(&context)),
      ArrayRef<double>{1, 2});
  EXPECT_FALSE(readF32Elements(f64));
  // A resource no blob was given for, as `--mav-elide-weights` prints it.
  Attribute elided =
      parseAttribute("dense_resource<__elided__> : tensor<2xf32>", &context);
  ASSERT_TRUE(elided);
  EXPECT_FALSE(readF32Elements(elided.cast<ElementsAttr>()));
}

} // namespace
