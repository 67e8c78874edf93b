//===- Quantize.cpp - Fixed-point formats for the hardware flow -----------===//
//
// Records a <width, frac> format in the metadata of every node that fits a
// hardware component (HardwareGraph decides) and of each graph input. The
// weights keep their float values; the fixed-point model and the ROMs round
// them where they are used.
//
//===----------------------------------------------------------------------===//

#include "mav/Hardware/HardwareGraph.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/TransformPasses.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

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

struct Quantize : mav::impl::QuantizeBase<Quantize> {
  using QuantizeBase::QuantizeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    QuantizeConfig config;
    config.defaultFormat = {width, frac};
    if (std::string error = formatError(config.defaultFormat); !error.empty()) {
      module.emitError() << "mav-quantize: " << error;
      return signalPassFailure();
    }
    if (!configFile.empty() && failed(readConfig(config)))
      return signalPassFailure();

    llvm::StringSet<> namesSeen;
    SymbolTableCollection symbols;
    llvm::StringMap<int64_t> formats;
    SmallVector<Attribute> unquantized;
    Builder builder(&getContext());
    int64_t quantized = 0;
    for (GraphOp graph : getPublicGraphs(module)) {
      DenseMap<Value, FixedFormat> valueFormats;
      quantizeInputs(graph, config, namesSeen, valueFormats);
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
          unquantized.push_back(builder.getStringAttr(node.getNodeName()));
          continue;
        }
        FixedFormat format =
            chooseFormat(config, node.getNodeName(), common.getMaseOp());
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
    if (failed(checkNames(module, config, namesSeen)))
      return signalPassFailure();

    recordPassOutputs(
        module, getArgument(),
        {builder.getNamedAttr("quantized",
                              builder.getI64IntegerAttr(quantized)),
         builder.getNamedAttr("formats", countsAttr(&getContext(), formats)),
         builder.getNamedAttr("unquantized_nodes",
                              builder.getArrayAttr(unquantized))});
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
                      DenseMap<Value, FixedFormat> &valueFormats) {
    auto inputs = graph->getAttrOfType<ArrayAttr>("inputs");
    SmallVector<Attribute> updated;
    for (auto [index, name] : llvm::enumerate(graph.getArgNames())) {
      StringRef placeholder = name.cast<StringAttr>().getValue();
      namesSeen.insert(placeholder);
      FixedFormat format = chooseFormat(config, placeholder, "");
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
};

} // namespace
