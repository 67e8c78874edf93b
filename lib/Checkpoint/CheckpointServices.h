//===- CheckpointServices.h - The checkpoint's libtorch service -*- C++ -*-===//
//
// Internal to lib/Checkpoint: writeCheckpoint (Checkpoint.h) is
// libtorch-free and calls this service (TorchService.h); CheckpointWriter.cpp
// implements it with libtorch's archive and pickle code, and provides it.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_CHECKPOINT_CHECKPOINTSERVICES_H
#define MAV_LIB_CHECKPOINT_CHECKPOINTSERVICES_H

#include "mav/Checkpoint/Checkpoint.h"
#include "mav/Runtime/TorchService.h"

namespace mav {
namespace checkpoint_services {
inline constexpr TorchService<decltype(mav::writeCheckpoint)> writeCheckpoint{
    "checkpoint.write"};
} // namespace checkpoint_services

/// The implementation, on libtorch (MavCheckpoint).
namespace torch_runtime {
decltype(mav::writeCheckpoint) writeCheckpoint;
} // namespace torch_runtime
} // namespace mav

#endif // MAV_LIB_CHECKPOINT_CHECKPOINTSERVICES_H
