//===- JsonExport.cpp - The annotated graph as JSON -----------------------===//
//
// Nodes are listed as torch.fx lists them: placeholders, the graph's nodes
// in order, then `output`. Metadata attributes become JSON objects with their
// field names; argument forms JSON has no word for (operand references,
// None, dtypes) are written as their MLIR text. Keys are written in a fixed
// order, so the output is deterministic.
//
//===----------------------------------------------------------------------===//

#include "mav/Export/Json.h"
#include "mav/IR/MavOps.h"
#include "mav/IR/MavTypes.h"
#include "mav/Operators/OperatorInference.h"
#include "mav/Summary/ModelSummary.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/JSON.h"

#include <cmath>

using namespace mlir;
using namespace mav;

namespace {

std::string torchDtype(Type type) {
  StringRef name = getTorchDtypeName(type);
  if (!name.empty())
    return name.str();
  std::string printed;
  llvm::raw_string_ostream(printed) << type;
  return printed;
}

std::string printed(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream(text) << attr;
  return text;
}

class Writer {
public:
  Writer(llvm::raw_ostream &os, unsigned indent) : json(os, indent) {}

  void writeModule(ModuleOp module, ArrayRef<GraphOp> graphs,
                   const JsonExportOptions &options) {
    SymbolTableCollection symbols;
    std::vector<ModelSummary> summaries;
    for (GraphOp graph : graphs)
      summaries.push_back(summarizeGraph(module, graph, symbols));
    json.object([&] {
      json.attribute("format", "mav-graph");
      json.attribute("version", kJsonExportVersion);
      if (!options.title.empty())
        json.attribute("title", options.title);
      json.attributeArray("graphs", [&] {
        for (auto [graph, graphSummary] : llvm::zip(graphs, summaries)) {
          summary = &graphSummary;
          writeGraph(graph);
        }
      });
      if (options.graphsOnly)
        return;
      json.attributeArray("weights", [&] {
        for (WeightOp weight : module.getOps<WeightOp>())
          writeWeight(weight);
      });
      // The module tree and the summary are those of the first graph.
      summary = &summaries.front();
      writeModules();
      writeSummary();
      if (options.resources)
        json.attribute("resources", llvm::json::Object(*options.resources));
    });
  }

private:
  /// A tensor's shape and dtype, when its type says them.
  void writeType(Type type) {
    auto tensor = type.dyn_cast<RankedTensorType>();
    if (!tensor) {
      json.attribute("type", printed(TypeAttr::get(type)));
      return;
    }
    json.attributeArray("shape", [&] {
      for (int64_t extent : tensor.getShape())
        json.value(ShapedType::isDynamic(extent) ? llvm::json::Value(nullptr)
                                                 : llvm::json::Value(extent));
    });
    json.attribute("dtype", torchDtype(tensor.getElementType()));
  }

  /// Every module path with its class: the scopes of the summary, and the
  /// root as "".
  void writeModules() {
    json.attributeArray("modules", [&] {
      json.object([&] {
        json.attribute("path", "");
        json.attribute("class", summary->rootClass);
      });
      for (const ScopeSummary &scope : summary->scopes)
        json.object([&] {
          json.attribute("path", scope.path);
          json.attribute("class", scope.moduleClass);
        });
    });
  }

  void writeCost(const OpCost &cost) {
    json.attribute("macs", cost.macs);
    json.attribute("flops", cost.flops);
  }

  void writeSummary() {
    json.attributeObject("summary", [&] {
      json.attributeArray("rows", [&] {
        for (const ScopeSummary &scope : summary->scopes)
          json.object([&] {
            json.attribute("path", scope.path);
            json.attribute("depth", scope.depth);
            json.attribute("class", scope.moduleClass);
            if (scope.outputShape)
              json.attribute("output_shape",
                             llvm::json::Array(*scope.outputShape));
            else
              json.attribute("output_shape", nullptr);
            json.attribute("params", scope.trainable);
            json.attribute("frozen", scope.frozen);
            writeCost(scope.cost);
          });
      });
      json.attributeObject("totals", [&] {
        json.attribute("params", summary->trainable + summary->frozen);
        json.attribute("trainable", summary->trainable);
        json.attribute("frozen", summary->frozen);
        writeCost(summary->cost);
        json.attribute("uncounted",
                       static_cast<int64_t>(summary->uncounted.size()));
        json.attribute("input_mb", summary->inputBytes / 1e6);
        json.attribute("forward_mb", summary->activationBytes / 1e6);
        json.attribute("params_mb", summary->parameterBytes / 1e6);
        json.attribute("total_mb",
                       (summary->inputBytes + summary->activationBytes +
                        summary->parameterBytes) /
                           1e6);
      });
    });
  }

