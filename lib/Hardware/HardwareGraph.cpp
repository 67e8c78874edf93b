//===- HardwareGraph.cpp - A graph as the hardware flow sees it -----------===//
//
// A node is read at the level of its aten call (mav/IR/AtenCall.h). The
// call's constants give kernel, stride and padding; its weight operands are
// get_attr reads of mav.weight symbols.
//
//===----------------------------------------------------------------------===//

#include "mav/Hardware/HardwareGraph.h"
#include "mav/IR/AtenCall.h"
#include "mav/IR/WeightData.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mav;

namespace {

/// "aten::add.Tensor" -> "add"; "__iadd__" -> "add"; "relu_" -> "relu".
StringRef baseName(StringRef target) {
  target.consume_front("aten::");
  target = target.split('.').first;
  if (target.consume_front("__") && target.consume_back("__"))
    target.consume_front("i");
  target.consume_back("_");
  if (target == "_convolution")
    return "conv2d";
  if (target == "_adaptive_avg_pool2d")
    return "adaptive_avg_pool2d";
  return target;
}

bool isFalse(Attribute value) {
  auto boolean = value.dyn_cast_or_null<BoolAttr>();
  return boolean && !boolean.getValue();
}

/// The static shape of a value, if it has one.
std::optional<SmallVector<int64_t>> getStaticShape(Value value) {
  auto type = value.getType().dyn_cast<RankedTensorType>();
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  return SmallVector<int64_t>(type.getShape());
}

/// The weight a get_attr operand reads.
WeightOp getWeight(Value value, SymbolTableCollection &symbols) {
  auto read = value ? value.getDefiningOp<GetAttrOp>() : GetAttrOp();
  if (!read)
    return {};
  return symbols.lookupNearestSymbolFrom<WeightOp>(read, read.getTargetAttr());
}

/// Checks and fills the pooling window: kernel (kh, kw), stride (sh, sw),
/// no padding, on a 4-d input. The component has one STRIDE: a dimension
/// with a single window takes the other's stride.
bool setWindow(HardwareNode &node, ArrayRef<int64_t> kernel,
               ArrayRef<int64_t> stride, std::string &reason) {
  int64_t oh = (node.inShape[2] - kernel[0]) / stride[0] + 1;
  int64_t ow = (node.inShape[3] - kernel[1]) / stride[1] + 1;
  int64_t common = stride[0];
  if (oh == 1)
    common = stride[1];
  else if (ow != 1 && stride[0] != stride[1]) {
    reason = "stride " + std::to_string(stride[0]) + "x" +
             std::to_string(stride[1]) + " is not square";
    return false;
  }
  node.kernelH = kernel[0];
  node.kernelW = kernel[1];
  node.stride = common;
  return true;
}

std::string join(ArrayRef<int64_t> values) {
  std::string text;
  for (int64_t value : values)
    text += (text.empty() ? "" : "x") + std::to_string(value);
  return text;
}

bool describeCall(const AtenCall &call, HardwareNode &node,
                  SymbolTableCollection &symbols, std::string &reason) {
  auto fail = [&](const Twine &why) {
    reason = why.str();
    return false;
  };
  size_t rank = node.inShape.size();
  auto need4d = [&] {
    if (rank == 4 && node.outShape.size() == 4)
      return true;
    reason = "needs a 4-d (N, C, H, W) input, got " + join(node.inShape);
    return false;
  };
  StringRef name = baseName(call.target);
  if (name == "linear") {
    node.kind = HardwareOpKind::Linear;
    node.weight = getWeight(call.operand(1, "weight"), symbols);
    node.bias = getWeight(call.operand(2, "bias"), symbols);
    if (!node.weight || (!node.bias && !call.isNone(2, "bias")))
      return fail("its weight and bias must be module weights");
    return true;
  }
  if (name == "conv2d") {
    node.kind = HardwareOpKind::Conv2d;
    if (!need4d())
      return false;
    bool aten = call.args.size() > 9; // aten::_convolution
    auto stride = getIntList(call.get(3, "stride"), 2);
    auto padding = getIntList(call.get(4, "padding"), 2);
    auto dilation = getIntList(call.get(5, "dilation"), 2);
    auto groups = getIntList(call.get(aten ? 8 : 6, "groups"), 1);
    if (aten && !isFalse(call.get(6, "transposed")))
      return fail("transposed convolution is not supported by fixed_conv2d");
    if (!stride || !padding || !dilation || !groups)
      return fail("its stride, padding, dilation and groups must be "
                  "constants");
    if ((*groups)[0] != 1)
      return fail("groups " + Twine((*groups)[0]) +
                  " is not supported by fixed_conv2d");
    if ((*dilation)[0] != 1 || (*dilation)[1] != 1)
      return fail("dilation " + Twine(join(*dilation)) +
                  " is not supported by fixed_conv2d");
    if ((*stride)[0] != (*stride)[1] || (*padding)[0] != (*padding)[1])
      return fail("fixed_conv2d needs a square stride and padding, got "
                  "stride " +
                  Twine(join(*stride)) + ", padding " + join(*padding));
    node.weight = getWeight(call.operand(1, "weight"), symbols);
    node.bias = getWeight(call.operand(2, "bias"), symbols);
    if (!node.weight || (!node.bias && !call.isNone(2, "bias")))
      return fail("its weight and bias must be module weights");
    auto type = node.weight.getValue().getType().cast<ShapedType>();
    node.kernelH = type.getDimSize(2);
    node.kernelW = type.getDimSize(3);
    node.stride = (*stride)[0];
    node.padding = (*padding)[0];
    return true;
  }
  if (name == "relu") {
    node.kind = HardwareOpKind::Relu;
    return true;
  }
  if (name == "flatten") {
    node.kind = HardwareOpKind::Flatten;
    if (rank == 0 || node.outShape.empty() ||
        node.outShape[0] != node.inShape[0])
      return fail("fixed_flatten keeps the batch dimension");
    return true;
  }
  if (name == "add" || name == "mul") {
    node.kind = name == "add" ? HardwareOpKind::Add : HardwareOpKind::Mul;
    Attribute alpha = call.get(2, "alpha");
    auto alphaInt = alpha ? alpha.dyn_cast<IntegerAttr>() : IntegerAttr();
    if (node.kind == HardwareOpKind::Add && alpha &&
        (!alphaInt || alphaInt.getInt() != 1))
      return fail("alpha other than 1 is not supported by fixed_add");
    Value other = call.operand(1, "other");
    if (!other)
      return fail("both operands must be tensors");
    if (getStaticShape(other) != std::optional(node.inShape))
      return fail("both operands must have the same shape (no "
                  "broadcasting)");
    return true;
  }
  if (name == "max_pool2d" || name == "avg_pool2d") {
    bool max = name == "max_pool2d";
    node.kind = max ? HardwareOpKind::MaxPool2d : HardwareOpKind::AvgPool2d;
    if (!need4d())
      return false;
    auto kernel = getIntList(call.get(1, "kernel_size"), 2);
    auto stride = getIntList(call.get(2, "stride"), 2);
    auto padding = getIntList(call.get(3, "padding"), 2);
    if (stride && stride->empty())
      stride = kernel;
    if (!kernel || !stride || !padding)
      return fail("its kernel, stride and padding must be constants");
    if ((*padding)[0] != 0 || (*padding)[1] != 0)
      return fail("padding is not supported by the pooling components");
    if (max) {
      auto dilation = getIntList(call.get(4, "dilation"), 2);
      if (!dilation || (*dilation)[0] != 1 || (*dilation)[1] != 1)
        return fail("dilation is not supported by fixed_maxpool2d");
    } else if (!call.isNone(6, "divisor_override")) {
      return fail("divisor_override is not supported by fixed_avgpool2d");
    }
    // ceil_mode is harmless when it gives floor's output size.
    if (node.outShape[2] !=
            (node.inShape[2] - (*kernel)[0]) / (*stride)[0] + 1 ||
        node.outShape[3] != (node.inShape[3] - (*kernel)[1]) / (*stride)[1] + 1)
      return fail("ceil_mode is not supported by the pooling components");
    return setWindow(node, *kernel, *stride, reason);
  }
  if (name == "adaptive_avg_pool2d" || name == "mean") {
    node.kind = HardwareOpKind::AvgPool2d;
    if (rank != 4)
      return need4d();
    int64_t height = node.inShape[2], width = node.inShape[3];
    int64_t oh = 1, ow = 1;
    if (name == "mean") {
      auto dims = getIntList(call.get(1, "dim"), 1);
      SmallVector<int64_t> normalized;
      for (int64_t dim : dims.value_or(SmallVector<int64_t>()))
        normalized.push_back(dim < 0 ? dim + 4 : dim);
      llvm::sort(normalized);
      if (normalized != SmallVector<int64_t>{2, 3})
        return fail("fixed_avgpool2d computes the mean over dims (2, 3) "
                    "only");
      if (!call.isNone(3, "dtype"))
        return fail("a dtype argument is not supported");
    } else {
      auto size = getIntList(call.get(1, "output_size"), 2);
      if (!size)
        return fail("its output_size must be constant");
      oh = (*size)[0];
      ow = (*size)[1];
      if (oh < 1 || ow < 1 || height % oh != 0 || width % ow != 0)
        return fail("fixed_avgpool2d needs equal windows: output size " +
                    Twine(join(*size)) + " must divide the input's " +
                    join({height, width}));
    }
    int64_t kh = height / oh, kw = width / ow;
    return setWindow(node, {kh, kw}, {kh, kw}, reason);
  }
  return fail("no fixed-point component");
}

} // namespace

