//===- PerformanceModel.cpp - Cycles and resources of a design ------------===//
//
// The instances are those TopLevel.cpp writes, in the same order and with
// the same rules; each instance's figures come from its component's entry,
// glue included (its HardwareNode is the stream it carries).
//
//===----------------------------------------------------------------------===//

#include "mav/Hardware/PerformanceModel.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mav;

namespace {

using Kind = ComponentTiming::Kind;

class DesignBuilder {
public:
  DesignBuilder(const HardwareGraph &graph,
                std::vector<InstanceFigures> *figures)
      : graph(graph), figures(figures) {}

  TimedDesign build();

private:
  unsigned addUnit(TimedUnit::Role role, std::string name,
                   ComponentTiming timing, unsigned inputs, unsigned outputs);
  void connect(unsigned from, unsigned fromPort, unsigned to, unsigned toPort,
               int64_t beats);
  /// A glue instance of `module` on a stream like `stream`.
  unsigned addGlue(StringRef module, std::string name,
                   const HardwareNode &stream, unsigned outputs = 1);
  void route(unsigned producer, unsigned unit, unsigned port, int sink,
             unsigned sinkPort, bool branched);
  void fanOut(unsigned producer, ArrayRef<std::pair<int, unsigned>> sinks);

  const HardwareGraph &graph;
  std::vector<InstanceFigures> *figures;
  TimedDesign design;
  std::vector<unsigned> nodeUnits;
  unsigned sinkUnit = 0;
};

unsigned DesignBuilder::addUnit(TimedUnit::Role role, std::string name,
                                ComponentTiming timing, unsigned inputs,
                                unsigned outputs) {
  TimedUnit unit;
  unit.role = role;
  unit.name = std::move(name);
  unit.timing = std::move(timing);
  unit.inputs.assign(inputs, ~0u);
  unit.outputs.assign(outputs, ~0u);
  design.units.push_back(std::move(unit));
  return design.units.size() - 1;
}

void DesignBuilder::connect(unsigned from, unsigned fromPort, unsigned to,
                            unsigned toPort, int64_t beats) {
  TimedStream stream;
  stream.producer = from;
  stream.producerPort = fromPort;
  stream.consumer = to;
  stream.consumerPort = toPort;
  stream.beatsPerFrame = beats;
  design.streams.push_back(stream);
  unsigned id = design.streams.size() - 1;
  design.units[from].outputs[fromPort] = id;
  design.units[to].inputs[toPort] = id;
}

/// The figures of an instance alone, from its entry.
InstanceFigures describeInstance(const HardwareNode &node,
                                 const ComponentTiming &timing, bool glue) {
  InstanceFigures figures;
  figures.module = node.component->module.str();
  if (!glue) {
    figures.node = node.name;
    figures.items = std::max<int64_t>(node.items(), 1);
    figures.itemCycles = node.component->itemCycles(node);
    figures.multipliers = node.component->multipliers(node);
  } else {
    // One tensor a frame, one beat a cycle on the narrower side.
    int64_t words = node.outNumel();
    int64_t narrower = std::min(node.widths.in.front(), node.widths.out);
    figures.itemCycles = words / narrower;
  }
  figures.cyclesPerFrame = figures.items * figures.itemCycles;
  // Buffered: the items one after another. Streaming: the item cycles
  // include the one cycle of latency, once per frame.
  if (timing.kind == Kind::Buffered)
    figures.latency = figures.cyclesPerFrame;
  else if (!glue)
    figures.latency = figures.items * (figures.itemCycles - 1) + 1;
  else
    figures.latency = figures.itemCycles + (timing.kind == Kind::Fork ? 0 : 1);
  figures.resources = node.component->resources(node);
  return figures;
}

/// A HardwareNode for glue carrying the result of `producer`.
HardwareNode streamOf(const HardwareNode &producer, const Component *glue) {
  HardwareNode stream;
  stream.name = producer.name;
  stream.component = glue;
  stream.format = producer.format;
  stream.inShape = stream.outShape = producer.outShape;
  stream.batchDims =
      std::min<unsigned>(producer.batchDims, producer.outShape.size());
  stream.widths = StreamWidths{{producer.widths.out}, producer.widths.out};
  return stream;
}

unsigned DesignBuilder::addGlue(StringRef module, std::string name,
                                const HardwareNode &stream, unsigned outputs) {
  HardwareNode node = stream;
  node.component = lookupComponent(module);
  assert(node.component && "glue is in the registry");
  ComponentTiming timing = node.component->timing(node);
  if (figures) {
    InstanceFigures instance = describeInstance(node, timing, /*glue=*/true);
    instance.instance = name;
    figures->push_back(std::move(instance));
  }
  return addUnit(TimedUnit::Role::Instance, std::move(name), timing, 1,
                 outputs);
}

void DesignBuilder::route(unsigned producer, unsigned unit, unsigned port,
                          int sink, unsigned sinkPort, bool branched) {
  const HardwareNode &from = graph.nodes[producer];
  int64_t words = from.outNumel();
  int64_t fromWords = from.widths.out;
  if (sink < 0)
    return connect(unit, port, sinkUnit, 0, words / fromWords);
  const HardwareNode &to = graph.nodes[sink];
  EdgeGlue glue = planEdgeGlue(graph, producer, sink, sinkPort, branched);
  int64_t toWords = to.widths.in[sinkPort];
  std::string target = to.name + "_in" + std::to_string(sinkPort);
  HardwareNode stream = streamOf(from, nullptr);
  auto chain = [&](StringRef module, StringRef suffix) {
    unsigned piece = addGlue(module, target + suffix.str(), stream);
    connect(unit, port, piece, 0, words / stream.widths.in.front());
    unit = piece;
    port = 0;
  };
  if (glue.fifoDepth) {
    stream.fifoDepth = glue.fifoDepth;
    chain("fixed_fifo", "_fifo");
    stream.fifoDepth = 0;
  }
  if (glue.cast) {
    stream.format = to.format;
    chain("fixed_cast", "_cast");
  }
  if (glue.convert) {
    stream.widths = StreamWidths{{fromWords}, toWords};
    chain("fixed_width_convert", "_widen");
  }
  connect(unit, port, nodeUnits[sink], sinkPort, words / toWords);
}

void DesignBuilder::fanOut(unsigned producer,
                           ArrayRef<std::pair<int, unsigned>> sinks) {
  unsigned unit = nodeUnits[producer];
  if (sinks.size() == 1)
    return route(producer, unit, 0, sinks[0].first, sinks[0].second,
                 /*branched=*/false);
  const HardwareNode &from = graph.nodes[producer];
  int64_t beats = from.outNumel() / from.widths.out;
  std::string name = from.name + "_fork";
  HardwareNode stream = streamOf(from, nullptr);
  stream.fifoDepth = getBranchFifoDepth(from);
  unsigned fork = addGlue("fixed_fork", name, stream, sinks.size());
  connect(unit, 0, fork, 0, beats);
  for (auto [index, sink] : llvm::enumerate(sinks)) {
    unsigned fifo =
        addGlue("fixed_fifo", name + std::to_string(index) + "_fifo", stream);
    connect(fork, index, fifo, 0, beats);
    route(producer, fifo, 0, sink.first, sink.second, /*branched=*/true);
  }
}

TimedDesign DesignBuilder::build() {
  for (auto [index, node] : llvm::enumerate(graph.nodes)) {
    if (index == 0) {
      nodeUnits.push_back(
          addUnit(TimedUnit::Role::Source, node.name, {}, 0, 1));
      continue;
    }
    ComponentTiming timing = node.component->timing(node);
    if (figures) {
      InstanceFigures instance = describeInstance(node, timing, false);
      instance.instance = node.name;
      figures->push_back(std::move(instance));
    }
    nodeUnits.push_back(addUnit(TimedUnit::Role::Instance, node.name, timing,
                                node.operands.size(), 1));
  }
  sinkUnit = addUnit(TimedUnit::Role::Sink, "output", {}, 1, 0);
  std::vector<SmallVector<std::pair<int, unsigned>, 2>> sinks(
      graph.nodes.size());
  for (auto [index, node] : llvm::enumerate(graph.nodes))
    for (auto [port, producer] : llvm::enumerate(node.operands))
      sinks[producer].push_back(
          {static_cast<int>(index), static_cast<unsigned>(port)});
  sinks[graph.output].push_back({-1, 0});
  for (unsigned producer = 0; producer < graph.nodes.size(); ++producer)
    if (!sinks[producer].empty())
      fanOut(producer, sinks[producer]);
  return std::move(design);
}

json::Object resourcesJson(const ResourceEstimate &resources) {
  return json::Object{{"memory_bits", resources.memoryBits},
                      {"luts", resources.luts},
                      {"flip_flops", resources.flipFlops}};
}

} // namespace