  void writeWeight(WeightOp weight) {
    json.object([&] {
      json.attribute("name", weight.getSymName());
      json.attribute("kind", stringifyWeightKind(weight.getKind()));
      writeType(weight.getWeightType());
      json.attribute("trainable", weight.isTrainable());
      if (auto tied = weight.getTiedToAttr())
        json.attribute("tied_to", tied.getValue());
    });
  }

  void writeIndexList(StringRef key, DenseI64ArrayAttr list) {
    if (list)
      json.attributeArray(key, [&] {
        for (int64_t value : list.asArrayRef())
          json.value(value);
      });
  }

  void writeString(StringRef key, StringRef value) {
    if (!value.empty())
      json.attribute(key, value);
  }

  /// `{name: {shape, torch_dtype, ...}, ...}`, MASE's form of args/results.
  void writeValues(StringRef key, ArrayAttr values) {
    if (!values)
      return;
    json.attributeObject(key, [&] {
      for (auto value : values.getAsRange<ValueMetaAttr>())
        json.attributeObject(value.getName(), [&] {
          writeIndexList("shape", value.getShape());
          writeString("torch_dtype", value.getTorchDtype());
          writeString("type", value.getType());
          writeIndexList("precision", value.getPrecision());
          writeIndexList("stride", value.getStride());
          if (value.getValue()) {
            json.attributeBegin("value");
            writeAttr(value.getValue());
            json.attributeEnd();
          }
        });
    });
  }

  void writeAttr(Attribute attr) {
    if (auto boolean = attr.dyn_cast<BoolAttr>())
      return json.value(boolean.getValue());
    if (auto integer = attr.dyn_cast<IntegerAttr>())
      return json.value(integer.getValue().getSExtValue());
    if (auto real = attr.dyn_cast<FloatAttr>()) {
      double value = real.getValueAsDouble();
      if (std::isfinite(value))
        return json.value(value);
      return json.value(printed(attr));
    }
    if (auto string = attr.dyn_cast<StringAttr>())
      return json.value(string.getValue());
    if (auto array = attr.dyn_cast<ArrayAttr>())
      return json.array([&] {
        for (Attribute element : array)
          writeAttr(element);
      });
    if (auto list = attr.dyn_cast<DenseI64ArrayAttr>())
      return json.array([&] {
        for (int64_t value : list.asArrayRef())
          json.value(value);
      });
    if (auto dict = attr.dyn_cast<DictionaryAttr>())
      return json.object([&] {
        for (NamedAttribute entry : dict) {
          json.attributeBegin(entry.getName().getValue());
          writeAttr(entry.getValue());
          json.attributeEnd();
        }
      });
    json.value(printed(attr));
  }

  void writeCommon(CommonMetaAttr common) {
    json.attributeObject("common", [&] {
      if (!common)
        return;
      writeString("mase_type", common.getMaseType());
      writeString("mase_op", common.getMaseOp());
      writeValues("args", common.getArgs());
      writeValues("results", common.getResults());
    });
  }

  void writeHardware(HardwareMetaAttr hardware) {
    json.attributeObject("hardware", [&] {
      if (!hardware)
        return;
      if (BoolAttr implicit = hardware.getIsImplicit())
        json.attribute("is_implicit", implicit.getValue());
      writeString("toolchain", hardware.getToolchain());
      writeString("module", hardware.getModule());
      if (IntegerAttr device = hardware.getDeviceId())
        json.attribute("device_id", device.getInt());
      for (auto [key, dict] :
           {std::make_pair("interface", hardware.getInterface()),
            std::make_pair("verilog_param", hardware.getVerilogParam())})
        if (dict) {
          json.attributeBegin(key);
          writeAttr(dict);
          json.attributeEnd();
        }
      if (ArrayAttr files = hardware.getDependenceFiles()) {
        json.attributeBegin("dependence_files");
        writeAttr(files);
        json.attributeEnd();
      }
      writeIndexList("max_parallelism", hardware.getMaxParallelism());
    });
  }

  void writeSoftware(SoftwareMetaAttr software) {
    json.attributeBegin("software");
    if (software)
      writeAttr(software.getEntries());
    else
      json.object([] {});
    json.attributeEnd();
  }

