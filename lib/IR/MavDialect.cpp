//===- MavDialect.cpp - The mav dialect -----------------------------------===//

#include "mav/IR/MavDialect.h"
#include "mav/IR/MavOps.h"

using namespace mlir;
using namespace mav;

#include "mav/IR/MavDialect.cpp.inc"

void MavDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "mav/IR/MavOps.cpp.inc"
      >();
}
