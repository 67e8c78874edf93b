//===- mav-opt.cpp - The mav pass driver ----------------------------------===//
//
// MlirOptMain with the mav dialect, every mav pass and the upstream passes
// that mean something on mav IR registered, plus:
//   - inputs may be checkpoints (-mav-export-checkpoint) as well as IR;
//   - --load-pass-plugin and --load-dialect-plugin (PluginLoader.h);
//   - --mav-report=FILE writes the pass outputs the pipeline recorded as
//     JSON, a list of {"pass": NAME, "outputs": {...}} in run order.
// Outputs are written only when the pipeline succeeds.
//
//===----------------------------------------------------------------------===//

#include "PluginLoader.h"

#include "mav/Checkpoint/Checkpoint.h"
#include "mav/IR/BytecodeBounds.h"
#include "mav/IR/MavDialect.h"
#include "mav/IR/SourceBuffer.h"
#include "mav/Operators/OpRegistry.h"
#include "mav/Passes/Passes.h"
#include "mav/Passes/Report.h"
#include "mav/Runtime/TorchLoader.h"
#include "mav/Support/AtomicOutput.h"
#include "mav/Tools/ElideWeightsOption.h"
#include "mav/Tools/ExitOnClosedPipe.h"
#include "mav/Tools/WeightsOption.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// Runs `produce` on the stream of `path` and reports its error, if any.
/// Nothing reaches `path` unless `produce` succeeds: a file is written into a
/// temporary beside it, renamed over it at the end (streamed, not held in
/// memory); standard output is buffered.
static bool
writeOutput(StringRef path,
            llvm::function_ref<llvm::Error(llvm::raw_ostream &)> produce) {
  auto report = [](llvm::Error error) {
    bool failed = false;
    llvm::handleAllErrors(
        std::move(error),
        [&](const llvm::FileError &e) {
          failed = true;
          llvm::errs() << "mav-opt: cannot write output " << e.message()
                       << "\n";
        },
        [&](const llvm::ErrorInfoBase &e) {
          failed = true;
          if (!e.message().empty())
            llvm::errs() << e.message() << "\n";
        });
    return !failed;
  };
  if (path == "-") {
    std::string buffered;
    llvm::raw_string_ostream stream(buffered);
    if (!report(produce(stream)))
      return false;
    llvm::outs() << stream.str();
    llvm::outs().flush();
    return true;
  }
  if (path == "/dev/null") {
    llvm::raw_null_ostream discarded;
    return report(produce(discarded));
  }
  bool produceFailed = false;
  llvm::Error written =
      mav::writeFileAtomically(path, [&](llvm::raw_ostream &os) {
        llvm::Error error = produce(os);
        produceFailed = bool(error);
        return error;
      });
  // The pipeline reports its own errors; the file's name the file.
  if (written && !produceFailed)
    written = llvm::createFileError(path, std::move(written));
  return report(std::move(written));
}

/// MLIR's own passes that mean something on mav IR (docs/Passes.md,
/// "Upstream passes"; test/Tools/upstream-passes.mlir).
static void registerUpstreamPasses() {
  registerCanonicalizerPass();
  registerCSEPass();
  registerSymbolDCEPass();
  registerPrintOpStatsPass();
  registerViewOpGraphPass();
  registerStripDebugInfoPass();
  registerLocationSnapshotPass();
}

/// Whether `argv` asks for the pipeline to be dumped: MlirOptMain's pipeline
/// callback dumps it each time it runs.
static bool asksForPipelineDump(int argc, char **argv) {
  for (int index = 1; index < argc; ++index) {
    StringRef arg = argv[index];
    if (arg == "-dump-pass-pipeline" || arg == "--dump-pass-pipeline" ||
        arg.starts_with("-dump-pass-pipeline=") ||
        arg.starts_with("--dump-pass-pipeline="))
      return true;
  }
  return false;
}

