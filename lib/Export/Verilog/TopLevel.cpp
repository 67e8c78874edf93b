//===- TopLevel.cpp - The generated top module ----------------------------===//
//
// Every stream is three signals, `<s>_data`, `<s>_valid`, `<s>_ready`. A
// node's inputs are the streams `<node>_in<k>`, its result `<node>_out`. A
// producer with one consumer is wired to it; with several, a fixed_fork
// broadcasts it and a fixed_fifo holding two whole tensors sits on each
// branch, so that no branch can stall another (a residual block's skip path
// waits for the whole body). On the way to each consumer (planEdgeGlue), a
// fixed_fifo of one whole tensor decouples a buffered producer that has no
// fork, a fixed_cast converts a stream whose format differs from the
// consumer's, and a fixed_width_convert one whose width (words per beat)
// does. Every stream has its producer's width until then.
//
//===----------------------------------------------------------------------===//

#include "TopLevel.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mav;

namespace {

constexpr int kTopOutput = -1;

/// Where a stream goes: input `port` of node `node`, or the top's output.
struct Sink {
  int node;
  unsigned port;
};

class TopLevelWriter {
public:
  TopLevelWriter(const TopLevelPlan &plan, llvm::StringSet<> &modules)
      : plan(plan), graph(*plan.graph), modules(modules) {}

  std::string write();

private:
  static int64_t busWidth(FixedFormat format, int64_t words) {
    return format.width * words;
  }
  const std::string &name(unsigned node) const {
    return plan.instanceNames[node];
  }
  void declare(const std::string &stream, FixedFormat format, int64_t words);
  void connect(const std::string &to, const std::string &from);
  void instance(StringRef module, const std::string &instanceName,
                const llvm::StringMap<std::string> &params,
                ArrayRef<std::pair<std::string, std::string>> ports);
  /// An instance with one stream in (`data_in_0`) and one out.
  void streamInstance(StringRef module, const std::string &instanceName,
                      const llvm::StringMap<std::string> &params,
                      const std::string &in, const std::string &out);
  void nodeInstance(unsigned index);
  void route(unsigned producer, const std::string &stream, Sink sink,
             bool branched);
  void fanOut(unsigned producer, ArrayRef<Sink> sinks);

