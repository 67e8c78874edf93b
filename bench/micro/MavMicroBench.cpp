//===- MavMicroBench.cpp - Google Benchmark micro-benchmarks --------------===//
//
// mav's hot paths on bench/synthetic.py's model, function style, at 167,
// 1667, 7500 (issue 13's 3e4 fx nodes) and 16667 blocks (about 10^3, 10^4,
// 4.5 * 10^4 and 10^5 mav nodes), and MLIR's floor for the same work (bare
// MLIR calls, no mav code). Every benchmark reports its time per mav node in
// the `per_node` counter; see bench/README.md.
//
// `mav-micro-bench --emit-ir=BLOCKS` prints the workload instead, which must
// equal `bench/synthetic.py --blocks BLOCKS`.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/MavDialect.h"
#include "mav/Passes/AnalysisPasses.h"
#include "mav/Passes/Passes.h"
#include "mav/Passes/TransformPasses.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <string>

using namespace mlir;

static constexpr int64_t kBlockCounts[] = {167, 1667, 7500, 16667};

/// synthetic.py's node_count: get_attr weight and bias, linear, relu,
/// dropout and add per block, and the output.
static int64_t nodeCount(int64_t blocks) { return 6 * blocks + 1; }

/// synthetic.py's write_ir, function style, width 16, batch 1, byte for byte.
static std::string writeSyntheticIR(int64_t blocks) {
  constexpr llvm::StringLiteral t = "tensor<16x16xf32>";
  constexpr llvm::StringLiteral tb = "tensor<16xf32>";
  constexpr llvm::StringLiteral xt = "tensor<1x16xf32>";
  constexpr llvm::StringLiteral linear = "torch.nn.modules.linear.Linear";
  constexpr llvm::StringLiteral relu = "torch.nn.modules.activation.ReLU";
  constexpr llvm::StringLiteral dropout = "torch.nn.modules.dropout.Dropout";
  constexpr llvm::StringLiteral p = "1.000000e-01";

  std::string text;
  llvm::raw_string_ostream os(text);
  os << "module {\n";
  for (int64_t b = 0; b < blocks; ++b) {
    std::string i = std::to_string(b);
    os << llvm::formatv("  mav.weight @\"blocks.{0}.fc.weight\" parameter = "
                        "dense<1.000000e-02> : {1}\n",
                        i, t);
    os << llvm::formatv("  mav.weight @\"blocks.{0}.fc.bias\" parameter = "
                        "dense<1.000000e-02> : {1}\n",
                        i, tb);
  }
  os << llvm::formatv("  mav.graph @forward(%x: {0}) -> !mav.tensor {{\n", xt);
  std::string prev = "x";
  llvm::StringRef prevType = xt;
  for (int64_t b = 0; b < blocks; ++b) {
    std::string i = std::to_string(b);
    std::string fc = "blocks_" + i + "_fc";
    std::string add = b == 0 ? "add" : "add_" + i;
    std::string scope = llvm::formatv(
        "scope = #mav.scope<\"blocks.{0}.fc\", \"{1}\">", i, linear);
    os << llvm::formatv("    %{0}_weight = mav.get_attr "
                        "@\"blocks.{1}.fc.weight\" {{{2}} : {3}\n",
                        fc, i, scope, t);
    os << llvm::formatv("    %{0}_bias = mav.get_attr @\"blocks.{1}.fc.bias\" "
                        "{{{2}} : {3}\n",
                        fc, i, scope, tb);
    os << llvm::formatv("    %{0} = mav.call_function \"aten::linear\" (%{1}, "
                        "%{0}_weight, %{0}_bias) {{{2}} : ({3}, {4}, {5}) -> "
                        "!mav.tensor\n",
                        fc, prev, scope, prevType, t, tb);
    os << llvm::formatv("    %blocks_{0}_relu = mav.call_function "
                        "\"aten::relu\" (%{1}) {{scope = "
                        "#mav.scope<\"blocks.{0}.relu\", \"{2}\">} : "
                        "(!mav.tensor) -> !mav.tensor\n",
                        i, fc, relu);
    os << llvm::formatv("    %blocks_{0}_dropout = mav.call_function "
                        "\"aten::dropout\" (%blocks_{0}_relu, {1}, false) "
                        "{{scope = #mav.scope<\"blocks.{0}.dropout\", "
                        "\"{2}\">} : (!mav.tensor) -> !mav.tensor\n",
                        i, p, dropout);
    os << llvm::formatv("    %{0} = mav.call_function \"aten::add.Tensor\" "
                        "(%{1}, %blocks_{2}_dropout, alpha = 1) {{scope = "
                        "#mav.scope<\"blocks.{2}\", \"Block\">} : ({3}, "
                        "!mav.tensor) -> !mav.tensor\n",
                        add, prev, i, prevType);
    prev = add;
    prevType = "!mav.tensor";
  }
  os << llvm::formatv("    mav.output %{0} : {1}\n  }\n", prev, prevType);
  os << "}\n";
  return text;
}