int64_t HardwareNode::inNumel() const {
  int64_t numel = 1;
  for (int64_t size : inShape)
    numel *= size;
  return numel;
}

int64_t HardwareNode::outNumel() const {
  int64_t numel = 1;
  for (int64_t size : outShape)
    numel *= size;
  return numel;
}

bool mav::describeHardwareNode(NodeOpInterface node, HardwareNode &result,
                               SymbolTableCollection &symbols,
                               std::string &reason) {
  result.op = node.getOperation();
  result.name = node.getNodeName().str();
  CommonMetaAttr common = node.getCommonMeta();
  const OpInfo *info = common ? lookupMaseOp(common.getMaseOp()) : nullptr;
  result.component = info ? info->hardware : nullptr;
  if (!result.component) {
    reason = "no hardware component";
    return false;
  }
  FailureOr<AtenCall> call = getAtenCall(node, symbols);
  if (failed(call)) {
    reason = "its module body is not a single operator call";
    return false;
  }
  std::optional<SmallVector<int64_t>> in =
      node->getNumOperands() ? getStaticShape(node->getOperand(0))
                             : std::nullopt;
  std::optional<SmallVector<int64_t>> out =
      node->getNumResults() == 1 ? getStaticShape(node->getResult(0))
                                 : std::nullopt;
  if (!in || !out) {
    reason = "its input and result need static shapes";
    return false;
  }
  result.inShape = *in;
  result.outShape = *out;
  return describeCall(*call, result, symbols, reason);
}