TimedDesign mav::buildTimedDesign(const HardwareGraph &graph,
                                  std::vector<InstanceFigures> *figures) {
  return DesignBuilder(graph, figures).build();
}

Expected<PerformanceReport>
mav::modelPerformance(const HardwareGraph &graph,
                      const PerformanceOptions &options) {
  PerformanceReport report;
  TimedDesign design = buildTimedDesign(graph, &report.instances);
  report.frames = std::max<int64_t>(options.frames, 2);
  Expected<TimingTrace> trace = simulateTiming(design, report.frames);
  if (!trace)
    return trace.takeError();
  report.trace = std::move(*trace);
  ArrayRef<int64_t> ends = report.trace.frameEnds;
  report.latency = ends.front() - report.trace.firstInput + 1;
  report.cyclesPerFrame = ends.back() - ends[ends.size() - 2];
  for (auto [index, instance] : llvm::enumerate(report.instances)) {
    if (instance.cyclesPerFrame >
        report.instances[report.bottleneck].cyclesPerFrame)
      report.bottleneck = index;
    report.multipliers += instance.multipliers;
    report.totals.memoryBits += instance.resources.memoryBits;
    report.totals.luts += instance.resources.luts;
    report.totals.flipFlops += instance.resources.flipFlops;
  }
  return report;
}