static const std::string &syntheticIR(int64_t blocks) {
  static std::map<int64_t, std::string> cache;
  auto [it, inserted] = cache.try_emplace(blocks);
  if (inserted)
    it->second = writeSyntheticIR(blocks);
  return it->second;
}

[[noreturn]] static void fail(const llvm::Twine &message) {
  llvm::errs() << "mav-micro-bench: " << message << "\n";
  std::abort();
}

static void loadMav(MLIRContext &context) {
  context.disableMultithreading();
  context.loadDialect<mav::MavDialect>();
}

/// Parses `source` (text or bytecode) and verifies it, as the parser does.
static OwningOpRef<ModuleOp> parse(llvm::StringRef source,
                                   MLIRContext &context) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, ParserConfig(&context));
  if (!module)
    fail("the synthetic IR does not parse");
  return module;
}

static void countNodes(benchmark::State &state) {
  double nodes = nodeCount(state.range(0));
  state.counters["nodes"] = nodes;
  state.counters["per_node"] =
      benchmark::Counter(nodes, benchmark::Counter::kIsIterationInvariantRate |
                                    benchmark::Counter::kInvert);
}

static void parseText(benchmark::State &state) {
  const std::string &text = syntheticIR(state.range(0));
  MLIRContext context;
  loadMav(context);
  for (auto _ : state) {
    OwningOpRef<ModuleOp> module = parse(text, context);
    state.PauseTiming();
    module = nullptr;
    state.ResumeTiming();
  }
  countNodes(state);
}

static void printText(benchmark::State &state, bool assumeVerified) {
  MLIRContext context;
  loadMav(context);
  OwningOpRef<ModuleOp> module = parse(syntheticIR(state.range(0)), context);
  OpPrintingFlags flags;
  if (assumeVerified)
    flags.assumeVerified();
  for (auto _ : state) {
    llvm::raw_null_ostream os;
    module->print(os, flags);
  }
  countNodes(state);
}

static void writeBytecode(benchmark::State &state) {
  MLIRContext context;
  loadMav(context);
  OwningOpRef<ModuleOp> module = parse(syntheticIR(state.range(0)), context);
  for (auto _ : state) {
    llvm::raw_null_ostream os;
    writeBytecodeToFile(*module, os);
  }
  countNodes(state);
}

static void parseBytecode(benchmark::State &state) {
  MLIRContext context;
  loadMav(context);
  std::string bytecode;
  {
    OwningOpRef<ModuleOp> module = parse(syntheticIR(state.range(0)), context);
    llvm::raw_string_ostream os(bytecode);
    writeBytecodeToFile(*module, os);
  }
  for (auto _ : state) {
    OwningOpRef<ModuleOp> module = parse(bytecode, context);
    state.PauseTiming();
    module = nullptr;
    state.ResumeTiming();
  }
  countNodes(state);
}

static void verifyModule(benchmark::State &state) {
  MLIRContext context;
  loadMav(context);
  OwningOpRef<ModuleOp> module = parse(syntheticIR(state.range(0)), context);
  for (auto _ : state)
    if (failed(verify(*module)))
      fail("the synthetic IR does not verify");
  countNodes(state);
}

/// MLIR's floor for the verifier: the synthetic module with every mav op
/// replaced by an unregistered op of the same operands, results, attributes
/// and regions, so that verifying it is what MLIR spends on the structure
/// (dominance, use lists, regions) when no op has rules of its own.
static void verifyFloor(benchmark::State &state) {
  MLIRContext context;
  loadMav(context);
  context.allowUnregisteredDialects();
  OwningOpRef<ModuleOp> module = parse(syntheticIR(state.range(0)), context);
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().printGenericOpForm());
  std::string generic;
  llvm::StringRef rest = text;
  while (!rest.empty()) {
    auto [before, after] = rest.split("\"mav.");
    generic += before;
    if (after.data() == nullptr || before.size() == rest.size())
      break;
    generic += "\"floor.";
    rest = after;
  }
  OwningOpRef<ModuleOp> bare = parseSourceString<ModuleOp>(
      generic, ParserConfig(&context, /*verifyAfterParse=*/false));
  if (!bare)
    fail("the unregistered copy of the synthetic IR does not parse");
  for (auto _ : state)
    if (failed(verify(*bare)))
      fail("the unregistered copy of the synthetic IR does not verify");
  countNodes(state);
}

/// Runs `pass` alone on a fresh clone of the module per iteration; cloning,
/// building the pass manager and destroying both are not timed. Each pass
/// manager runs once, as in mav-opt: mav-count-dropout accumulates its counts
/// in the pass, across runs.
static void runPass(benchmark::State &state, llvm::StringRef pass,
                    bool verifyEach) {
  MLIRContext context;
  loadMav(context);
  OwningOpRef<ModuleOp> module = parse(syntheticIR(state.range(0)), context);
  for (auto _ : state) {
    state.PauseTiming();
    OwningOpRef<ModuleOp> copy = module->clone();
    auto pm = std::make_unique<PassManager>(&context);
    pm->enableVerifier(verifyEach);
    if (failed(parsePassPipeline(pass, *pm)))
      fail("cannot build the pipeline of " + pass);
    state.ResumeTiming();
    if (failed(pm->run(*copy)))
      fail(pass + " failed");
    state.PauseTiming();
    pm = nullptr;
    copy = nullptr;
    state.ResumeTiming();
  }
  countNodes(state);
}

