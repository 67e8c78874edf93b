//===- TorchRuntime.cpp - Register the runtime's libtorch services --------===//

#include "mav/Runtime/TorchRuntime.h"
#include "RuntimeServices.h"

#include <c10/util/Logging.h>

void mav::registerRuntimeTorchServices() {
  // mav reports the first line of libtorch's errors, never their C++
  // backtrace, and capturing one costs milliseconds per exception: shape
  // propagation catches one for every operator without a meta kernel.
  c10::SetStackTraceFetcher([] { return std::string(); });
  runtime_services::propagateShapes.provide(torch_runtime::propagateShapes);
  runtime_services::analyseScale.provide(torch_runtime::analyseScale);
  runtime_services::recordExecOrder.provide(torch_runtime::recordExecOrder);
  runtime_services::observeValueRanges.provide(
      torch_runtime::observeValueRanges);
}
