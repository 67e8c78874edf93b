//===- DescribeSupport.cpp - What the components' rules share -------------===//

#include "DescribeSupport.h"

#include "mav/IR/WeightData.h"

#include <numeric>

using namespace mlir;
using namespace mav;

bool mav::fail(std::string &reason, const Twine &why) {
  reason = why.str();
  return false;
}

std::string mav::joinSizes(ArrayRef<int64_t> values) {
  std::string text;
  for (int64_t value : values)
    text += (text.empty() ? "" : "x") + std::to_string(value);
  return text;
}

bool mav::isFalse(Attribute value) {
  auto boolean = llvm::dyn_cast_or_null<BoolAttr>(value);
  return boolean && !boolean.getValue();
}

std::optional<SmallVector<int64_t>> mav::getStaticShape(Value value) {
  auto type = llvm::dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  return SmallVector<int64_t>(type.getShape());
}

WeightOp mav::getWeight(Value value, SymbolTableCollection &symbols) {
  auto read = value ? value.getDefiningOp<GetAttrOp>() : GetAttrOp();
  if (!read)
    return {};
  return symbols.lookupNearestSymbolFrom<WeightOp>(read, read.getTargetAttr());
}

WeightOp mav::getConstantWeight(Value value, SymbolTableCollection &symbols) {
  if (WeightOp weight = getWeight(value, symbols))
    return weight;
  auto node = value ? value.getDefiningOp<NodeOpInterface>() : nullptr;
  CommonMetaAttr common = node ? node.getCommonMeta() : nullptr;
  if (!common || node->getNumOperands() == 0 || node->getNumResults() != 1 ||
      !llvm::is_contained({"expand", "view", "reshape", "contiguous", "flatten",
                           "unsqueeze", "squeeze", "identity"},
                          common.getMaseOp()))
    return {};
  WeightOp weight = getConstantWeight(node->getOperand(0), symbols);
  auto type = llvm::dyn_cast<ShapedType>(node->getResult(0).getType());
  if (!weight || !type || !type.hasStaticShape() ||
      type.getNumElements() != weight.getWeightType().getNumElements())
    return {};
  return weight;
}

bool mav::readWeightAndBias(ComponentCall call, HardwareNode &node,
                            std::string &reason) {
  node.weight = getWeight(call.call.operand(1, "weight"), call.symbols);
  node.bias = getWeight(call.call.operand(2, "bias"), call.symbols);
  if (!node.weight || (!node.bias && !call.call.isNone(2, "bias")))
    return fail(reason, "its weight and bias must be module weights");
  return true;
}

bool mav::need4d(const HardwareNode &node, std::string &reason) {
  if (node.inShape.size() == 4 && node.outShape.size() == 4)
    return true;
  return fail(reason,
              "needs a 4-d (N, C, H, W) input, got " + joinSizes(node.inShape));
}

bool mav::setWindow(HardwareNode &node, ArrayRef<int64_t> kernel,
                    ArrayRef<int64_t> stride, std::string &reason) {
  int64_t oh = node.outShape[2], ow = node.outShape[3];
  int64_t common = stride[0];
  if (oh == 1)
    common = stride[1];
  else if (ow != 1 && stride[0] != stride[1])
    return fail(reason, "stride " + joinSizes(stride) + " is not square");
  node.kernelH = kernel[0];
  node.kernelW = kernel[1];
  node.stride = common;
  return true;
}

int64_t mav::getParallelExtent(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return 1;
  return shape[shape.size() - 1 - getParallelDim(shape.size())];
}

StreamWidths mav::uniformWidths(const HardwareNode &node,
                                const StreamWidths &cap) {
  int64_t limit = cap.out;
  for (int64_t in : cap.in)
    limit = std::min(limit, in);
  int64_t outItem = node.outNumel() / std::max<int64_t>(node.items(), 1);
  int64_t extent = std::gcd(getParallelExtent(node.inShape), outItem);
  int64_t width = largestDivisorAtMost(extent, limit);
  return StreamWidths{SmallVector<int64_t, 2>(cap.in.size(), width), width};
}

int64_t mav::inItemWords(const HardwareNode &node) {
  return node.inNumel() / std::max<int64_t>(node.items(), 1);
}

int64_t mav::outItemWords(const HardwareNode &node) {
  return node.outNumel() / std::max<int64_t>(node.items(), 1);
}

int64_t mav::streamingCycles(const HardwareNode &node) {
  int64_t beats = outItemWords(node) / node.widths.out;
  for (auto [port, width] : llvm::enumerate(node.widths.in)) {
    int64_t words = port == 0 ? inItemWords(node) : 0;
    beats = std::max(beats, words / width);
  }
  return beats + 1;
}

int64_t mav::noMultipliers(const HardwareNode &) { return 0; }

int64_t mav::multiplierPerWord(const HardwareNode &node) {
  return node.widths.out;
}

void mav::noParameters(const HardwareNode &, ParameterValues &) {}

void mav::setParameter(ParameterValues &values, StringRef name, int64_t value) {
  values[name] = std::to_string(value);
}

std::optional<unsigned> mav::findStreamOperand(const HardwareNode &node,
                                               Value value, unsigned from) {
  OperandRange operands = node.op->getOperands();
  for (unsigned index = from; index < operands.size(); ++index)
    if (operands[index] == value)
      return index;
  for (unsigned index = 0; index < std::min<unsigned>(from, operands.size());
       ++index)
    if (operands[index] == value)
      return index;
  return std::nullopt;
}
