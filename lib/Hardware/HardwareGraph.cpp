//===- HardwareGraph.cpp - A graph as the hardware flow sees it -----------===//
//
// A node is read at the level of its aten call (mav/IR/AtenCall.h); the
// component entries of its operator (mav/Hardware/Component.h) decide, in
// order, whether it fits one of them and with what sizes and weights.
//
//===----------------------------------------------------------------------===//

#include "mav/Hardware/HardwareGraph.h"
#include "Components/DescribeSupport.h"
#include "mav/IR/WeightData.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mav;

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

unsigned mav::getParallelDim(size_t rank) { return rank == 4 ? 2 : 0; }

int64_t mav::largestDivisorAtMost(int64_t extent, int64_t cap) {
  int64_t best = 1;
  for (int64_t divisor = 1; divisor <= std::min(extent, cap); ++divisor)
    if (extent % divisor == 0)
      best = divisor;
  return best;
}

int64_t mav::getWholeTensorFifoDepth(int64_t words, int64_t wordsPerBeat) {
  int64_t beats = words / wordsPerBeat;
  int64_t depth = 2;
  while (depth < beats)
    depth *= 2;
  return depth;
}

int64_t mav::getBranchFifoDepth(const HardwareNode &producer) {
  return getWholeTensorFifoDepth(2 * producer.outNumel(), producer.widths.out);
}

EdgeGlue mav::planEdgeGlue(const HardwareGraph &graph, unsigned producer,
                           unsigned consumer, unsigned port, bool branched) {
  const HardwareNode &from = graph.nodes[producer];
  const HardwareNode &to = graph.nodes[consumer];
  EdgeGlue glue;
  glue.cast = from.format != to.format;
  glue.convert = from.widths.out != to.widths.in[port];
  if (!branched && producer != 0 &&
      from.component->timing(from).kind == ComponentTiming::Kind::Buffered)
    glue.fifoDepth = getWholeTensorFifoDepth(from.outNumel(), from.widths.out);
  return glue;
}

LogicalResult mav::checkHardwareMetadata(const HardwareNode &node) {
  auto hardware = node.op->getAttrOfType<HardwareMetaAttr>("hardware");
  auto nodeName = [&] { return "node '" + node.name + "'"; };
  if (!hardware || !hardware.getVerilogParam())
    return node.op->emitError() << nodeName()
                                << " has no hardware metadata: run "
                                   "-mav-add-hardware-metadata";
  DictionaryAttr params = hardware.getVerilogParam();
  auto width = params.getAs<IntegerAttr>("DATA_OUT_0_PRECISION_0");
  auto frac = params.getAs<IntegerAttr>("DATA_OUT_0_PRECISION_1");
  if (!width || !frac || width.getInt() != node.format.width ||
      frac.getInt() != node.format.frac)
    return node.op->emitError()
           << nodeName()
           << ": its hardware metadata does not match its fixed-point "
              "format "
           << formatFixed(node.format)
           << ": run -mav-add-hardware-metadata after -mav-quantize";
  if (hardware.getModule() != node.component->module)
    return node.op->emitError()
           << nodeName() << ": its hardware metadata names module '"
           << hardware.getModule() << "', the registry '"
           << node.component->module << "'";
  return success();
}

int64_t HardwareNode::items() const {
  int64_t count = 1;
  for (int64_t size : ArrayRef(inShape).take_front(batchDims))
    count *= size;
  return count;
}

