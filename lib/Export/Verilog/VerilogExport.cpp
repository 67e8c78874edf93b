//===- VerilogExport.cpp - A quantized graph as SystemVerilog -------------===//
//
// Lowers the graph (HardwareGraph), checks that its hardware metadata is
// current, chooses the stream width, rounds the weights into ROM files, and
// writes top.sv with the components it needs.
//
//===----------------------------------------------------------------------===//

#include "TopLevel.h"
#include "mav/Export/Verilog.h"

#include "mav/Hardware/FixedPointModel.h"
#include "mav/Support/AtomicOutput.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mav;

namespace {

/// A Verilog identifier for a node name: [A-Za-z0-9_], not starting with a
/// digit, unique among `taken`.
std::string makeIdentifier(StringRef name, llvm::StringSet<> &taken) {
  std::string id;
  for (char c : name)
    id += llvm::isAlnum(c) ? c : '_';
  if (id.empty() || llvm::isDigit(id.front()))
    id = "n_" + id;
  std::string unique = id;
  for (int suffix = 1; !taken.insert(unique).second; ++suffix)
    unique = id + "_" + std::to_string(suffix);
  return unique;
}

/// The components the top needs besides the nodes': a fork and FIFOs where
/// a value has several consumers, a cast where formats differ, a width
/// converter where widths do.
SmallVector<StringRef> getGlueComponents(const HardwareGraph &graph) {
  std::vector<int> consumers(graph.nodes.size(), 0);
  ++consumers[graph.output];
  bool cast = false, convert = false;
  for (const HardwareNode &node : graph.nodes)
    for (auto [port, producer] : llvm::enumerate(node.operands)) {
      ++consumers[producer];
      cast |= graph.nodes[producer].format != node.format;
      convert |= graph.nodes[producer].widths.out != node.widths.in[port];
    }
  SmallVector<StringRef> glue;
  if (llvm::any_of(consumers, [](int count) { return count > 1; }))
    glue.append({"fixed_fork", "fixed_fifo"});
  if (cast)
    glue.push_back("fixed_cast");
  if (convert)
    glue.push_back("fixed_width_convert");
  return glue;
}

llvm::json::Object streamJson(const HardwareNode &node) {
  return llvm::json::Object{{"width", node.format.width},
                            {"frac", node.format.frac},
                            {"words", node.outNumel()},
                            {"parallelism", node.widths.out}};
}

} // namespace

FailureOr<VerilogDesign> mav::exportVerilog(ModuleOp module,
                                            StringRef graphName) {
  auto graphOp = module.lookupSymbol<GraphOp>(graphName);
  if (!graphOp)
    return module.emitError() << "no mav.graph @" << graphName;
  FailureOr<HardwareGraph> graph = lowerToHardware(graphOp);
  if (failed(graph))
    return failure();
  for (StringRef required : getGlueComponents(*graph))
    if (!lookupComponent(required))
      return module.emitError()
             << "the component library has no '" << required << "'";

  for (const HardwareNode &node : llvm::drop_begin(graph->nodes))
    if (failed(checkHardwareMetadata(node)))
      return failure();
  FailureOr<FixedPointModel> model = FixedPointModel::create(*graph);
  if (failed(model))
    return failure();

  TopLevelPlan plan;
  plan.graph = &*graph;
  plan.graphName = graphName.str();
  VerilogDesign design;
  llvm::StringSet<> taken = {"top", "top_in", "top_out", "clk", "rst"};
  for (auto [index, node] : llvm::enumerate(graph->nodes)) {
    plan.instanceNames.push_back(makeIdentifier(node.name, taken));
    plan.weightFiles.emplace_back();
    plan.biasFiles.emplace_back();
    if (!node.weight)
      continue;
    const std::string &inst = plan.instanceNames.back();
    plan.weightFiles.back() = inst + "_weight.mem";
    plan.biasFiles.back() = inst + "_bias.mem";
    design.files.push_back(
        {plan.weightFiles.back(),
         formatHexWords(model->getWeightWords(index), node.format.width)});
    design.files.push_back(
        {plan.biasFiles.back(),
         formatHexWords(model->getBiasWords(index), node.format.width)});
  }

  llvm::StringSet<> modules;
  std::string top = emitTopLevel(plan, modules);

  // Component files in dependency order: the registry lists components so.
  std::vector<std::string> fileList;
  llvm::StringSet<> listed;
  for (const Component *component : getComponents()) {
    if (!modules.contains(component->module))
      continue;
    for (StringRef file : component->dependenceFiles)
      if (listed.insert(file).second)
        fileList.push_back(file.str());
  }
  for (const std::string &file : fileList) {
    auto found = llvm::find_if(getRtlSources(), [&](const auto &source) {
      return source.first == file;
    });
    if (found == getRtlSources().end())
      return module.emitError()
             << "the component library has no '" << file << "'";
    design.files.push_back({file, found->second.str()});
  }
  design.files.push_back({"top.sv", top});
  fileList.push_back("top.sv");
  design.files.push_back({"filelist.f", llvm::join(fileList, "\n") + "\n"});

  const HardwareNode &input = graph->nodes.front();
  const HardwareNode &output = graph->nodes[graph->output];
  llvm::json::Array files;
  for (const std::string &file : fileList)
    files.push_back(file);
  llvm::json::Object manifest{{"graph", graphName},
                              {"top", "top"},
                              {"input", streamJson(input)},
                              {"output", streamJson(output)},
                              {"files", std::move(files)}};
  std::string json;
  llvm::raw_string_ostream os(json);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))) << "\n";
  design.files.push_back({"design.json", json});
  return design;
}

llvm::Error mav::writeDesignDirectory(const VerilogDesign &design,
                                      StringRef directory) {
  return writeDirectoryAtomically(
      directory, [&](StringRef temporary) -> llvm::Error {
        for (auto &[name, contents] : design.files) {
          SmallString<256> path = temporary;
          llvm::sys::path::append(path, name);
          std::error_code error;
          llvm::raw_fd_ostream os(path, error);
          if (!error) {
            os << contents;
            os.close();
            error = os.error();
            os.clear_error(); // reported below, not by the destructor
          }
          if (error)
            return llvm::createStringError(error, "cannot write " + name +
                                                      ": " + error.message());
        }
        return llvm::Error::success();
      });
}
