//===- ParseMemory.cpp - Memory that a parsed mav module holds ------------===//
//
// `mav-parse-memory FILE` parses FILE (text or bytecode) as mav-opt does and
// prints, as one JSON object, the process's resident memory before and after,
// and the difference per mav node: what issue 28 calls the memory per node
// after parsing. The file's own pages count, as they do for mav-opt.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/MavDialect.h"
#include "mav/IR/MavOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <string>

using namespace mlir;

/// The resident set size of this process, in KiB, from /proc/self/status.
static long residentKiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0)
      return std::stol(line.substr(6));
  return -1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: mav-parse-memory FILE\n";
    return 2;
  }
  MLIRContext context;
  context.disableMultithreading();
  context.loadDialect<mav::MavDialect>();
  long before = residentKiB();

  auto file = llvm::MemoryBuffer::getFile(argv[1], /*IsText=*/false,
                                          /*RequiresNullTerminator=*/true);
  if (!file) {
    llvm::errs() << argv[1] << ": " << file.getError().message() << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return 1;
  long after = residentKiB();

  int64_t nodes = 0, ops = 0;
  module->walk([&](Operation *op) {
    ++ops;
    nodes += isa<mav::NodeOpInterface>(op);
  });
  llvm::outs() << llvm::formatv(
      "{{\"file\": \"{0}\", \"ops\": {1}, \"nodes\": {2}, "
      "\"rss_kib_before\": {3}, \"rss_kib_after\": {4}, "
      "\"kib_per_node\": {5:F3}}\n",
      argv[1], ops, nodes, before, after,
      nodes ? double(after - before) / nodes : 0.0);
  return 0;
}
