//===- TorchRuntime.cpp - libtorch as a runtime backend -------------------===//

#include "mav/Runtime/TorchRuntime.h"

#include <c10/util/Logging.h>

const mav::RuntimeServices *mav::torch_runtime::getServices() {
  // mav reports the first line of libtorch's errors, never their C++
  // backtrace, and capturing one costs milliseconds per exception: shape
  // propagation catches one for every operator without a meta kernel.
  static bool withoutBacktraces =
      (c10::SetStackTraceFetcher([] { return std::string(); }), true);
  (void)withoutBacktraces;
  static const RuntimeServices services = {
      RuntimeServices::kVersion,       &torch_runtime::propagateShapes,
      &torch_runtime::writeCheckpoint, &torch_runtime::analyseScale,
      &torch_runtime::recordExecOrder, &torch_runtime::importTorchScript};
  return &services;
}

extern "C" const mav::RuntimeServices *mavRuntimeServices() {
  return mav::torch_runtime::getServices();
}