/// The graph of a parsed synthetic module.
static Block &graphBody(ModuleOp module) {
  for (Operation &op : *module.getBody())
    if (op.getName().getStringRef() == "mav.graph")
      return op.getRegion(0).front();
  fail("the synthetic IR has no mav.graph");
}

/// MLIR's floor for a per-node pass, measured on bare MLIR calls, with none
/// of mav's code: what any pass that does the same must spend.
enum class Floor {
  /// Visit every node and test whether it is a dropout (its `target`, read
  /// from the node's attribute dictionary, against one uniqued string):
  /// what counting needs without an index.
  FindDropouts,
  /// Set one attribute, the same on every node: MLIR 16 builds each node a
  /// new attribute dictionary (ops have no properties before MLIR 17).
  SetAttribute,
  /// FindDropouts, then bypass and erase each dropout: removal, without
  /// the verifier.
  EraseDropouts,
};

static void runFloor(benchmark::State &state, Floor floor) {
  MLIRContext context;
  loadMav(context);
  OwningOpRef<ModuleOp> module = parse(syntheticIR(state.range(0)), context);
  auto target = StringAttr::get(&context, "target");
  auto dropout = StringAttr::get(&context, "aten::dropout");
  auto marker = StringAttr::get(&context, "floor");
  auto common = StringAttr::get(&context, "common");
  int64_t found = 0;
  for (auto _ : state) {
    state.PauseTiming();
    OwningOpRef<ModuleOp> copy = module->clone();
    Block &body = graphBody(*copy);
    state.ResumeTiming();
    found = 0;
    if (floor == Floor::SetAttribute) {
      for (Operation &op : body)
        op.setAttr(common, marker);
    } else {
      llvm::SmallVector<Operation *> dropouts;
      for (Operation &op : body)
        if (op.getAttr(target) == dropout)
          dropouts.push_back(&op);
      found = dropouts.size();
      if (floor == Floor::EraseDropouts)
        for (Operation *op : dropouts) {
          op->getResult(0).replaceAllUsesWith(op->getOperand(0));
          op->erase();
        }
    }
    benchmark::DoNotOptimize(found);
    state.PauseTiming();
    copy = nullptr;
    state.ResumeTiming();
  }
  if (floor != Floor::SetAttribute && found != state.range(0))
    fail("the floor benchmark found " + llvm::Twine(found) + " dropouts in " +
         llvm::Twine(state.range(0)) + " blocks");
  countNodes(state);
}

template <typename Function, typename... Args>
static void add(const char *name, Function function, Args... args) {
  benchmark::internal::Benchmark *registered =
      benchmark::RegisterBenchmark(name, function, args...);
  registered->ArgName("blocks")->Unit(benchmark::kMicrosecond);
  for (int64_t blocks : kBlockCounts)
    registered->Arg(blocks);
}

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  llvm::StringRef blocksArg;
  if (argc == 2 && (blocksArg = argv[1]).consume_front("--emit-ir=")) {
    int64_t blocks;
    if (blocksArg.getAsInteger(10, blocks) || blocks < 1) {
      llvm::errs() << "mav-micro-bench: --emit-ir wants a positive block "
                      "count\n";
      return 1;
    }
    llvm::outs() << writeSyntheticIR(blocks);
    return 0;
  }
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;

  for (int64_t blocks : kBlockCounts) {
    MLIRContext context;
    loadMav(context);
    if (!parseSourceString<ModuleOp>(syntheticIR(blocks),
                                     ParserConfig(&context)))
      fail("the synthetic IR of " + llvm::Twine(blocks) +
           " blocks does not parse");
  }

  mav::registerMavPassesAndPipelines();
  add("ParseText", parseText);
  add("PrintText", printText, /*assumeVerified=*/false);
  add("PrintTextAssumeVerified", printText, /*assumeVerified=*/true);
  add("WriteBytecode", writeBytecode);
  add("ParseBytecode", parseBytecode);
  add("Verify", verifyModule);
  add("InitMetadata", runPass, "mav-init-metadata", false);
  add("CountDropout", runPass, "mav-count-dropout", false);
  add("RemoveDropout", runPass, "mav-remove-dropout", false);
  add("RemoveDropoutVerified", runPass, "mav-remove-dropout", true);
  add("ClassifyEntryExit", runPass, "mav-classify-entry-exit", false);
  add("CountParams", runPass, "mav-count-params", false);
  add("FloorFindDropouts", runFloor, Floor::FindDropouts);
  add("FloorSetAttribute", runFloor, Floor::SetAttribute);
  add("FloorEraseDropouts", runFloor, Floor::EraseDropouts);
  add("FloorVerify", verifyFloor);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
