//===- Quantize.cpp - Fixed-point formats for the hardware flow -----------===//
//
// Records a <width, frac> format in the metadata of every node that fits a
// hardware component (HardwareGraph decides) and of each graph input. The
// weights keep their float values; the fixed-point model and the ROMs round
// them where they are used. With calibration the float graph runs first
// (mav::observeValueRanges, on the libtorch side), and each node's fraction
// width comes from the range of the values it holds.
//
//===----------------------------------------------------------------------===//

#include "mav/Hardware/HardwareGraph.h"
#include "mav/IR/WeightData.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/Passes.h"
#include "mav/Passes/TransformPasses.h"
#include "mav/Runtime/GraphAnalyses.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

namespace mav {
#define GEN_PASS_DEF_QUANTIZE
#include "mav/Passes/TransformPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {

/// The config file: formats by node name and by mase_op.
struct QuantizeConfig {
  FixedFormat defaultFormat;
  llvm::StringMap<FixedFormat> byName, byType;
};

std::string formatError(FixedFormat format) {
  if (format.width < kMinFixedWidth || format.width > kMaxFixedWidth)
    return "width " + std::to_string(format.width) + " is outside " +
           std::to_string(kMinFixedWidth) + ".." +
           std::to_string(kMaxFixedWidth);
  if (format.frac < 0 || format.frac >= format.width)
    return "frac " + std::to_string(format.frac) +
           " is outside 0..width-1 (width " + std::to_string(format.width) +
           ")";
  return "";
}

/// Reads `{"width": W, "frac": F}`; on failure returns a message.
std::string parseFormat(const llvm::json::Value &value, FixedFormat &format) {
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return "expected {\"width\": W, \"frac\": F}";
  for (const auto &entry : *object)
    if (entry.first != "width" && entry.first != "frac")
      return "unknown key '" + entry.first.str() + "'";
  std::optional<int64_t> width = object->getInteger("width");
  std::optional<int64_t> frac = object->getInteger("frac");
  if (!width || !frac)
    return "expected integer \"width\" and \"frac\"";
  format = {*width, *frac};
  return formatError(format);
}

std::string parseConfig(StringRef text, QuantizeConfig &config) {
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json)
    return llvm::toString(json.takeError());
  const llvm::json::Object *root = json->getAsObject();
  if (!root)
    return "expected a JSON object";
  for (const auto &entry : *root) {
    StringRef key = entry.first;
    if (key == "default") {
      std::string error = parseFormat(entry.second, config.defaultFormat);
      if (!error.empty())
        return "\"default\": " + error;
      continue;
    }
    if (key != "by_name" && key != "by_type")
      return "unknown key '" + key.str() +
             "' (expected default, by_type, by_name)";
    const llvm::json::Object *table = entry.second.getAsObject();
    if (!table)
      return "\"" + key.str() + "\": expected an object";
    auto &formats = key == "by_name" ? config.byName : config.byType;
    for (const auto &item : *table) {
      FixedFormat format;
      std::string error = parseFormat(item.second, format);
      if (!error.empty())
        return "\"" + key.str() + "\" \"" + item.first.str() + "\": " + error;
      formats[item.first] = format;
    }
  }
  return "";
}

/// Calibration keeps this much headroom above the largest value seen, so
/// that a value near it does not saturate once rounded, and inputs a little
/// beyond the samples' still fit.
constexpr double kCalibrationMargin = 1.0 / 8;

/// The smallest I >= 1 with 2^(I-1) > range * (1 + margin): the integer
/// bits, sign included, that hold `range`. Capped past any usable width.
int64_t integerBitsFor(double range) {
  double needed = range * (1 + kCalibrationMargin);
  int64_t bits = 1;
  while (bits <= 2 * kMaxFixedWidth && !(std::ldexp(1.0, bits - 1) > needed))
    ++bits;
  return bits;
}

/// The largest |w| of a weight, or why there is none.
FailureOr<double> weightAbsMax(WeightOp weight, std::string &error) {
  if (!weight)
    return 0.0;
  std::optional<std::vector<float>> values = readF32Elements(weight.getValue());
  if (!values) {
    error = "weight '" + weight.getSymName().str() +
            "' has no f32 values (calibration reads them)";
    return failure();
  }
  double absMax = 0;
  for (float value : *values)
    absMax = std::max(absMax, static_cast<double>(std::fabs(value)));
  return absMax;
}

