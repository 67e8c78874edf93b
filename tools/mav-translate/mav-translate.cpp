//===- mav-translate.cpp - Translations into and out of mav ---------------===//
//
//   mav-translate --import-torchscript MODEL.pt [--input-shape=...]
//                 [--leaf-module=CLASS] [--inline-all] -o OUT.mlir
//   mav-translate --mav-roundtrip IN.mlir -o OUT.mlir
//   mav-translate --export-json IN.mlir -o OUT.json
//   mav-translate --export-json IN.mlir --resources=REPORT.json -o OUT.json
//   mav-translate --export-verilog IN.mlir -o DIR [--graph=NAME]
//   mav-translate --report-resources DIR -o REPORT.json
//                 [--resources-by=instance|both] [--synth-cache=DIR]
//                 [--synth-memory-limit=WORDS] [--synth-generic=false]
//   mav-translate --report-performance IN.mlir [--clock-mhz=F] -o PERF.json
//   mav-translate --summary IN.mlir [--summary-depth=N]
//   mav-translate --export-dot IN.mlir [--dot-collapse-depth=N] -o OUT.dot
//   mav-translate --export-html IN.mlir -o OUT.html
//
// Writes text, or MLIR bytecode with --emit-bytecode. Nothing is written
// unless the translation succeeds; JSON replaces its output file atomically.
//
//===----------------------------------------------------------------------===//

#include "mav/Checkpoint/Checkpoint.h"
#include "mav/Checkpoint/WeightsFile.h"
#include "mav/Export/Dot.h"
#include "mav/Export/Html.h"
#include "mav/Export/Json.h"
#include "mav/Export/Verilog.h"
#include "mav/Hardware/PerformanceModel.h"
#include "mav/Hardware/ResourceReport.h"
#include "mav/IR/BytecodeBounds.h"
#include "mav/IR/MavDialect.h"
#include "mav/IR/MavOps.h"
#include "mav/IR/SourceBuffer.h"
#include "mav/Import/TorchScript.h"
#include "mav/Runtime/TorchLoader.h"
#include "mav/Summary/ModelSummary.h"
#include "mav/Support/AtomicOutput.h"
#include "mav/Tools/ElideWeightsOption.h"
#include "mav/Tools/ExitOnClosedPipe.h"
#include "mav/Tools/WeightsOption.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace {
enum class Translation {
  ImportTorchScript,
  RoundTrip,
  ExportJson,
  ExportVerilog,
  ReportResources,
  ReportPerformance,
  Summary,
  ExportDot,
  ExportHtml
};
} // namespace

static llvm::cl::opt<Translation> translation(
    llvm::cl::desc("Translation:"), llvm::cl::Required,
    llvm::cl::values(
        clEnumValN(Translation::ImportTorchScript, "import-torchscript",
                   "import a saved TorchScript module (torch.jit.trace, "
                   "torch.jit.save)"),
        clEnumValN(Translation::RoundTrip, "mav-roundtrip",
                   "read mav IR (text or bytecode) and write it back"),
        clEnumValN(Translation::ExportJson, "export-json",
                   "write the annotated graph as JSON (docs/ExportJson.md)"),
        clEnumValN(Translation::ExportVerilog, "export-verilog",
                   "write a quantized graph as a SystemVerilog design "
                   "directory (docs/Hardware.md)"),
        clEnumValN(Translation::ReportResources, "report-resources",
                   "synthesise an exported design directory with Yosys: a "
                   "JSON report, and a summary on stdout"),
        clEnumValN(Translation::ReportPerformance, "report-performance",
                   "model the cycles and resources of the design "
                   "--export-verilog writes for a quantized, annotated graph, "
                   "without a simulator: a JSON report, and a summary on "
                   "stdout (docs/Hardware.md, \"Performance\")"),
        clEnumValN(Translation::Summary, "summary",
                   "print a torchinfo-style table: module tree, output "
                   "shapes, parameters, MACs, memory (docs/Visualization.md)"),
        clEnumValN(Translation::ExportDot, "export-dot",
                   "write a graph as Graphviz DOT, clustered by module scope"),
        clEnumValN(Translation::ExportHtml, "export-html",
                   "write a self-contained interactive HTML viewer")));
static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<input>"),
                                            llvm::cl::init("-"));
static llvm::cl::opt<std::string> outputFile("o", llvm::cl::desc("Output file"),
                                             llvm::cl::value_desc("filename"),
                                             llvm::cl::init("-"));
static llvm::cl::opt<std::string>
    graphName("graph",
              llvm::cl::desc("Graph to export (--export-verilog, "
                             "--report-performance, --export-dot, --summary)"),
              llvm::cl::init("forward"));
