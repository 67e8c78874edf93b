//===- RuntimeServices.h - The runtime's libtorch services ------*- C++ -*-===//
//
// Internal to lib/Runtime: the services behind the runtime's public entry
// points (ShapePropagation.h, GraphAnalyses.h). RuntimeServices.cpp calls
// them, libtorch-free; the torch_runtime functions implement them, in
// MavRuntime, and TorchRuntime.cpp provides them (TorchService.h).
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_RUNTIME_RUNTIMESERVICES_H
#define MAV_LIB_RUNTIME_RUNTIMESERVICES_H

#include "mav/Runtime/GraphAnalyses.h"
#include "mav/Runtime/ShapePropagation.h"
#include "mav/Runtime/TorchService.h"

namespace mav {
namespace runtime_services {
inline constexpr TorchService<decltype(mav::propagateShapes)> propagateShapes{
    "runtime.propagateShapes"};
inline constexpr TorchService<decltype(mav::analyseScale)> analyseScale{
    "runtime.analyseScale"};
inline constexpr TorchService<decltype(mav::recordExecOrder)> recordExecOrder{
    "runtime.recordExecOrder"};
inline constexpr TorchService<decltype(mav::observeValueRanges)>
    observeValueRanges{"runtime.observeValueRanges"};
} // namespace runtime_services

/// The implementations, on libtorch (MavRuntime).
namespace torch_runtime {
decltype(mav::propagateShapes) propagateShapes;
decltype(mav::analyseScale) analyseScale;
decltype(mav::recordExecOrder) recordExecOrder;
decltype(mav::observeValueRanges) observeValueRanges;
} // namespace torch_runtime
} // namespace mav

#endif // MAV_LIB_RUNTIME_RUNTIMESERVICES_H
