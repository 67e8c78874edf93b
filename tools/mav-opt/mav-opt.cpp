//===- mav-opt.cpp - The mav pass driver ----------------------------------===//
//
// MlirOptMain with the mav dialect and every mav pass registered, plus:
//   - inputs may be checkpoints (-mav-export-checkpoint) as well as IR;
//   - --mav-report=FILE writes the pass outputs the pipeline recorded as
//     JSON, a list of {"pass": NAME, "outputs": {...}} in run order.
// Outputs are written only when the pipeline succeeds.
//
//===----------------------------------------------------------------------===//

#include "mav/Checkpoint/Checkpoint.h"
#include "mav/IR/MavDialect.h"
#include "mav/Passes/Passes.h"
#include "mav/Passes/Report.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mav::registerMavPassesAndPipelines();
  DialectRegistry registry;
  registry.insert<mav::MavDialect>();

  // The options of MlirOptMain, which this driver mirrors.
  static llvm::cl::opt<std::string> inputFilename(
      llvm::cl::Positional, llvm::cl::desc("<input file or checkpoint>"),
      llvm::cl::init("-"));
  static llvm::cl::opt<std::string> outputFilename(
      "o", llvm::cl::desc("Output filename"), llvm::cl::value_desc("filename"),
      llvm::cl::init("-"));
  static llvm::cl::opt<bool> splitInputFile(
      "split-input-file",
      llvm::cl::desc("Split the input file into pieces and process each "
                     "chunk independently"),
      llvm::cl::init(false));
  static llvm::cl::opt<bool> verifyDiagnostics(
      "verify-diagnostics",
      llvm::cl::desc("Check that emitted diagnostics match expected-* lines "
                     "on the corresponding line"),
      llvm::cl::init(false));
  static llvm::cl::opt<bool> verifyPasses(
      "verify-each",
      llvm::cl::desc("Run the verifier after each transformation pass"),
      llvm::cl::init(true));
  static llvm::cl::opt<bool> allowUnregisteredDialects(
      "allow-unregistered-dialect",
      llvm::cl::desc("Allow operation with no registered dialects"),
      llvm::cl::init(false));
  static llvm::cl::opt<bool> emitBytecode(
      "emit-bytecode", llvm::cl::desc("Emit bytecode when generating output"),
      llvm::cl::init(false));
  static llvm::cl::opt<bool> noImplicitModule(
      "no-implicit-module",
      llvm::cl::desc("Disable implicit addition of a top-level module op"),
      llvm::cl::init(false));
  static llvm::cl::opt<std::string> reportFilename(
      "mav-report",
      llvm::cl::desc("Write the pass outputs as JSON to this file"),
      llvm::cl::value_desc("filename"));

  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  PassPipelineCLParser passPipeline("", "Compiler passes to run", "p");
  llvm::cl::ParseCommandLineOptions(argc, argv, "mav pass driver\n");

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mav::openModuleFile(inputFilename, error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  // Written to memory first: nothing reaches -o unless the pipeline succeeds.
  std::string result;
  llvm::raw_string_ostream resultStream(result);
  mav::PassOutputCollector collector;
  auto setup = [&](PassManager &pm) -> LogicalResult {
    // Converting pass outputs to JSON after every pass costs; only a report
    // needs it.
    if (!reportFilename.empty())
      pm.addInstrumentation(collector.makeInstrumentation());
    return passPipeline.addToPipeline(pm, [&](const llvm::Twine &message) {
      return emitError(UnknownLoc::get(pm.getContext())) << message;
    });
  };
  if (failed(MlirOptMain(resultStream, std::move(input), setup, registry,
                         splitInputFile, verifyDiagnostics, verifyPasses,
                         allowUnregisteredDialects,
                         /*preloadDialectsInContext=*/false, emitBytecode,
                         /*implicitModule=*/!noImplicitModule)))
    return 1;
  resultStream.flush();

  if (!reportFilename.empty() &&
      failed(collector.writeJson(reportFilename, error))) {
    llvm::errs() << "mav-opt: " << error << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << "mav-opt: " << error << "\n";
    return 1;
  }
  output->os() << result;
  output->os().flush();
  if (output->os().has_error()) {
    llvm::errs() << "mav-opt: cannot write " << outputFilename << "\n";
    output->os().clear_error();
    return 1;
  }
  output->keep();
  return 0;
}
