//===- Session.cpp - One mav module held for Python -----------------------===//

#include "Session.h"
#include "Failure.h"

#include "mav/Checkpoint/Checkpoint.h"
#include "mav/Checkpoint/WeightsFile.h"
#include "mav/Export/Html.h"
#include "mav/Export/Json.h"
#include "mav/Export/Verilog.h"
#include "mav/IR/BytecodeBounds.h"
#include "mav/IR/MavDialect.h"
#include "mav/IR/NodeBuilder.h"
#include "mav/IR/SourceBuffer.h"
#include "mav/Import/TorchScript.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/Report.h"
#include "mav/Summary/ModelSummary.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mav;
using namespace mav::python;

Session::Session(std::string source)
    : context(std::make_unique<MLIRContext>()), source(std::move(source)) {
  context->loadDialect<MavDialect>();
  context->printOpOnDiagnostic(false);
}

Session::~Session() = default;

std::unique_ptr<Session>
Session::importTorchScript(const std::string &path, const std::string &name,
                           const std::vector<std::string> &inputShapes,
                           const std::vector<std::string> &leafModules) {
  std::unique_ptr<Session> session(new Session(name));
  DiagnosticCapture capture(session->getContext(), name);
  auto archive = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
  if (!archive)
    throw MavFailure(
        "cannot read " + path + ": " + archive.getError().message(), name);
  TorchScriptImportOptions options;
  options.inputShapes = inputShapes;
  options.leafModules = leafModules;
  session->module = mav::importTorchScript((*archive)->getBuffer(), name,
                                           options, session->getContext());
  if (!session->module)
    capture.fail("cannot import " + name);
  return session;
}

std::unique_ptr<Session> Session::load(const std::string &path) {
  std::unique_ptr<Session> session(new Session(path));
  DiagnosticCapture capture(session->getContext(), path);
  llvm::Expected<ModuleFile> input = openModuleFile(path);
  if (!input)
    throw MavFailure(llvm::toString(input.takeError()), path);
  session->sourceMgr = std::make_unique<llvm::SourceMgr>();
  llvm::SourceMgr &sourceMgr = *session->sourceMgr;
  sourceMgr.AddNewSourceBuffer(makeParsable(std::move(input->ir)),
                               llvm::SMLoc());
  session->weights = input->weights;
  if (failed(checkResourceBlobs(sourceMgr, sourceMgr.getMainFileID())) ||
      failed(checkBytecodeBounds(sourceMgr, sourceMgr.getMainFileID())))
    capture.fail("cannot read " + path);
  session->module = parseSourceFile<ModuleOp>(sourceMgr, session->getContext());
  if (!session->module ||
      (input->weights &&
       failed(attachCheckpointWeights(*session->module, *input->weights))) ||
      (!input->weights && failed(attachWeightsFile(*session->module, path))))
    capture.fail("cannot read " + path);
  return session;
}

GraphOp Session::getGraph() {
  if (graph)
    return graph;
  graph = module->lookupSymbol<GraphOp>("forward");
  if (!graph) {
    SmallVector<GraphOp> graphs = getPublicGraphs(*module);
    if (graphs.empty())
      throw MavFailure("the module holds no public mav.graph", source);
    graph = graphs.front();
  }
  return graph;
}

Operation *Session::lookupNode(llvm::StringRef name) {
  if (!nodesByName) {
    nodesByName.emplace();
    for (auto node : getGraph().getBodyBlock().getOps<NodeOpInterface>())
      (*nodesByName)[node.getNodeName()] = node;
  }
  auto found = nodesByName->find(name);
  if (found == nodesByName->end())
    throw MavFailure("no node '" + name.str() + "' in graph @" +
                         getGraph().getSymName().str(),
                     source, name.str());
  return found->second;
}

NodeNamer &Session::getNamer() {
  if (!namer)
    namer = getGraphNamer(getGraph());
  return *namer;
}

void Session::nodeAdded(Operation *node) {
  StringRef name = cast<NodeOpInterface>(node).getNodeName();
  if (nodesByName)
    (*nodesByName)[name] = node;
  if (namer)
    namer->reserve(name);
}

