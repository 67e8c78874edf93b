//===- TorchRuntime.cpp - libtorch as a runtime backend -------------------===//

#include "mav/Runtime/TorchRuntime.h"

const mav::RuntimeServices *mav::torch_runtime::getServices() {
  static const RuntimeServices services = {
      RuntimeServices::kVersion,       &torch_runtime::propagateShapes,
      &torch_runtime::writeCheckpoint, &torch_runtime::analyseScale,
      &torch_runtime::recordExecOrder, &torch_runtime::importTorchScript};
  return &services;
}

extern "C" const mav::RuntimeServices *mavRuntimeServices() {
  return mav::torch_runtime::getServices();
}