static llvm::cl::opt<unsigned>
    summaryDepth("summary-depth",
                 llvm::cl::desc("Scopes shown by --summary, by depth (0: all)"),
                 llvm::cl::init(3));
static llvm::cl::opt<unsigned> dotCollapseDepth(
    "dot-collapse-depth",
    llvm::cl::desc("--export-dot draws each scope of this depth as one node "
                   "(0: none)"),
    llvm::cl::init(0));
static llvm::cl::opt<std::string> resourcesFile(
    "resources",
    llvm::cl::desc("Embed this --report-resources report (--export-json)"),
    llvm::cl::value_desc("REPORT.json"));
namespace {
enum class ResourcesBy { Design, Instance, Both };
} // namespace
static llvm::cl::opt<ResourcesBy> resourcesBy(
    "resources-by",
    llvm::cl::desc("What --report-resources synthesises at once"),
    llvm::cl::values(
        clEnumValN(ResourcesBy::Design, "design",
                   "the whole design, flattened (the default)"),
        clEnumValN(ResourcesBy::Instance, "instance",
                   "each distinct instance configuration of top.sv once, "
                   "cached, summed by instance count"),
        clEnumValN(ResourcesBy::Both, "both",
                   "by instance, and the whole design, with the difference")),
    llvm::cl::init(ResourcesBy::Design));
static llvm::cl::opt<std::string> synthCache(
    "synth-cache",
    llvm::cl::desc("Cache of --resources-by=instance's figures, per "
                   "configuration (default $XDG_CACHE_HOME/mav/synth; none: "
                   "no cache)"),
    llvm::cl::value_desc("DIR"));
static llvm::cl::opt<int64_t> synthMemoryLimit(
    "synth-memory-limit",
    llvm::cl::desc("--resources-by=instance: memories of this many words or "
                   "more are not synthesised: ROMs are left out (block RAM "
                   "estimated), the generic flow leaves RAMs unmapped (0: "
                   "synthesise all)"),
    llvm::cl::value_desc("WORDS"), llvm::cl::init(0));
static llvm::cl::opt<bool> synthGeneric(
    "synth-generic",
    llvm::cl::desc("--resources-by=instance: run the generic flow (Yosys "
                   "synth) as well as synth_xilinx; false: synth_xilinx only, "
                   "the memory bits still counted"),
    llvm::cl::init(true));
static llvm::cl::opt<double> clockMHz(
    "clock-mhz",
    llvm::cl::desc("Clock frequency for --report-performance's throughput "
                   "and latency in time"),
    llvm::cl::value_desc("MHz"), llvm::cl::init(100));
static llvm::cl::opt<int64_t> performanceFrames(
    "performance-frames",
    llvm::cl::desc("Frames --report-performance simulates back to back "
                   "(at least 2; the cycles per frame are the distance "
                   "between the last two)"),
    llvm::cl::init(4));
static llvm::cl::opt<bool>
    emitBytecode("emit-bytecode",
                 llvm::cl::desc("Write MLIR bytecode instead of text"),
                 llvm::cl::init(false));
static llvm::cl::list<std::string>
    inputShapes("input-shape",
                llvm::cl::desc("Type of a forward argument, in order, e.g. "
                               "1x3x224x224xf32 (--import-torchscript)"));
static llvm::cl::list<std::string> leafModules(
    "leaf-module",
    llvm::cl::desc("Also treat this module class as a leaf: a qualified "
                   "class or a bare class name (--import-torchscript)"));
static llvm::cl::opt<bool>
    inlineAll("inline-all",
              llvm::cl::desc("Inline every module: no call_module nodes "
                             "(--import-torchscript)"),
              llvm::cl::init(false));

/// Reads mav IR or a checkpoint, rather than a TorchScript archive.
static bool readsIR() {
  return translation != Translation::ImportTorchScript &&
         translation != Translation::ReportResources;
}