/// `value` marked fixed point with `format`, when it is a tensor entry.
Attribute withFormat(Attribute value, FixedFormat format) {
  auto meta = value.dyn_cast<ValueMetaAttr>();
  if (!meta || !meta.getShape())
    return value;
  MLIRContext *context = value.getContext();
  return ValueMetaAttr::get(
      context, meta.getName(), meta.getShape(), meta.getTorchDtype(), "fixed",
      DenseI64ArrayAttr::get(context, {format.width, format.frac}),
      meta.getStride(), meta.getValue());
}

ArrayAttr withFormat(ArrayAttr values, FixedFormat format) {
  if (!values)
    return values;
  SmallVector<Attribute> updated;
  for (Attribute value : values)
    updated.push_back(withFormat(value, format));
  return ArrayAttr::get(values.getContext(), updated);
}

/// What calibration chose for one node or input.
struct CalibratedFormat {
  std::string name;
  int64_t frac;
  double range;
  bool saturating;
};

struct Quantize : mav::impl::QuantizeBase<Quantize> {
  using QuantizeBase::QuantizeBase;

  /// Option combinations that only the textual form can tell apart from
  /// defaults (an options struct sets every option).
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(QuantizeBase::initializeOptions(options, errorHandler)))
      return failure();
    if (calibrate.hasValue() && calibrate < 1)
      return errorHandler("mav-quantize: calibrate=" + Twine(calibrate) +
                          ": the number of calibration inputs must be at "
                          "least 1");
    bool calibrating = calibrate.hasValue() || !calibrationInputs.empty();
    if (calibrating && frac.hasValue())
      return errorHandler("mav-quantize: frac=" + Twine(frac) +
                          " with calibration: calibration chooses each "
                          "node's frac (give the total width)");
    if (calibrationSeed.hasValue() && !calibrate.hasValue())
      return errorHandler("mav-quantize: calibration-seed needs calibrate=N "
                          "(the seeded inputs it draws)");
    return success();
  }

  bool isCalibrating() const {
    return calibrate > 0 || !calibrationInputs.empty();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    QuantizeConfig config;
    config.defaultFormat = {width, isCalibrating() ? 0 : frac};
    if (std::string error = formatError(config.defaultFormat); !error.empty()) {
      module.emitError() << "mav-quantize: " << error;
      return signalPassFailure();
    }
    if (calibrate < 0) {
      module.emitError() << "mav-quantize: calibrate=" << calibrate.getValue()
                         << ": the number of calibration inputs must be at "
                            "least 1";
      return signalPassFailure();
    }
    if (calibrate > 0 && !calibrationInputs.empty()) {
      module.emitError() << "mav-quantize: calibrate=" << calibrate.getValue()
                         << " and calibration-inputs: give one source of "
                            "calibration inputs";
      return signalPassFailure();
    }
    if (!configFile.empty() && failed(readConfig(config)))
      return signalPassFailure();
    std::unique_ptr<llvm::MemoryBuffer> inputsFile;
    if (!calibrationInputs.empty()) {
      std::string error;
      inputsFile = openInputFile(calibrationInputs, &error);
      if (!inputsFile) {
        module.emitError() << "mav-quantize: cannot read calibration-inputs '"
                           << calibrationInputs << "': " << error;
        return signalPassFailure();
      }
    }
    std::vector<CalibratedFormat> calibrated;

    llvm::StringSet<> namesSeen;
    SymbolTableCollection symbols;
    llvm::StringMap<int64_t> formats;
    SmallVector<Attribute> unquantized;
    Builder builder(&getContext());
    int64_t quantized = 0;
    bool refused = false;
    for (GraphOp graph : getPublicGraphs(module)) {
      std::optional<ValueRangeResult> ranges;
      if (isCalibrating()) {
        ranges.emplace();
        RangeObservation observation;
        observation.draw.seed = calibrationSeed;
        observation.samples = calibrate;
        if (inputsFile) {
          observation.inputsData = inputsFile->getBuffer();
          observation.inputsName = calibrationInputs;
        }
        if (failed(observeValueRanges(graph, observation, *ranges)))
          return signalPassFailure();
        samplesRun = ranges->samples;
      }
      DenseMap<Value, FixedFormat> valueFormats;
      quantizeInputs(graph, config, namesSeen, valueFormats,
                     ranges ? &*ranges : nullptr, calibrated);
      for (auto node : graph.getBodyBlock().getOps<NodeOpInterface>()) {
        namesSeen.insert(node.getNodeName());
        CommonMetaAttr common = node.getCommonMeta();
        if (isa<GetAttrOp>(node.getOperation()))
          continue;
        if (!common || common.getMaseOp().empty()) {
          node->emitError() << "node '" << node.getNodeName()
                            << "' has no common metadata: run -mav-raise "
                               "first";
          return signalPassFailure();
        }
        HardwareNode lowering;
        std::string reason;
        if (!describeHardwareNode(node, lowering, symbols, reason)) {
          if (!allowFloat) {
            StringRef maseOp = common.getMaseOp();
            bool shapeArithmetic = maseOp == "size" ||
                                   maseOp == "num_to_tensor" ||
                                   maseOp == "item";
            node->emitError()
                << "node '" << node.getNodeName() << "' (" << maseOp
                << ") cannot be quantized: " << reason
                << (shapeArithmetic
                        ? "; run -mav-fold-shape-arithmetic after -mav-raise"
                        : "; lower it first")
                << ", or give allow-float=true to leave it in float";
            refused = true;
          }
          unquantized.push_back(builder.getStringAttr(node.getNodeName()));
          continue;
        }
        FixedFormat format;
        if (!ranges ||
            isConfigured(config, node.getNodeName(), common.getMaseOp())) {
          format = chooseFormat(config, node.getNodeName(), common.getMaseOp());
        } else {
          FailureOr<double> range = nodeRange(node, lowering, *ranges);
          if (failed(range))
            return signalPassFailure();
          format =
              calibratedFormat(config, node.getNodeName(), *range, calibrated);
        }
        setCommonMeta(
            node, CommonMetaAttr::get(&getContext(), common.getMaseType(),
                                      common.getMaseOp(),
                                      withFormat(common.getArgs(), format),
                                      withFormat(common.getResults(), format)));
        for (Value result : node->getResults())
          valueFormats[result] = format;
        ++formats["<" + std::to_string(format.width) + "," +
                  std::to_string(format.frac) + ">"];
        ++quantized;
        ++numQuantized;
      }
      quantizeOutputs(graph, valueFormats);
    }
    if (refused || failed(checkNames(module, config, namesSeen)))
      return signalPassFailure();

    SmallVector<NamedAttribute> outputs = {
        builder.getNamedAttr("quantized", builder.getI64IntegerAttr(quantized)),
        builder.getNamedAttr("formats", countsAttr(&getContext(), formats)),
        builder.getNamedAttr("unquantized_nodes",
                             builder.getArrayAttr(unquantized))};
    if (isCalibrating())
      outputs.push_back(
          builder.getNamedAttr("calibration", calibrationAttr(calibrated)));
    recordPassOutputs(module, getArgument(), outputs);
  }

  /// `{samples, calibrated, saturating, saturating_nodes, nodes}`.
  DictionaryAttr
  calibrationAttr(const std::vector<CalibratedFormat> &calibrated) {
    Builder builder(&getContext());
    SmallVector<NamedAttribute> nodes;
    SmallVector<Attribute> saturating;
    for (const CalibratedFormat &entry : calibrated) {
      nodes.push_back(builder.getNamedAttr(
          entry.name,
          builder.getDictionaryAttr(
              {builder.getNamedAttr("frac",
                                    builder.getI64IntegerAttr(entry.frac)),
               builder.getNamedAttr("range",
                                    builder.getF64FloatAttr(entry.range))})));
      if (entry.saturating)
        saturating.push_back(builder.getStringAttr(entry.name));
    }
    return builder.getDictionaryAttr(
        {builder.getNamedAttr("samples", builder.getI64IntegerAttr(samplesRun)),
         builder.getNamedAttr("calibrated",
                              builder.getI64IntegerAttr(calibrated.size())),
         builder.getNamedAttr("saturating",
                              builder.getI64IntegerAttr(saturating.size())),
         builder.getNamedAttr("saturating_nodes",
                              builder.getArrayAttr(saturating)),
         builder.getNamedAttr("nodes", builder.getDictionaryAttr(nodes))});
  }

  /// Whether a by_name or by_type entry gives the node its format, which
  /// then wins over calibration.
  static bool isConfigured(const QuantizeConfig &config, StringRef name,
                           StringRef maseOp) {
    return config.byName.count(name) || config.byType.count(maseOp);
  }

  /// The calibrated format of a value of range `range`, recorded.
  FixedFormat calibratedFormat(const QuantizeConfig &config, StringRef name,
                               double range,
                               std::vector<CalibratedFormat> &calibrated) {
    int64_t total = config.defaultFormat.width;
    int64_t bits = integerBitsFor(range);
    bool saturating = bits > total;
    int64_t chosen = saturating ? 0 : total - bits;
    calibrated.push_back({name.str(), chosen, range, saturating});
    ++numCalibrated;
    if (saturating)
      ++numSaturating;
    return {total, chosen};
  }

  /// The largest |x| of what the node holds: its result, its stream
  /// inputs (their producers' results, or graph inputs), its weights.
  FailureOr<double> nodeRange(NodeOpInterface node,
                              const HardwareNode &lowering,
                              const ValueRangeResult &ranges) {
    double range = ranges.nodeAbsMax.lookup(node.getOperation());
    for (unsigned operand : lowering.streamOperands) {
      if (operand >= node->getNumOperands())
        continue;
      Value value = node->getOperand(operand);
      if (auto argument = dyn_cast<BlockArgument>(value)) {
        if (argument.getArgNumber() < ranges.inputAbsMax.size())
          range = std::max(range, ranges.inputAbsMax[argument.getArgNumber()]);
      } else {
        range =
            std::max(range, ranges.nodeAbsMax.lookup(value.getDefiningOp()));
      }
    }
    for (WeightOp weight : {lowering.weight, lowering.bias}) {
      std::string error;
      FailureOr<double> absMax = weightAbsMax(weight, error);
      if (failed(absMax)) {
        node->emitError() << "node '" << node.getNodeName() << "': " << error;
        return failure();
      }
      range = std::max(range, *absMax);
    }
    return range;
  }

  LogicalResult readConfig(QuantizeConfig &config) {
    std::string error;
    std::unique_ptr<llvm::MemoryBuffer> file =
        openInputFile(configFile, &error);
    if (!file) {
      getOperation().emitError() << "mav-quantize: cannot read config '"
                                 << configFile << "': " << error;
      return failure();
    }
    error = parseConfig(file->getBuffer(), config);
    if (!error.empty()) {
      getOperation().emitError() << configFile << ": " << error;
      return failure();
    }
    return success();
  }

  static FixedFormat chooseFormat(const QuantizeConfig &config, StringRef name,
                                  StringRef maseOp) {
    if (auto found = config.byName.find(name); found != config.byName.end())
      return found->second;
    if (auto found = config.byType.find(maseOp); found != config.byType.end())
      return found->second;
    return config.defaultFormat;
  }

  void quantizeInputs(GraphOp graph, const QuantizeConfig &config,
                      llvm::StringSet<> &namesSeen,
                      DenseMap<Value, FixedFormat> &valueFormats,
                      const ValueRangeResult *ranges,
                      std::vector<CalibratedFormat> &calibrated) {
    auto inputs = graph->getAttrOfType<ArrayAttr>("inputs");
    SmallVector<Attribute> updated;
    for (auto [index, name] : llvm::enumerate(graph.getArgNames())) {
      StringRef placeholder = name.cast<StringAttr>().getValue();
      namesSeen.insert(placeholder);
      FixedFormat format =
          ranges && !isConfigured(config, placeholder, "") &&
                  index < ranges->inputAbsMax.size()
              ? calibratedFormat(config, placeholder,
                                 ranges->inputAbsMax[index], calibrated)
              : chooseFormat(config, placeholder, "");
      valueFormats[graph.getBodyBlock().getArgument(index)] = format;
      if (inputs && index < inputs.size())
        updated.push_back(withFormat(inputs[index], format));
    }
    if (inputs)
      graph->setAttr("inputs", ArrayAttr::get(&getContext(), updated));
  }

  void quantizeOutputs(GraphOp graph,
                       const DenseMap<Value, FixedFormat> &valueFormats) {
    auto outputs = graph->getAttrOfType<ArrayAttr>("outputs");
    if (!outputs)
      return;
    SmallVector<Attribute> updated(outputs.begin(), outputs.end());
    for (auto [index, value] :
         llvm::enumerate(graph.getOutput()->getOperands()))
      if (auto found = valueFormats.find(value);
          found != valueFormats.end() && index < updated.size())
        updated[index] = withFormat(updated[index], found->second);
    graph->setAttr("outputs", ArrayAttr::get(&getContext(), updated));
  }

  /// Every by_name entry names a node or input; every by_type entry an
  /// operator with hardware.
  LogicalResult checkNames(ModuleOp module, const QuantizeConfig &config,
                           const llvm::StringSet<> &namesSeen) {
    for (const auto &entry : config.byName)
      if (!namesSeen.contains(entry.first())) {
        module.emitError() << configFile << ": \"by_name\" \"" << entry.first()
                           << "\" names no node or input";
        return failure();
      }
    for (const auto &entry : config.byType) {
      if (getComponentsFor(entry.first()).empty()) {
        module.emitError() << configFile << ": \"by_type\" \"" << entry.first()
                           << "\" is not an operator with hardware";
        return failure();
      }
    }
    return success();
  }

  int64_t samplesRun = 0;
};

} // namespace