std::optional<FixedFormat> mav::getFixedFormat(ValueMetaAttr value) {
  if (!value || value.getType() != "fixed" || !value.getPrecision() ||
      value.getPrecision().size() != 2)
    return std::nullopt;
  ArrayRef<int64_t> precision = value.getPrecision().asArrayRef();
  return FixedFormat{precision[0], precision[1]};
}

/// The format of the first entry of `values` (a node's results or a graph's
/// inputs).
static std::optional<FixedFormat> firstFormat(ArrayAttr values) {
  if (!values || values.empty())
    return std::nullopt;
  return getFixedFormat(values[0].dyn_cast<ValueMetaAttr>());
}

/// The reciprocal's fraction bits for a window of n words: enough that the
/// result is within one unit of the true mean (docs/Hardware.md), at most 30.
static int64_t chooseRecipFrac(FixedFormat format, int64_t windowSize) {
  return std::min<int64_t>(30, format.width + ceilLog2(windowSize) + 1);
}

FailureOr<HardwareGraph> mav::lowerToHardware(GraphOp graph) {
  HardwareGraph lowered;
  Block &block = graph.getBodyBlock();
  if (block.getNumArguments() != 1)
    return graph.emitError()
           << "the hardware flow needs a graph with one tensor input, @"
           << graph.getSymName() << " has " << block.getNumArguments();
  DenseMap<Value, unsigned> producers;
  SymbolTableCollection symbols;
  HardwareNode input;
  input.name = graph.getArgNames()[0].cast<StringAttr>().str();
  std::optional<SmallVector<int64_t>> inputShape =
      getStaticShape(block.getArgument(0));
  auto inputs = graph->getAttrOfType<ArrayAttr>("inputs");
  std::optional<FixedFormat> inputFormat = firstFormat(inputs);
  if (!inputShape || !inputFormat)
    return graph.emitError() << "input '" << input.name
                             << "' needs a static shape and a fixed-point "
                                "format: run -mav-quantize";
  input.inShape = input.outShape = *inputShape;
  input.format = *inputFormat;
  producers[block.getArgument(0)] = 0;
  lowered.nodes.push_back(std::move(input));

  for (Operation &op : block.without_terminator()) {
    auto node = dyn_cast<NodeOpInterface>(op);
    if (!node || isa<GetAttrOp>(op))
      continue;
    StringRef maseOp =
        node.getCommonMeta() ? node.getCommonMeta().getMaseOp() : "";
    HardwareNode lowering;
    std::string reason;
    if (!describeHardwareNode(node, lowering, symbols, reason))
      return op.emitError()
             << "node '" << node.getNodeName() << "' ("
             << (maseOp.empty() ? op.getName().getStringRef() : maseOp)
             << "): " << reason;
    std::optional<FixedFormat> format =
        firstFormat(node.getCommonMeta().getResults());
    if (!format)
      return op.emitError() << "node '" << node.getNodeName()
                            << "' has no fixed-point format: run "
                               "-mav-quantize";
    lowering.format = *format;
    int64_t terms = 0;
    if (lowering.kind == HardwareOpKind::Linear)
      terms = lowering.inShape.back();
    else if (lowering.kind == HardwareOpKind::Conv2d)
      terms = lowering.inShape[1] * lowering.kernelH * lowering.kernelW;
    if (2 * format->width + ceilLog2(terms + 1) > 63)
      return op.emitError()
             << "node '" << node.getNodeName() << "': the accumulator of "
             << terms << " terms at width " << format->width
             << " needs more than 63 bits";
    if (lowering.kind == HardwareOpKind::AvgPool2d)
      lowering.recipFrac =
          chooseRecipFrac(*format, lowering.kernelH * lowering.kernelW);
    unsigned streamInputs = (lowering.kind == HardwareOpKind::Add ||
                             lowering.kind == HardwareOpKind::Mul)
                                ? 2
                                : 1;
    for (unsigned index = 0; index < streamInputs; ++index) {
      Value operand = op.getOperand(index);
      if (streamInputs == 2 && index == 1 && op.getNumOperands() < 2)
        break;
      auto found = producers.find(operand);
      if (found == producers.end()) {
        auto producer = operand.getDefiningOp<NodeOpInterface>();
        return op.emitError()
               << "node '" << node.getNodeName() << "': input " << index
               << " comes from "
               << (producer ? "node '" + producer.getNodeName().str() + "'"
                            : std::string("a value"))
               << ", which has no hardware";
      }
      lowering.operands.push_back(found->second);
    }
    for (Value result : op.getResults())
      producers[result] = lowered.nodes.size();
    lowered.nodes.push_back(std::move(lowering));
  }

  OutputOp output = graph.getOutput();
  if (output->getNumOperands() != 1)
    return output.emitError()
           << "the hardware flow needs a graph with one "
              "tensor output, @"
           << graph.getSymName() << " returns " << output->getNumOperands();
  auto found = producers.find(output->getOperand(0));
  if (found == producers.end())
    return output.emitError() << "the graph's output has no hardware";
  lowered.output = found->second;
  return lowered;
}

FailureOr<std::vector<int64_t>>
mav::quantizeWeight(WeightOp weight, FixedFormat format, size_t count) {
  if (!weight)
    return std::vector<int64_t>(count, 0);
  std::optional<std::vector<float>> values = readF32Elements(weight.getValue());
  if (!values)
    return weight.emitError() << "weight '" << weight.getSymName()
                              << "' has no f32 values to quantize";
  if (values->size() != count)
    return weight.emitError()
           << "weight '" << weight.getSymName() << "' has " << values->size()
           << " values, the node needs " << count;
  std::vector<int64_t> words;
  words.reserve(values->size());
  for (float value : *values)
    words.push_back(quantize(value, format));
  return words;
}
