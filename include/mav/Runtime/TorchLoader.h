//===- TorchLoader.h - Load the libtorch plugin ahead of use ----*- C++ -*-===//
//
// Tools that do not link libtorch get the libtorch services
// (TorchService.h) from libMavTorchPlugin.so, loaded on first use.
// Loading it (and libtorch) costs about 0.3 s; a driver that knows a pass
// will need it can start the load early, on another thread, so that it
// overlaps parsing. libtorch-free header.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_RUNTIME_TORCHLOADER_H
#define MAV_RUNTIME_TORCHLOADER_H

namespace mav {

/// Makes the libtorch services come from libMavTorchPlugin.so (beside the
/// tool, in ../lib, or MAV_TORCH_PLUGIN), loaded when first asked for.
void useTorchPlugin();

/// Starts loading the libtorch services on a background thread, once. The
/// first call that needs them waits for the load to finish.
void prefetchTorchRuntime();

/// Waits for a load started by prefetchTorchRuntime, if any. Drivers call it
/// before they exit, so that no load is still running at exit.
void waitForTorchPrefetch();

} // namespace mav

#endif // MAV_RUNTIME_TORCHLOADER_H
