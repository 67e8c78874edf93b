//===- TorchPlugin.cpp - The entry point of libMavTorchPlugin.so ----------===//

#include "mav/Runtime/TorchPlugin.h"
#include "mav/Checkpoint/Checkpoint.h"

extern "C" const mav::TorchPluginApi *mavTorchPluginApi() {
  static const mav::TorchPluginApi api = {
      mav::TorchPluginApi::kVersion, &mav::propagateShapes,
      &mav::writeCheckpoint, &mav::analyseScale, &mav::recordExecOrder};
  return &api;
}
