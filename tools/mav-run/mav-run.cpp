//===- mav-run.cpp - Run a mav graph, compare it with PyTorch -------------===//
//
//   mav-run IN.mlir... [--reference=MODEL.pt] [--seed=N]
//   mav-run QUANTIZED.mlir [--reference=MODEL.pt] [--rtl=DIR] [--samples=N]
//
// Runs the graph on seeded random inputs of its argument types (on cpu) and
// prints its outputs. With --reference it runs the TorchScript module, in eval
// mode, on the same inputs, prints the largest absolute difference, and exits
// non-zero when an element differs by more than atol + rtol * |reference|.
// atol defaults to 1e-5 of each output's scale (its largest magnitude), and
// an output whose scale is at or below atol cannot be told from zero: that
// is a failure too, never a match.
// A graph that -mav-quantize annotated runs as the fixed-point model
// (QuantizedRun.h): --reference prints its error against the worst-case
// bound and the statistical estimate, --rtl simulates a design.
// Several inputs (the stages of one pipeline) run in one process, each under
// a line naming it; the reference is loaded once, and the exit status is
// non-zero when any of them fails.
//
//===----------------------------------------------------------------------===//

#include "mav/Checkpoint/Checkpoint.h"
#include "mav/Checkpoint/WeightsFile.h"
#include "mav/Checkpoint/ZipChecksums.h"
#include "mav/IR/BytecodeBounds.h"
#include "mav/IR/MavDialect.h"
#include "mav/IR/MavOps.h"
#include "mav/IR/SourceBuffer.h"
#include "mav/Run/OutputComparison.h"
#include "mav/Run/QuantizedRun.h"
#include "mav/Runtime/Interpreter.h"
#include "mav/Runtime/MemoryReader.h"
#include "mav/Runtime/TorchTypes.h"
#include "mav/Tools/ExitOnClosedPipe.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <ATen/ATen.h>
#include <torch/script.h>

#include <cmath>
#include <optional>

using namespace mlir;
using namespace mav;

static llvm::cl::list<std::string>
    inputFiles(llvm::cl::Positional, llvm::cl::desc("<input .mlir>..."),
               llvm::cl::OneOrMore);
static llvm::cl::opt<std::string>
    referenceFile("reference",
                  llvm::cl::desc("TorchScript module to compare against"),
                  llvm::cl::value_desc("MODEL.pt"));
static llvm::cl::opt<uint64_t> seed("seed", llvm::cl::desc("Input seed"),
                                    llvm::cl::init(0));
static llvm::cl::opt<std::string> inputsFile(
    "inputs",
    llvm::cl::desc("Run on these inputs instead of seeded random ones: a "
                   "torch.save file of a tensor, a tuple of tensors (one per "
                   "graph input), or a dict with \"inputs\""),
    llvm::cl::value_desc("FILE.pt"));
static llvm::cl::opt<std::string> graphName("graph",
                                            llvm::cl::desc("Graph to run"),
                                            llvm::cl::init("forward"));
static llvm::cl::opt<double> absoluteTolerance(
    "atol",
    llvm::cl::desc("Absolute tolerance (default: 1e-5 of each output's "
                   "largest reference magnitude)"),
    llvm::cl::init(1e-5));
static llvm::cl::opt<double>
    relativeTolerance("rtol", llvm::cl::desc("Relative tolerance"),
                      llvm::cl::init(1e-5));
static llvm::cl::opt<int64_t>
    intHigh("int-high",
            llvm::cl::desc("Integer inputs are drawn from [0, int-high)"),
            llvm::cl::init(10));

static llvm::cl::opt<std::string>
    rtlDirectory("rtl",
                 llvm::cl::desc("Simulate this exported design (mav-translate "
                                "--export-verilog) against the fixed-point "
                                "model, bit for bit"),
                 llvm::cl::value_desc("DIR"));