  void writeNode(NodeOpInterface node) {
    Operation *op = node;
    json.object([&] {
      json.attribute("name", node.getNodeName());
      json.attribute("op", op->getName().stripDialect());
      // FX's target: the module path of a call_module, the weight of a
      // get_attr, the operator otherwise.
      if (auto call = dyn_cast<CallModuleOp>(op)) {
        json.attribute("target", call.getTarget());
        json.attribute("module_class", call.getModuleClass());
      } else if (auto getAttr = dyn_cast<GetAttrOp>(op)) {
        json.attribute("target", getAttr.getTarget());
      } else {
        json.attribute("target", getNodeTarget(op));
      }
      ScopeAttr scope = node.getNodeScope();
      json.attribute("scope", scope ? scope.getPath() : StringRef());
      CommonMetaAttr common = node.getCommonMeta();
      writeString("mase_op", common ? common.getMaseOp() : "");
      writeString("mase_type", common ? common.getMaseType() : "");
      json.attributeArray("results", [&] {
        for (Value result : op->getResults())
          json.object([&] { writeType(result.getType()); });
      });
      auto cost = summary->nodeCosts.find(op);
      if (cost != summary->nodeCosts.end()) {
        json.attribute("flops", cost->second.flops);
        json.attribute("macs", cost->second.macs);
      }
      writeCommon(common);
      writeHardware(node.getHardwareMeta());
      writeSoftware(node.getSoftwareMeta());
    });
  }

  /// The node and result index that define `value`.
  std::pair<StringRef, unsigned> producer(Value value) {
    if (auto argument = value.dyn_cast<BlockArgument>())
      return {placeholderNames[argument], 0};
    auto node = cast<NodeOpInterface>(value.getDefiningOp());
    return {node.getNodeName(), value.cast<OpResult>().getResultNumber()};
  }

  void writeEdges(GraphOp graph) {
    json.attributeArray("edges", [&] {
      for (Operation &op : graph.getBodyBlock()) {
        StringRef consumer = isa<OutputOp>(op)
                                 ? StringRef("output")
                                 : cast<NodeOpInterface>(op).getNodeName();
        for (OpOperand &operand : op.getOpOperands()) {
          auto [from, result] = producer(operand.get());
          json.object([&] {
            json.attribute("from", from);
            json.attribute("result", result);
            json.attribute("to", consumer);
            json.attribute("operand", operand.getOperandNumber());
          });
        }
      }
    });
  }

  void writeGraph(GraphOp graph) {
    Block &block = graph.getBodyBlock();
    placeholderNames.clear();
    for (auto [argument, name] :
         llvm::zip(block.getArguments(), graph.getArgNames()))
      placeholderNames[argument] = name.cast<StringAttr>().getValue();
    json.object([&] {
      json.attribute("name", graph.getSymName());
      json.attributeArray("inputs", [&] {
        for (BlockArgument argument : block.getArguments())
          json.object([&] {
            json.attribute("name", placeholderNames[argument]);
            writeType(argument.getType());
          });
      });
      json.attributeArray("outputs", [&] {
        for (Value value : graph.getOutput().getOperands()) {
          auto [from, result] = producer(value);
          json.object([&] {
            json.attribute("node", from);
            json.attribute("result", result);
            writeType(value.getType());
          });
        }
      });
      json.attributeArray("nodes", [&] {
        for (BlockArgument argument : block.getArguments())
          json.object([&] {
            json.attribute("name", placeholderNames[argument]);
            json.attribute("op", "placeholder");
            json.attribute("target", placeholderNames[argument]);
            json.attribute("mase_type", "placeholder");
            json.attribute("scope", "");
            json.attributeArray("results", [&] {
              json.object([&] { writeType(argument.getType()); });
            });
          });
        for (auto node : block.getOps<NodeOpInterface>())
          writeNode(node);
        json.object([&] {
          json.attribute("name", "output");
          json.attribute("op", "output");
          json.attribute("target", "output");
          json.attribute("mase_type", "output");
          json.attribute("scope", "");
        });
      });
      writeEdges(graph);
    });
  }

  llvm::json::OStream json;
  llvm::DenseMap<Value, StringRef> placeholderNames;
  /// The summary of the graph being written.
  const ModelSummary *summary = nullptr;
};

} // namespace

LogicalResult mav::exportJson(ModuleOp module, llvm::raw_ostream &os,
                              const JsonExportOptions &options) {
  SmallVector<GraphOp> graphs;
  for (GraphOp graph : module.getOps<GraphOp>())
    if (graph.getSymVisibility().value_or("public") == "public")
      graphs.push_back(graph);
  if (graphs.empty())
    return module.emitError()
           << "--export-json: the module holds no public mav.graph";
  Writer(os, options.indent).writeModule(module, graphs, options);
  os << "\n";
  return success();
}
