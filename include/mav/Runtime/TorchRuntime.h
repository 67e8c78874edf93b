//===- TorchRuntime.h - The runtime's libtorch side -------------*- C++ -*-===//
//
// Registers the runtime's libtorch services (TorchService.h): shape
// propagation on libtorch's meta and cpu devices, and the scale and
// execution-order analyses. Called by libMavTorchPlugin.so's entry point, or
// at start-up by a tool that links MavRuntime. libtorch-free header; defined
// in MavRuntime.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_RUNTIME_TORCHRUNTIME_H
#define MAV_RUNTIME_TORCHRUNTIME_H

namespace mav {

void registerRuntimeTorchServices();

} // namespace mav

#endif // MAV_RUNTIME_TORCHRUNTIME_H
