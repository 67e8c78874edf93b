//===- mav-opt.cpp - The mav pass driver ----------------------------------===//
//
// MlirOptMain with the mav dialect and every mav pass registered.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/MavDialect.h"
#include "mav/Passes/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mav::registerMavPassesAndPipelines();
  mlir::DialectRegistry registry;
  registry.insert<mav::MavDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "mav pass driver\n", registry));
}
