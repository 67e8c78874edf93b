//===- NodeNamerTest.cpp - FX-style node names ----------------------------===//

#include "mav/IR/NodeNamer.h"

#include "gtest/gtest.h"

using mav::NodeNamer;

namespace {

TEST(NodeNamer, BaseNamesFollowFX) {
  EXPECT_EQ(NodeNamer::fromPath("layer1.0.conv1"), "layer1_0_conv1");
  EXPECT_EQ(NodeNamer::fromPath("features.0"), "features_0");
  EXPECT_EQ(NodeNamer::fromOperator("aten::add"), "add");
  EXPECT_EQ(NodeNamer::fromOperator("aten::add_"), "add");
  EXPECT_EQ(NodeNamer::fromOperator("aten::add.Tensor"), "add");
  EXPECT_EQ(NodeNamer::fromOperator("aten::_convolution"), "_convolution");
  EXPECT_EQ(NodeNamer::fromOperator("aten::__getitem__"), "__getitem__");
  EXPECT_EQ(NodeNamer::fromOperator("prim::NumToTensor"), "num_to_tensor");
  EXPECT_EQ(NodeNamer::fromOperator("prim::ListUnpack"), "list_unpack");
}

TEST(NodeNamer, RepeatsGetSuffixes) {
  NodeNamer namer;
  EXPECT_EQ(namer.claim("relu"), "relu");
  EXPECT_EQ(namer.claim("relu"), "relu_1");
  EXPECT_EQ(namer.claim("relu"), "relu_2");
  // A name that a suffix would produce is skipped when already taken.
  EXPECT_EQ(namer.claim("add_1"), "add_1");
  EXPECT_EQ(namer.claim("add"), "add");
  EXPECT_EQ(namer.claim("add"), "add_2");
}

TEST(NodeNamer, NamesAreIdentifiers) {
  NodeNamer namer;
  EXPECT_EQ(namer.claim("0"), "_0");
  EXPECT_EQ(namer.claim("a-b"), "a_b");
}

TEST(NodeNamer, ManyRepeatsStayLinear) {
  NodeNamer namer;
  for (int i = 0; i < 100000; ++i)
    namer.claim("node");
  EXPECT_EQ(namer.claim("node"), "node_100000");
}

} // namespace