mlir::FailureOr<PerformanceReport>
mav::modelPerformance(GraphOp graph, const PerformanceOptions &options) {
  mlir::FailureOr<HardwareGraph> lowered = lowerToHardware(graph);
  if (mlir::failed(lowered))
    return mlir::failure();
  for (const HardwareNode &node : llvm::drop_begin(lowered->nodes))
    if (mlir::failed(checkHardwareMetadata(node)))
      return mlir::failure();
  Expected<PerformanceReport> report = modelPerformance(*lowered, options);
  if (!report)
    return graph.emitError() << toString(report.takeError());
  return std::move(*report);
}

json::Object mav::performanceToJson(const PerformanceReport &report,
                                    const PerformanceOptions &options) {
  json::Array instances;
  for (const InstanceFigures &figures : report.instances) {
    json::Object instance{{"instance", figures.instance},
                          {"module", figures.module},
                          {"kind", figures.node.empty() ? "glue" : "node"},
                          {"items_per_frame", figures.items},
                          {"item_cycles", figures.itemCycles},
                          {"cycles_per_frame", figures.cyclesPerFrame},
                          {"latency_cycles", figures.latency},
                          {"multipliers", figures.multipliers}};
    if (!figures.node.empty())
      instance["node"] = figures.node;
    for (auto &[key, value] : resourcesJson(figures.resources))
      instance[key] = value;
    instances.push_back(std::move(instance));
  }
  const InstanceFigures &bottleneck = report.instances[report.bottleneck];
  double hertz = options.clockMHz * 1e6;
  json::Array ends;
  for (int64_t end : report.trace.frameEnds)
    ends.push_back(end);
  json::Object totals = resourcesJson(report.totals);
  totals["multipliers"] = report.multipliers;
  return json::Object{
      {"clock_mhz", options.clockMHz},
      {"design",
       json::Object{
           {"cycles_per_frame", report.cyclesPerFrame},
           {"latency_cycles", report.latency},
           {"frames_per_second", hertz / report.cyclesPerFrame},
           {"latency_us", report.latency / options.clockMHz},
           {"bottleneck",
            json::Object{{"instance", bottleneck.instance},
                         {"module", bottleneck.module},
                         {"cycles_per_frame", bottleneck.cyclesPerFrame}}},
           {"frames_simulated", report.frames},
           {"first_input_cycle", report.trace.firstInput},
           {"frame_end_cycles", std::move(ends)}}},
      {"totals", std::move(totals)},
      {"estimate", "memory bits as the .sv files declare them; LUTs and "
                   "flip-flops from per-component linear formulas "
                   "(docs/Hardware.md, Performance), not from synthesis"},
      {"instances", std::move(instances)}};
}

std::string mav::summarizePerformance(const PerformanceReport &report,
                                      const PerformanceOptions &options) {
  std::string text;
  raw_string_ostream os(text);
  const InstanceFigures &bottleneck = report.instances[report.bottleneck];
  os << "performance (model, no stalls): latency " << report.latency
     << " cycles, " << report.cyclesPerFrame << " cycles per frame ("
     << format("%.4g", options.clockMHz * 1e6 / report.cyclesPerFrame)
     << " frames/s at " << format("%g", options.clockMHz)
     << " MHz); bottleneck " << bottleneck.instance << " (" << bottleneck.module
     << ", " << bottleneck.cyclesPerFrame << " cycles per frame)\n"
     << "resources (estimate): " << report.multipliers << " multipliers, "
     << report.totals.memoryBits << " memory bits, " << report.totals.luts
     << " LUTs, " << report.totals.flipFlops << " flip-flops\n";
  return text;
}