static llvm::cl::opt<Simulator> simulator(
    "simulator", llvm::cl::desc("Simulator for --rtl"),
    llvm::cl::values(clEnumValN(Simulator::Verilator, "verilator",
                                "Verilator, a generated C++ testbench"),
                     clEnumValN(Simulator::Icarus, "icarus",
                                "Icarus Verilog, a generated SV testbench")),
    llvm::cl::init(Simulator::Verilator));
static llvm::cl::opt<int64_t>
    samples("samples",
            llvm::cl::desc("Inputs to stream through a quantized graph, "
                           "seeded seed, seed+1, ..."),
            llvm::cl::init(1));
static llvm::cl::opt<int64_t>
    maxCycles("max-cycles", llvm::cl::desc("Cycles before --rtl gives up"),
              llvm::cl::init(50'000'000));
static llvm::cl::opt<bool> timing(
    "timing",
    llvm::cl::desc("With --rtl, run the design a second time with no stalls "
                   "(at least 2 frames) and compare its latency and cycles "
                   "per frame with the performance model's: within 10% or "
                   "fail (--timing=0 skips it)"),
    llvm::cl::init(true));
static llvm::cl::opt<bool> estimateNodes(
    "estimate-nodes",
    llvm::cl::desc("On a quantized graph, print each node's predicted rms "
                   "error and saturated elements (the statistical error "
                   "estimate, per node)"),
    llvm::cl::init(false));
static llvm::cl::opt<std::string> workDirectory(
    "rtl-work-dir",
    llvm::cl::desc("Build --rtl's simulation here and keep it (default: a "
                   "temporary directory, removed)"),
    llvm::cl::value_desc("DIR"));