bool mav::describeHardwareNode(NodeOpInterface node, HardwareNode &result,
                               SymbolTableCollection &symbols,
                               std::string &reason) {
  result.op = node.getOperation();
  result.name = node.getNodeName().str();
  CommonMetaAttr common = node.getCommonMeta();
  StringRef maseOp = common ? common.getMaseOp() : StringRef();
  SmallVector<const Component *, 2> candidates = getComponentsFor(maseOp);
  if (candidates.empty())
    return fail(reason, "no hardware component");
  FailureOr<AtenCall> call = getAtenCall(node, symbols);
  if (failed(call))
    return fail(reason, "its module body is not a single operator call");
  std::optional<SmallVector<int64_t>> in =
      node->getNumOperands() ? getStaticShape(node->getOperand(0))
                             : std::nullopt;
  std::optional<SmallVector<int64_t>> out =
      node->getNumResults() == 1 ? getStaticShape(node->getResult(0))
                                 : std::nullopt;
  if (!in || !out)
    return fail(reason, "its input and result need static shapes");
  // The first component that fits computes the node; when none does, the
  // reasons of all of them say why.
  std::string reasons;
  for (const Component *component : candidates) {
    HardwareNode described;
    described.op = result.op;
    described.name = result.name;
    described.component = component;
    described.inShape = *in;
    described.outShape = *out;
    std::string why;
    if (component->describe(ComponentCall{maseOp, *call, symbols}, described,
                            why)) {
      result = std::move(described);
      return true;
    }
    reasons += (reasons.empty() ? "" : "; ") + why;
  }
  reason = std::move(reasons);
  return false;
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

std::string mav::getStreamPortName(const HardwareNode &node, unsigned port) {
  return "DATA_IN_" + std::to_string(node.streamOperands[port]);
}

std::optional<int64_t> mav::getPortWidth(DictionaryAttr params,
                                         StringRef prefix) {
  std::optional<int64_t> width;
  for (unsigned dim = 0;; ++dim) {
    auto value = params.getAs<IntegerAttr>(
        (prefix + "_PARALLELISM_DIM_" + Twine(dim)).str());
    if (!value)
      return width;
    width = width.value_or(1) * value.getInt();
  }
}

/// The node's stream widths from its hardware metadata, checked against its
/// component.
static LogicalResult readStreamWidths(HardwareNode &node) {
  node.widths.in.assign(node.streamOperands.size(), 1);
  auto hardware = node.op->getAttrOfType<HardwareMetaAttr>("hardware");
  if (!hardware || !hardware.getVerilogParam())
    return success();
  DictionaryAttr params = hardware.getVerilogParam();
  StreamWidths widths;
  widths.out = getPortWidth(params, "DATA_OUT_0").value_or(1);
  for (unsigned port = 0; port < node.streamOperands.size(); ++port)
    widths.in.push_back(getPortWidth(params, getStreamPortName(node, port))
                            .value_or(widths.out));
  if (node.component->legalWidths(node, widths) != widths) {
    std::string text;
    for (int64_t width : widths.in)
      text += std::to_string(width) + " ";
    return node.op->emitError()
           << "node '" << node.name << "': its hardware metadata streams "
           << text << "words in and " << widths.out << " out a beat, which "
           << node.component->module
           << " cannot: run -mav-add-hardware-metadata again";
  }
  node.widths = std::move(widths);
  return success();
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
    // A node computed from weights alone is a constant: its consumers hold
    // it in a ROM (getConstantWeight), or say that they cannot.
    if (llvm::none_of(op.getOperands(),
                      [&](Value operand) { return producers.count(operand); }))
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
    if (lowering.component->prepare &&
        !lowering.component->prepare(lowering, reason))
      return op.emitError()
             << "node '" << node.getNodeName() << "': " << reason;
    for (auto [port, index] : llvm::enumerate(lowering.streamOperands)) {
      Value operand = op.getOperand(index);
      auto found = producers.find(operand);
      if (found == producers.end()) {
        auto producer = operand.getDefiningOp<NodeOpInterface>();
        return op.emitError()
               << "node '" << node.getNodeName() << "': input " << port
               << " comes from "
               << (producer ? "node '" + producer.getNodeName().str() + "'"
                            : std::string("a value"))
               << ", which has no hardware";
      }
      lowering.operands.push_back(found->second);
    }
    if (failed(readStreamWidths(lowering)))
      return failure();
    for (Value result : op.getResults())
      producers[result] = lowered.nodes.size();
    lowered.nodes.push_back(std::move(lowering));
  }
  for (const HardwareNode &node : llvm::drop_begin(lowered.nodes)) {
    auto port = llvm::find(node.operands, 0u);
    if (port != node.operands.end()) {
      lowered.nodes[0].widths.out =
          node.widths.in[port - node.operands.begin()];
      break;
    }
  }
  lowered.nodes[0].widths.in = {lowered.nodes[0].widths.out};

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

LogicalResult mav::readRealWeights(const HardwareGraph &graph,
                                   StringRef purpose,
                                   std::vector<std::vector<float>> &weights,
                                   std::vector<std::vector<float>> &biases) {
  weights.assign(graph.nodes.size(), {});
  biases.assign(graph.nodes.size(), {});
  auto read = [&](WeightOp weight,
                  std::vector<float> &values) -> LogicalResult {
    if (!weight)
      return success();
    std::optional<std::vector<float>> read = readF32Elements(weight.getValue());
    if (!read)
      return weight.emitError() << "weight '" << weight.getSymName()
                                << "' has no f32 values to " << purpose;
    values = std::move(*read);
    return success();
  };
  for (auto [index, node] : llvm::enumerate(graph.nodes))
    if (node.weight && (failed(read(node.weight, weights[index])) ||
                        failed(read(node.bias, biases[index]))))
      return failure();
  return success();
}
