//===- CheckpointServices.cpp - Write a checkpoint through its service ----===//

#include "CheckpointServices.h"

using namespace mlir;
using namespace mav;

LogicalResult mav::writeCheckpoint(ModuleOp module, StringRef path) {
  return checkpoint_services::writeCheckpoint.call(module, module, path);
}