/// Writes what `produce` streams to the output, replacing a file only once
/// it is complete.
static int writeOutput(llvm::function_ref<void(llvm::raw_ostream &)> produce) {
  if (outputFile == "-") {
    produce(llvm::outs());
    llvm::outs().flush();
    return 0;
  }
  llvm::Error error =
      mav::writeFileAtomically(outputFile, [&](llvm::raw_ostream &os) {
        produce(os);
        return llvm::Error::success();
      });
  if (error) {
    llvm::errs() << "mav-translate: cannot write " << outputFile << ": "
                 << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  return 0;
}

static int writeOutput(llvm::StringRef text) {
  return writeOutput([&](llvm::raw_ostream &os) { os << text; });
}

/// --report-resources: the JSON report to -o, a summary to stdout.
static int reportResources() {
  llvm::Expected<llvm::json::Object> report = [] {
    if (resourcesBy == ResourcesBy::Design)
      return mav::reportResources(inputFile);
    mav::InstanceSynthesisOptions options;
    options.cacheDirectory = synthCache.getNumOccurrences()
                                 ? synthCache.getValue()
                                 : mav::defaultSynthesisCache();
    if (options.cacheDirectory == "none")
      options.cacheDirectory.clear();
    options.memoryLimitWords = synthMemoryLimit;
    options.genericFlow = synthGeneric;
    options.compareWithDesign = resourcesBy == ResourcesBy::Both;
    options.progress = [](llvm::StringRef line) {
      llvm::errs() << line << "\n";
    };
    return mav::reportResourcesByInstance(inputFile, options);
  }();
  if (!report) {
    llvm::errs() << "mav-translate: " << llvm::toString(report.takeError())
                 << "\n";
    return 1;
  }
  std::string json;
  llvm::raw_string_ostream os(json);
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object(*report)))
     << "\n";
  if (outputFile != "-")
    llvm::outs() << mav::summarizeResources(*report);
  return writeOutput(os.str());
}

/// --report-performance: the JSON report to -o, a summary to stdout.
static int reportPerformance(ModuleOp module) {
  auto graph = module.lookupSymbol<mav::GraphOp>(graphName);
  if (!graph) {
    llvm::errs() << "mav-translate: " << inputFile << ": no mav.graph @"
                 << graphName << "\n";
    return 1;
  }
  if (clockMHz <= 0 || performanceFrames < 2) {
    llvm::errs() << "mav-translate: --clock-mhz must be positive and "
                    "--performance-frames at least 2\n";
    return 1;
  }
  mav::PerformanceOptions options;
  options.clockMHz = clockMHz;
  options.frames = performanceFrames;
  FailureOr<mav::PerformanceReport> report =
      mav::modelPerformance(graph, options);
  if (failed(report))
    return 1;
  std::string json;
  llvm::raw_string_ostream os(json);
  os << llvm::formatv("{0:2}", llvm::json::Value(
                                   mav::performanceToJson(*report, options)))
     << "\n";
  if (outputFile != "-")
    llvm::outs() << mav::summarizePerformance(*report, options);
  return writeOutput(os.str());
}

/// Diagnostics of the exports as one line each, `file:line:col: error: ...`,
/// without the source line: a node's line holds all its metadata.
static LogicalResult printOneLine(Diagnostic &diagnostic) {
  FileLineColLoc position;
  diagnostic.getLocation()->walk([&](Location location) {
    if (auto fileLoc = location.dyn_cast<FileLineColLoc>()) {
      position = fileLoc;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (position)
    llvm::errs() << position.getFilename().getValue() << ":"
                 << position.getLine() << ":" << position.getColumn() << ": ";
  llvm::errs() << (diagnostic.getSeverity() == DiagnosticSeverity::Error
                       ? "error: "
                       : "note: ")
               << diagnostic.str() << "\n";
  for (Diagnostic &note : diagnostic.getNotes())
    llvm::errs() << "note: " << note.str() << "\n";
  return success();
}

/// The report given with --resources, when there is one.
static llvm::Expected<std::optional<llvm::json::Object>> readResources() {
  if (resourcesFile.empty())
    return std::nullopt;
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(resourcesFile, &error);
  if (!file)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), error);
  llvm::Expected<llvm::json::Value> value =
      llvm::json::parse(file->getBuffer());
  if (!value)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   resourcesFile + ": " +
                                       llvm::toString(value.takeError()));
  if (!value->getAsObject())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   resourcesFile + ": expected a JSON object");
  return *value->getAsObject();
}

/// --summary, --export-dot, --export-html.
static LogicalResult exportView(ModuleOp module, llvm::raw_ostream &os) {
  if (translation == Translation::ExportHtml)
    return mav::exportHtml(module, llvm::sys::path::filename(inputFile), os);
  if (translation == Translation::ExportDot) {
    mav::DotExportOptions options;
    options.graphName = graphName;
    options.collapseDepth = dotCollapseDepth;
    return mav::exportDot(module, os, options);
  }
  for (mav::GraphOp graph : module.getOps<mav::GraphOp>())
    if (graph.getSymName() == graphName &&
        graph.getSymVisibility().value_or("public") == "public") {
      SymbolTableCollection symbols;
      mav::printSummaryTable(mav::summarizeGraph(module, graph, symbols),
                             summaryDepth, os);
      return success();
    }
  return module.emitError()
         << "--summary: no public mav.graph named '" << graphName << "'";
}

