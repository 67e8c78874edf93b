//===- mav-translate.cpp - Translations into and out of mav ---------------===//
//
// The import and export translations. `--mav-roundtrip` reads mav IR (text or
// bytecode) and writes it back, as text or, with `--emit-bytecode`, as MLIR
// bytecode.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/MavDialect.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Operation.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

static llvm::cl::opt<bool>
    emitBytecode("emit-bytecode",
                 llvm::cl::desc("Write MLIR bytecode instead of text"),
                 llvm::cl::init(false));

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
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "mav translation driver\n"));
}