  const TopLevelPlan &plan;
  const HardwareGraph &graph;
  llvm::StringSet<> &modules;
  std::string declarations, body;
};

void TopLevelWriter::declare(const std::string &stream, FixedFormat format,
                             int64_t words) {
  llvm::raw_string_ostream os(declarations);
  os << "  logic [" << busWidth(format, words) - 1 << ":0] " << stream
     << "_data;\n"
     << "  logic " << stream << "_valid;\n"
     << "  logic " << stream << "_ready;\n";
}

void TopLevelWriter::connect(const std::string &to, const std::string &from) {
  llvm::raw_string_ostream os(body);
  os << "  assign " << to << "_data = " << from << "_data;\n"
     << "  assign " << to << "_valid = " << from << "_valid;\n"
     << "  assign " << from << "_ready = " << to << "_ready;\n";
}

void TopLevelWriter::instance(
    StringRef module, const std::string &instanceName,
    const llvm::StringMap<std::string> &params,
    ArrayRef<std::pair<std::string, std::string>> ports) {
  modules.insert(module);
  const Component *component = lookupComponent(module);
  assert(component && "component checked by the exporter");
  llvm::raw_string_ostream os(body);
  os << "  " << module << " #(\n";
  for (auto [index, param] : llvm::enumerate(component->parameters)) {
    auto found = params.find(param);
    assert(found != params.end() && "every parameter has a value");
    os << "    ." << param << "(" << found->second << ")"
       << (index + 1 < component->parameters.size() ? ",\n" : "\n");
  }
  os << "  ) " << instanceName << " (\n    .clk(clk),\n    .rst(rst)";
  for (auto &[port, signal] : ports)
    os << ",\n    ." << port << "(" << signal << ")";
  os << "\n  );\n";
}

/// Ports of stream `stream` as the component's `port` (data_in_0, ...).
void addStreamPorts(SmallVectorImpl<std::pair<std::string, std::string>> &ports,
                    StringRef port, const std::string &stream) {
  ports.push_back({port.str(), stream + "_data"});
  ports.push_back({(port + "_valid").str(), stream + "_valid"});
  ports.push_back({(port + "_ready").str(), stream + "_ready"});
}

void TopLevelWriter::streamInstance(StringRef module,
                                    const std::string &instanceName,
                                    const llvm::StringMap<std::string> &params,
                                    const std::string &in,
                                    const std::string &out) {
  SmallVector<std::pair<std::string, std::string>> ports;
  addStreamPorts(ports, "data_in_0", in);
  addStreamPorts(ports, "data_out_0", out);
  instance(module, instanceName, params, ports);
}

std::string wordsPerBeat(int64_t words) {
  return std::to_string(words) + (words == 1 ? " word" : " words") + " a beat";
}

std::string quoted(StringRef text) { return ("\"" + text + "\"").str(); }

void TopLevelWriter::nodeInstance(unsigned index) {
  const HardwareNode &node = graph.nodes[index];
  const std::string &inst = name(index);
  llvm::StringMap<std::string> params;
  auto set = [&](StringRef param, int64_t value) {
    params[param] = std::to_string(value);
  };
  set("DATA_WIDTH", node.format.width);
  set("FRAC_WIDTH", node.format.frac);
  if (llvm::is_contained(node.component->parameters, "PARALLELISM"))
    set("PARALLELISM", node.widths.out);
  node.component->instanceParameters(node, params);
  if (!plan.weightFiles[index].empty()) {
    params["WEIGHTS_FILE"] = quoted(plan.weightFiles[index]);
    params["BIAS_FILE"] = quoted(plan.biasFiles[index]);
  }
  SmallVector<std::pair<std::string, std::string>> ports;
  for (unsigned port = 0; port < node.operands.size(); ++port) {
    std::string stream = inst + "_in" + std::to_string(port);
    declare(stream, node.format, node.widths.in[port]);
    addStreamPorts(ports, "data_in_" + std::to_string(port), stream);
  }
  declare(inst + "_out", node.format, node.widths.out);
  addStreamPorts(ports, "data_out_0", inst + "_out");
  instance(node.component->module, "u_" + inst, params, ports);
}

void TopLevelWriter::route(unsigned producer, const std::string &stream,
                           Sink sink, bool branched) {
  if (sink.node == kTopOutput) {
    connect("top_out", stream);
    return;
  }
  const HardwareNode &from = graph.nodes[producer];
  const HardwareNode &to = graph.nodes[sink.node];
  EdgeGlue glue = planEdgeGlue(graph, producer, sink.node, sink.port, branched);
  int64_t fromWords = from.widths.out, toWords = to.widths.in[sink.port];
  std::string target = name(sink.node) + "_in" + std::to_string(sink.port);
  std::string current = stream;
  // Each piece of glue writes `next`: the target when it is the last one.
  auto next = [&](StringRef suffix, bool last, FixedFormat format,
                  int64_t words) {
    if (last)
      return target;
    std::string piece = target + suffix.str();
    declare(piece, format, words);
    return piece;
  };
  if (glue.fifoDepth) {
    std::string buffered =
        next("_buffered", !glue.cast && !glue.convert, from.format, fromWords);
    llvm::StringMap<std::string> params;
    params["DATA_WIDTH"] = std::to_string(from.format.width);
    params["FRAC_WIDTH"] = std::to_string(from.format.frac);
    params["PARALLELISM"] = std::to_string(fromWords);
    params["DEPTH"] = std::to_string(glue.fifoDepth);
    streamInstance("fixed_fifo", "u_" + target + "_fifo", params, current,
                   buffered);
    current = buffered;
  }
  if (glue.cast) {
    std::string cast = next("_cast", !glue.convert, to.format, fromWords);
    llvm::StringMap<std::string> params;
    params["IN_WIDTH"] = std::to_string(from.format.width);
    params["IN_FRAC_WIDTH"] = std::to_string(from.format.frac);
    params["OUT_WIDTH"] = std::to_string(to.format.width);
    params["OUT_FRAC_WIDTH"] = std::to_string(to.format.frac);
    params["PARALLELISM"] = std::to_string(fromWords);
    streamInstance("fixed_cast", "u_" + target + "_cast", params, current,
                   cast);
    current = cast;
  }
  if (glue.convert) {
    llvm::StringMap<std::string> params;
    params["DATA_WIDTH"] = std::to_string(to.format.width);
    params["FRAC_WIDTH"] = std::to_string(to.format.frac);
    params["IN_PARALLELISM"] = std::to_string(fromWords);
    params["OUT_PARALLELISM"] = std::to_string(toWords);
    streamInstance("fixed_width_convert", "u_" + target + "_widen", params,
                   current, target);
    current = target;
  }
  if (current != target)
    connect(target, current);
}

void TopLevelWriter::fanOut(unsigned producer, ArrayRef<Sink> sinks) {
  const HardwareNode &node = graph.nodes[producer];
  const std::string source = name(producer) + "_out";
  if (sinks.size() == 1)
    return route(producer, source, sinks.front(), /*branched=*/false);

  std::string fork = name(producer) + "_fork";
  int64_t branches = sinks.size();
  {
    llvm::raw_string_ostream os(declarations);
    os << "  logic [" << busWidth(node.format, node.widths.out) - 1 << ":0] "
       << fork << "_data;\n"
       << "  logic [" << branches - 1 << ":0] " << fork << "_valid;\n"
       << "  logic [" << branches - 1 << ":0] " << fork << "_ready;\n";
  }
  llvm::StringMap<std::string> params;
  params["DATA_WIDTH"] = std::to_string(node.format.width);
  params["FRAC_WIDTH"] = std::to_string(node.format.frac);
  params["PARALLELISM"] = std::to_string(node.widths.out);
  params["OUTPUTS"] = std::to_string(branches);
  SmallVector<std::pair<std::string, std::string>> ports;
  addStreamPorts(ports, "data_in_0", source);
  addStreamPorts(ports, "data_out_0", fork);
  instance("fixed_fork", "u_" + fork, params, ports);

  int64_t depth = getBranchFifoDepth(node);
  for (auto [index, sink] : llvm::enumerate(sinks)) {
    std::string branch = fork + std::to_string(index);
    std::string buffered = branch + "_fifo";
    declare(branch, node.format, node.widths.out);
    declare(buffered, node.format, node.widths.out);
    llvm::raw_string_ostream os(body);
    os << "  assign " << branch << "_data = " << fork << "_data;\n"
       << "  assign " << branch << "_valid = " << fork << "_valid[" << index
       << "];\n"
       << "  assign " << fork << "_ready[" << index << "] = " << branch
       << "_ready;\n";
    llvm::StringMap<std::string> fifoParams;
    fifoParams["DATA_WIDTH"] = params["DATA_WIDTH"];
    fifoParams["FRAC_WIDTH"] = params["FRAC_WIDTH"];
    fifoParams["PARALLELISM"] = params["PARALLELISM"];
    fifoParams["DEPTH"] = std::to_string(depth);
    streamInstance("fixed_fifo", "u_" + buffered, fifoParams, branch, buffered);
    route(producer, buffered, sink, /*branched=*/true);
  }
}

std::string TopLevelWriter::write() {
  FixedFormat inFormat = graph.nodes[0].format;
  FixedFormat outFormat = graph.nodes[graph.output].format;
  int64_t inWords = graph.nodes[0].widths.out;
  int64_t outWords = graph.nodes[graph.output].widths.out;
  declare(name(0) + "_out", inFormat, inWords);
  declare("top_out", outFormat, outWords);
  connect(name(0) + "_out", "top_in");

  std::vector<SmallVector<Sink, 2>> sinks(graph.nodes.size());
  for (auto [index, node] : llvm::enumerate(graph.nodes)) {
    if (index > 0)
      nodeInstance(index);
    for (auto [port, producer] : llvm::enumerate(node.operands))
      sinks[producer].push_back(
          {static_cast<int>(index), static_cast<unsigned>(port)});
  }
  sinks[graph.output].push_back({kTopOutput, 0});
  for (unsigned producer = 0; producer < graph.nodes.size(); ++producer)
    if (!sinks[producer].empty())
      fanOut(producer, sinks[producer]);

  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// Generated by mav-translate --export-verilog from @"
     << plan.graphName << ". Do not edit.\n"
     << "// Streams: word 0 of a beat in the low bits; input "
     << formatFixed(inFormat) << ", " << wordsPerBeat(inWords) << ", output "
     << formatFixed(outFormat) << ", " << wordsPerBeat(outWords)
     << " (docs/Hardware.md).\n"
     << "module top (\n"
     << "  input  logic clk,\n"
     << "  input  logic rst,\n"
     << "  input  logic [" << busWidth(inFormat, inWords) - 1
     << ":0] data_in_0,\n"
     << "  input  logic data_in_0_valid,\n"
     << "  output logic data_in_0_ready,\n"
     << "  output logic [" << busWidth(outFormat, outWords) - 1
     << ":0] data_out_0,\n"
     << "  output logic data_out_0_valid,\n"
     << "  input  logic data_out_0_ready\n"
     << ");\n"
     << "  logic [" << busWidth(inFormat, inWords) - 1 << ":0] top_in_data;\n"
     << "  logic top_in_valid;\n"
     << "  logic top_in_ready;\n"
     << declarations << "\n"
     << "  assign top_in_data = data_in_0;\n"
     << "  assign top_in_valid = data_in_0_valid;\n"
     << "  assign data_in_0_ready = top_in_ready;\n"
     << "  assign data_out_0 = top_out_data;\n"
     << "  assign data_out_0_valid = top_out_valid;\n"
     << "  assign top_out_ready = data_out_0_ready;\n"
     << body << "endmodule\n";
  return text;
}

} // namespace

std::string mav::emitTopLevel(const TopLevelPlan &plan,
                              llvm::StringSet<> &modules) {
  return TopLevelWriter(plan, modules).write();
}