/// Whether the pipeline of the command line holds a pass that will execute
/// tensors. Parsing errors are left for the real run to report.
static bool commandLineNeedsTorch(const MlirOptMainConfig &config) {
  MLIRContext probe(MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler quiet(&probe, [](Diagnostic &) { return success(); });
  PassManager requested(&probe, ModuleOp::getOperationName(),
                        OpPassManager::Nesting::Implicit);
  return succeeded(config.setupPassPipeline(requested)) &&
         mav::pipelineNeedsTorch(requested);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mav::useTorchPlugin();
  mav::exitOnClosedPipe();
  mav::registerMavPassesAndPipelines();
  registerUpstreamPasses();
  DialectRegistry registry;
  registry.insert<mav::MavDialect>();
  if (!mav::loadPlugins(argc, argv, registry))
    return 1;

  static llvm::cl::opt<std::string> reportFilename(
      "mav-report",
      llvm::cl::desc("Write the pass outputs as JSON to this file"),
      llvm::cl::value_desc("filename"));
  static llvm::cl::opt<bool> listOperators(
      "list-operators",
      llvm::cl::desc("Print the op registry as JSON (every operator mav "
                     "knows, its targets and cost formula, and the operators "
                     "it refuses) and exit"));
  mav::getElideWeightsOption();
  mav::getWeightsOption();
  // Every option of mlir-opt, declared by MLIR itself.
  auto [inputFilename, outputFilename] =
      registerAndParseCLIOptions(argc, argv, "mav pass driver", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();

  if (listOperators) {
    mav::printOpRegistryJson(llvm::outs());
    return 0;
  }

  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects:\n";
    llvm::interleave(registry.getDialectNames(), llvm::outs(), "\n");
    llvm::outs() << "\n";
    return 0;
  }

  // A pipeline that will execute tensors loads libtorch while the input is
  // parsed, on the other core.
  if (!asksForPipelineDump(argc, argv) && commandLineNeedsTorch(config))
    mav::prefetchTorchRuntime();

  llvm::Expected<mav::ModuleFile> input = mav::openModuleFile(inputFilename);
  if (!input) {
    llvm::errs() << llvm::toString(input.takeError()) << "\n";
    mav::waitForTorchPrefetch();
    return 1;
  }
  input->ir = mav::makeParsable(std::move(input->ir));
  {
    llvm::SourceMgr blobs;
    blobs.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input->ir->getMemBufferRef(),
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    if (failed(mav::checkResourceBlobs(blobs, blobs.getMainFileID())) ||
        failed(mav::checkBytecodeBounds(blobs, blobs.getMainFileID()))) {
      mav::waitForTorchPrefetch();
      return 1;
    }
  }
  mav::PassOutputCollector collector;
  MlirOptMainConfig commandLine = config;
  config.setPassPipelineSetupFn([&](PassManager &pm) -> LogicalResult {
    mav::applyElideWeightsOption(pm.getContext());
    // Converting pass outputs to JSON after every pass costs; only a report
    // needs it.
    if (!reportFilename.empty())
      pm.addInstrumentation(collector.makeInstrumentation());
    if (input->weights)
      pm.addPass(mav::createAttachCheckpointWeightsPass(input->weights));
    else
      pm.addPass(mav::createAttachWeightsFilePass(inputFilename));
    if (failed(commandLine.setupPassPipeline(pm)))
      return failure();
    pm.addPass(mav::createPlaceWeightsPass(
        outputFilename, mav::getWeightsOption(), config.shouldEmitBytecode()));
    return success();
  });
  auto run = [&](llvm::raw_ostream &out) -> llvm::Error {
    if (failed(MlirOptMain(out, std::move(input->ir), registry, config)))
      return llvm::make_error<llvm::StringError>(
          "", llvm::inconvertibleErrorCode());
    if (!reportFilename.empty())
      if (llvm::Error written = collector.writeJson(reportFilename))
        return llvm::make_error<llvm::StringError>(
            "mav-opt: " + llvm::toString(std::move(written)),
            llvm::inconvertibleErrorCode());
    return llvm::Error::success();
  };
  bool written = writeOutput(outputFilename, run);
  mav::waitForTorchPrefetch();
  return written ? 0 : 1;
}
