//===- TorchScriptImporter.cpp - Entry of the TorchScript importer --------===//
//
// Checks the archive's CRC-32s, loads it with libtorch, imports weights and the
// forward graph, verifies the result, and turns every libtorch failure into one
// diagnostic naming the file.
//
//===----------------------------------------------------------------------===//

#include "ImportServices.h"
#include "ImporterInternals.h"
#include "mav/Checkpoint/ZipChecksums.h"

#include "mlir/IR/Verifier.h"

#include "mav/Runtime/MemoryReader.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mav;
using namespace mav::detail;

InFlightDiagnostic ImportContext::emitError() {
  return mlir::emitError(FileLineColLoc::get(context, fileName, 0, 0));
}

/// The first meaningful line of a libtorch message: they may start with a
/// newline, and carry a backtrace or a source excerpt after it.
static StringRef firstLine(StringRef message) {
  while (!message.empty()) {
    auto [line, rest] = message.split('\n');
    if (!line.trim().empty())
      return line.trim();
    message = rest;
  }
  return "(libtorch gave no message)";
}

/// Why libtorch could not load the archive, in one line. An operator that
/// this libtorch does not know (a custom op such as torchvision::nms) is
/// named, with the TorchScript source line that calls it.
static std::string describeLoadFailure(StringRef message) {
  StringRef line = firstLine(message);
  constexpr StringLiteral unknownOp = "Unknown builtin op: ";
  if (!line.starts_with(unknownOp))
    return line.str();
  std::string op = line.drop_front(unknownOp.size()).rtrim('.').str();
  std::string where;
  size_t file = message.find("File \"");
  if (file != StringRef::npos) {
    StringRef rest = message.drop_front(file + 6);
    auto [path, tail] = rest.split('"');
    where = " (called at " + path.str();
    if (tail.consume_front(", line "))
      where += ":" + tail.take_while(llvm::isDigit).str();
    where += ")";
  }
  return "unsupported operator '" + op + "'" + where +
         ": a custom op that libtorch does not know; mav imports models "
         "built from torch's own operators only";
}

/// Every submodule's class, for tools that show the module tree
/// (`mav-translate --summary`), including containers no node is traced in.
static void recordModuleClasses(ImportContext &ctx,
                                const torch::jit::Module &root) {
  SmallVector<Attribute> classes;
  for (const torch::jit::NameModule &child : root.named_modules())
    classes.push_back(ArrayAttr::get(
        ctx.context,
        {StringAttr::get(ctx.context, child.name),
         StringAttr::get(ctx.context,
                         mav::detail::demangleClassName(child.value.type()))}));
  ctx.module->setAttr(MavDialect::getModuleClassesAttrName(),
                      ArrayAttr::get(ctx.context, classes));
}

OwningOpRef<ModuleOp>
mav::torch_runtime::importTorchScript(StringRef buffer, StringRef fileName,
                                      const TorchScriptImportOptions &options,
                                      MLIRContext *context) {
  context->loadDialect<MavDialect>();
  OwningOpRef<ModuleOp> module =
      ModuleOp::create(FileLineColLoc::get(context, fileName, 0, 0));
  ImportContext ctx(*module, fileName, options);
  // libtorch crashes on some damaged archives; refuse them first.
  if (llvm::Error error = checkTorchScriptArchive(buffer)) {
    ctx.emitError() << "not a readable TorchScript archive: "
                    << llvm::toString(std::move(error));
    return nullptr;
  }
  try {
    auto reader = std::make_shared<BoundedMemoryReader>(buffer);
    torch::jit::Module root;
    try {
      root = torch::jit::load(reader, at::kCPU);
    } catch (const c10::Error &error) {
      ctx.emitError() << "not a readable TorchScript archive: "
                      << describeLoadFailure(error.what_without_backtrace());
      return nullptr;
    }
    if (failed(importWeights(ctx, root)) || failed(importForward(ctx, root)))
      return nullptr;
    recordModuleClasses(ctx, root);
  } catch (const c10::Error &error) {
    ctx.emitError() << "import failed: "
                    << describeLoadFailure(error.what_without_backtrace());
    return nullptr;
  } catch (const std::exception &error) {
    ctx.emitError() << "import failed: " << describeLoadFailure(error.what());
    return nullptr;
  }
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

void mav::registerImportTorchServices() {
  import_services::importTorchScript.provide(torch_runtime::importTorchScript);
}