/// Runs the reference module, loaded once for every input graph; errors name
/// the file.
static FailureOr<c10::IValue>
runReference(const std::vector<c10::IValue> &inputs) {
  static std::optional<torch::jit::Module> module;
  // Kept for as long as the module, which libtorch may read it for.
  static std::unique_ptr<llvm::MemoryBuffer> archive;
  try {
    if (!module) {
      // libtorch crashes on some damaged archives: it reads the bytes whose
      // CRC-32s were checked, not the file again.
      auto file = llvm::MemoryBuffer::getFile(referenceFile, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
      if (!file) {
        llvm::errs() << referenceFile << ": error: cannot open file: "
                     << file.getError().message() << "\n";
        return failure();
      }
      if (llvm::Error error = checkTorchScriptArchive((*file)->getBuffer())) {
        llvm::errs() << referenceFile
                     << ": error: not a readable TorchScript archive: "
                     << llvm::toString(std::move(error)) << "\n";
        return failure();
      }
      archive = std::move(*file);
      module = torch::jit::load(
          std::make_shared<BoundedMemoryReader>(archive->getBuffer()));
      module->eval();
    }
    return module->forward(inputs);
  } catch (const c10::Error &error) {
    llvm::errs()
        << referenceFile << ": error: "
        << llvm::StringRef(error.what_without_backtrace()).split('\n').first
        << "\n";
    return failure();
  }
}

/// Prints the verdict; 0 on a match.
static int compare(const c10::IValue &actual, const c10::IValue &expected) {
  ComparisonTolerance tolerance;
  tolerance.absolute = absoluteTolerance;
  tolerance.absoluteIsScaled = !absoluteTolerance.getNumOccurrences();
  tolerance.relative = relativeTolerance;
  Comparison comparison = compareOutputs(actual, expected, tolerance);
  if (StringRef(comparison.report).starts_with("max abs difference"))
    llvm::outs() << comparison.report << "\n";
  else
    llvm::errs() << "mav-run: " << comparison.report << "\n";
  return comparison.matched() ? 0 : 1;
}

static int runQuantizedGraph(GraphOp graph) {
  if (samples < 1) {
    llvm::errs() << "mav-run: --samples must be at least 1\n";
    return 1;
  }
  QuantizedRunOptions options;
  options.seed = seed;
  options.samples = samples;
  options.intHigh = intHigh;
  if (!referenceFile.empty())
    options.reference = runReference;
  if (absoluteTolerance.getNumOccurrences())
    options.absoluteTolerance = absoluteTolerance;
  if (relativeTolerance.getNumOccurrences())
    options.relativeTolerance = relativeTolerance;
  options.estimateNodes = estimateNodes;
  options.rtlDirectory = rtlDirectory;
  options.timing = timing;
  options.simulation.simulator = simulator;
  options.simulation.seed = seed;
  options.simulation.maxCycles = maxCycles;
  options.simulation.workDirectory = workDirectory;
  return runQuantized(graph, options);
}

/// Runs one input graph, and compares it with the reference when there is
/// one; 0 when it ran and matched.
static int runFile(StringRef inputFile) {
  MLIRContext context;
  context.loadDialect<MavDialect>();
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  llvm::Expected<ModuleFile> input = openModuleFile(inputFile);
  if (!input) {
    llvm::errs() << "mav-run: " << llvm::toString(input.takeError()) << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(makeParsable(std::move(input->ir)),
                               llvm::SMLoc());
  if (failed(checkResourceBlobs(sourceMgr, sourceMgr.getMainFileID())) ||
      failed(checkBytecodeBounds(sourceMgr, sourceMgr.getMainFileID())))
    return 1;
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module ||
      (input->weights &&
       failed(attachCheckpointWeights(*module, *input->weights))) ||
      (!input->weights && failed(attachWeightsFile(*module, inputFile))))
    return 1;
  auto graph = module->lookupSymbol<GraphOp>(graphName);
  if (!graph) {
    llvm::errs() << inputFile << ": error: no mav.graph @" << graphName << "\n";
    return 1;
  }

  torch::NoGradGuard noGrad;
  if (isQuantized(graph))
    return runQuantizedGraph(graph);
  if (!rtlDirectory.empty()) {
    llvm::errs() << inputFile
                 << ": error: --rtl needs a quantized graph (-mav-quantize)\n";
    return 1;
  }
  FailureOr<std::vector<c10::IValue>> inputs =
      inputsFile.empty() ? makeRandomInputs(graph, seed, intHigh, c10::kCPU)
                         : readInputsFile(graph, inputsFile);
  if (failed(inputs))
    return 1;
  Interpreter interpreter(*module, c10::kCPU);
  FailureOr<c10::IValue> output = interpreter.run(graph, *inputs);
  if (failed(output))
    return 1;
  for (auto [index, tensor] : llvm::enumerate(flattenTensors(*output)))
    llvm::outs() << "output " << index << ": " << describeTensor(tensor)
                 << "\n";
  if (referenceFile.empty())
    return 0;
  FailureOr<c10::IValue> expected = runReference(*inputs);
  if (failed(expected))
    return 1;
  return compare(*output, *expected);
}

/// runFile, with whatever escapes the interpreter (which turns libtorch's
/// errors into diagnostics naming the node) ending in an error, not in
/// std::terminate.
static int runFileOrReport(StringRef inputFile) {
  try {
    return runFile(inputFile);
  } catch (const std::exception &error) {
    llvm::errs() << "mav-run: " << inputFile
                 << ": error: " << StringRef(error.what()).split('\n').first
                 << "\n";
    return 1;
  }
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mav::exitOnClosedPipe();
  llvm::cl::ParseCommandLineOptions(argc, argv, "mav graph runner\n");
  if (inputFiles.size() > 1 && !rtlDirectory.empty()) {
    llvm::errs() << "mav-run: --rtl simulates one graph; " << inputFiles.size()
                 << " were given\n";
    return 1;
  }
  int status = 0;
  for (const std::string &inputFile : inputFiles) {
    if (inputFiles.size() > 1) {
      llvm::outs() << inputFile << ":\n";
      llvm::outs().flush();
    }
    status |= runFileOrReport(inputFile);
  }
  return status;
}