void Session::nodeRenamed(llvm::StringRef from, Operation *node) {
  if (nodesByName)
    nodesByName->erase(from);
  nodeAdded(node);
}

void Session::nodeErased(llvm::StringRef name) {
  if (nodesByName)
    nodesByName->erase(name);
}

void Session::forgetNodes() {
  graph = nullptr;
  nodesByName.reset();
  namer.reset();
}

void Session::verify() {
  DiagnosticCapture capture(getContext(), source);
  if (failed(mlir::verify(*module)))
    capture.fail("the module does not verify");
}

void Session::runPipeline(const std::string &pipeline) {
  if (running)
    throw MavFailure("cannot run pipeline '" + pipeline +
                         "': a pipeline is running on this graph (a pass "
                         "cannot run passes on the graph it runs on)",
                     source);
  DiagnosticCapture capture(getContext(), source);
  std::string parseErrors;
  llvm::raw_string_ostream parseStream(parseErrors);
  PassManager manager(getContext(), ModuleOp::getOperationName(),
                      OpPassManager::Nesting::Implicit);
  StringRef text = StringRef(pipeline).trim();
  if (text.consume_front("builtin.module(") && text.consume_back(")")) {
    if (failed(parsePassPipeline(text, manager, parseStream)))
      throw MavFailure("invalid pipeline '" + pipeline + "': " + parseErrors,
                       source);
  } else if (failed(parsePassPipeline(text, manager, parseStream))) {
    throw MavFailure("invalid pipeline '" + pipeline + "': " + parseErrors,
                     source);
  }
  if (failed(mlir::verify(*module)))
    capture.fail("the module does not verify");
  // A pipeline that fails half way leaves the module as it found it.
  OwningOpRef<ModuleOp> before = module->clone();
  forgetNodes();
  running = true;
  LogicalResult result = manager.run(*module);
  running = false;
  forgetNodes();
  if (failed(result)) {
    module = std::move(before);
    capture.fail("pipeline '" + pipeline + "' failed");
  }
}

std::string Session::passOutputsJson() {
  llvm::json::Array records;
  if (auto outputs = (*module)->getAttrOfType<ArrayAttr>("mav.pass_outputs"))
    for (auto output : outputs.getAsRange<PassOutputAttr>())
      records.push_back(llvm::json::Object{
          {"pass", output.getPass().str()},
          {"outputs", attributeToJson(output.getOutputs())}});
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(std::move(records));
  return text;
}

void Session::saveCheckpoint(const std::string &path) {
  DiagnosticCapture capture(getContext(), path);
  if (failed(writeCheckpoint(*module, path)))
    capture.fail("cannot write " + path);
}

std::string Session::print(bool weights) {
  auto *dialect = getContext()->getOrLoadDialect<MavDialect>();
  dialect->setElideWeights(!weights);
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  dialect->setElideWeights(false);
  return text;
}

std::string Session::exportJson(bool graphsOnly) {
  DiagnosticCapture capture(getContext(), source);
  std::string text;
  llvm::raw_string_ostream os(text);
  JsonExportOptions options;
  options.indent = 0;
  options.graphsOnly = graphsOnly;
  if (failed(mav::exportJson(*module, os, options)))
    capture.fail("cannot export " + source);
  return text;
}

std::string Session::summaryTable(unsigned depth) {
  SymbolTableCollection symbols;
  ModelSummary summary = summarizeGraph(*module, getGraph(), symbols);
  std::string text;
  llvm::raw_string_ostream os(text);
  printSummaryTable(summary, depth, os);
  return text;
}

std::string Session::exportHtml(const std::string &title) {
  DiagnosticCapture capture(getContext(), source);
  std::string text;
  llvm::raw_string_ostream os(text);
  if (failed(mav::exportHtml(*module, title, os)))
    capture.fail("cannot export " + source);
  return text;
}

void Session::exportVerilog(const std::string &directory) {
  DiagnosticCapture capture(getContext(), source);
  FailureOr<VerilogDesign> design =
      mav::exportVerilog(*module, getGraph().getSymName());
  if (failed(design))
    capture.fail("cannot export " + source + " to Verilog");
  if (llvm::Error error = writeDesignDirectory(*design, directory))
    throw MavFailure(llvm::toString(std::move(error)), directory);
}