static OwningOpRef<ModuleOp> translate(llvm::SourceMgr &sourceMgr,
                                       MLIRContext &context) {
  if (readsIR())
    return parseSourceFile<ModuleOp>(sourceMgr, &context);
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  mav::TorchScriptImportOptions options;
  options.inputShapes.assign(inputShapes.begin(), inputShapes.end());
  options.leafModules.assign(leafModules.begin(), leafModules.end());
  options.inlineAll = inlineAll;
  return mav::importTorchScript(
      buffer->getBuffer(), buffer->getBufferIdentifier(), options, &context);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mav::useTorchPlugin();
  mav::exitOnClosedPipe();
  mav::getElideWeightsOption();
  mav::getWeightsOption();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  llvm::cl::ParseCommandLineOptions(argc, argv, "mav translation driver\n");
  // Importing loads libtorch (libMavTorchPlugin.so) while the archive is read.
  // Nothing else needs it: a report served from the synthesis cache ends
  // within a second, and exiting while the loader thread runs crashed.
  if (translation == Translation::ImportTorchScript)
    mav::prefetchTorchRuntime();

  if (translation == Translation::ReportResources)
    return reportResources();

  MLIRContext context;
  mav::applyElideWeightsOption(&context);
  context.printOpOnDiagnostic(false);
  std::string error;
  // --mav-roundtrip and the exports read IR or checkpoints; the importer
  // reads archives.
  std::optional<mav::ModuleFile> input;
  if (readsIR()) {
    llvm::Expected<mav::ModuleFile> opened = mav::openModuleFile(inputFile);
    if (opened)
      input = std::move(*opened);
    else
      error = llvm::toString(opened.takeError());
  } else if (std::unique_ptr<llvm::MemoryBuffer> archive =
                 openInputFile(inputFile, &error)) {
    input = mav::ModuleFile{std::move(archive), nullptr};
  }
  if (!input) {
    llvm::errs() << "mav-translate: " << error << "\n";
    return 1;
  }
  if (readsIR())
    input->ir = mav::makeParsable(std::move(input->ir));
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input->ir), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  if (readsIR() &&
      (failed(mav::checkResourceBlobs(sourceMgr, sourceMgr.getMainFileID())) ||
       failed(mav::checkBytecodeBounds(sourceMgr, sourceMgr.getMainFileID()))))
    return 1;

  OwningOpRef<ModuleOp> module = translate(sourceMgr, context);
  if (!module ||
      (input->weights &&
       failed(mav::attachCheckpointWeights(*module, *input->weights))) ||
      (!input->weights && readsIR() &&
       failed(mav::attachWeightsFile(*module, inputFile))))
    return 1;
  if (input->weights)
    mav::nameCheckpointAsWeightsFile(*module, input->weights);
  ScopedDiagnosticHandler oneLine(&context, printOneLine);
  if (translation == Translation::ExportJson) {
    if (module->getOps<mav::GraphOp>().empty()) {
      llvm::errs() << "mav-translate: " << inputFile
                   << ": no mav.graph to export\n";
      return 1;
    }
    llvm::Expected<std::optional<llvm::json::Object>> resources =
        readResources();
    if (!resources) {
      llvm::errs() << "mav-translate: " << llvm::toString(resources.takeError())
                   << "\n";
      return 1;
    }
    std::string json;
    llvm::raw_string_ostream os(json);
    mav::JsonExportOptions options;
    options.resources = *resources ? &**resources : nullptr;
    if (failed(mav::exportJson(*module, os, options)))
      return 1;
    return writeOutput(os.str());
  }
  if (translation == Translation::Summary ||
      translation == Translation::ExportDot ||
      translation == Translation::ExportHtml) {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (failed(exportView(*module, os)))
      return 1;
    return writeOutput(os.str());
  }
  if (translation == Translation::ReportPerformance)
    return reportPerformance(*module);
  if (translation == Translation::ExportVerilog) {
    if (outputFile == "-") {
      llvm::errs() << "mav-translate: --export-verilog writes a directory: "
                      "give it with -o DIR\n";
      return 1;
    }
    FailureOr<mav::VerilogDesign> design =
        mav::exportVerilog(*module, graphName);
    if (failed(design))
      return 1;
    if (llvm::Error writeError =
            mav::writeDesignDirectory(*design, outputFile)) {
      llvm::errs() << "mav-translate: " << llvm::toString(std::move(writeError))
                   << "\n";
      return 1;
    }
    return 0;
  }
  if (failed(mav::placeWeights(*module, outputFile, mav::getWeightsOption(),
                               emitBytecode)))
    return 1;
  return writeOutput([&](llvm::raw_ostream &os) {
    if (emitBytecode) {
      (void)writeBytecodeToFile(*module, os);
      return;
    }
    // Not operator<<, which prints in local scope, without resources.
    module->print(os);
    os << "\n";
  });
}
