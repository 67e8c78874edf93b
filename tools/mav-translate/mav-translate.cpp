//===- mav-translate.cpp - Translations into and out of mav ---------------===//
//
// The import and export translations:
//   --import-torchscript  a saved TorchScript module into a mav module;
//   --mav-roundtrip       mav IR (text or bytecode) back out, as text or, with
//                         --emit-bytecode, as MLIR bytecode.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/MavDialect.h"
#include "mav/Import/TorchScript.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Operation.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

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

static mlir::OwningOpRef<mlir::Operation *>
importTorchScript(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  mav::TorchScriptImportOptions options;
  options.inputShapes.assign(inputShapes.begin(), inputShapes.end());
  options.leafModules.assign(leafModules.begin(), leafModules.end());
  options.inlineAll = inlineAll;
  return mav::importTorchScript(
      buffer->getBuffer(), buffer->getBufferIdentifier(), options, context);
}

static mlir::LogicalResult writeModule(mlir::Operation *op,
                                       llvm::raw_ostream &os) {
  if (emitBytecode) {
    mlir::writeBytecodeToFile(op, os);
    return mlir::success();
  }
  op->print(os);
  os << '\n';
  return mlir::success();
}

int main(int argc, char **argv) {
  mlir::TranslateFromMLIRRegistration roundTrip(
      "mav-roundtrip", "read mav IR (text or bytecode) and write it back",
      writeModule, [](mlir::DialectRegistry &registry) {
        registry.insert<mav::MavDialect>();
      });
  mlir::TranslateToMLIRRegistration importRegistration(
      "import-torchscript",
      "import a saved TorchScript module (torch.jit.trace / torch.jit.save)",
      importTorchScript, [](mlir::DialectRegistry &registry) {
        registry.insert<mav::MavDialect>();
      });
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "mav translation driver\n"));
}
