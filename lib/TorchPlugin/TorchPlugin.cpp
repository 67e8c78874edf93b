//===- TorchPlugin.cpp - libMavTorchPlugin.so's entry point ---------------===//
//
// Registers the libtorch services of every library the plugin holds
// (TorchService.h). The plugin's only entry point: a new service is
// registered by its own library's register...TorchServices().
//
//===----------------------------------------------------------------------===//

#include "mav/Checkpoint/Checkpoint.h"
#include "mav/Import/TorchScript.h"
#include "mav/Runtime/TorchRuntime.h"
#include "mav/Runtime/TorchService.h"

extern "C" unsigned mavRegisterTorchServices() {
  mav::registerRuntimeTorchServices();
  mav::registerCheckpointTorchServices();
  mav::registerImportTorchServices();
  return mav::kTorchServicesVersion;
}
