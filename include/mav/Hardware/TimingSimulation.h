//===- TimingSimulation.h - Beat-level timing of a design -------*- C++ -*-===//
//
// An event-driven simulation of when every beat of every stream of a design
// moves with no stalls (input always valid, output always ready), from the
// cycle behaviour of its components (ComponentTiming, their .sv headers).
// A beat moves on the clock edge max(offer, ready): the producer offers it
// when its rule allows (after the input beats it depends on, after its own
// previous beat), the consumer accepts it when its rule allows (a free
// slot, the right phase). Buffered components contribute one event per
// phase, not per cycle, so a frame costs about one event per beat.
// Libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_HARDWARE_TIMINGSIMULATION_H
#define MAV_HARDWARE_TIMINGSIMULATION_H

#include "mav/Hardware/Component.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mav {

/// One unit of a timed design: the design's input (a source offering a beat
/// every cycle), its output (a sink always ready), or an instance.
struct TimedUnit {
  enum class Role { Source, Sink, Instance };
  Role role = Role::Instance;
  std::string name;
  ComponentTiming timing;
  /// Stream ids, by port (a fork has one output per consumer).
  llvm::SmallVector<unsigned, 2> inputs, outputs;
};

/// A stream between two units.
struct TimedStream {
  unsigned producer = 0, producerPort = 0;
  unsigned consumer = 0, consumerPort = 0;
  /// Beats of one frame (one input tensor of the design).
  int64_t beatsPerFrame = 0;
};

struct TimedDesign {
  std::vector<TimedUnit> units;
  std::vector<TimedStream> streams;
};

/// When the design's input and output beats move, as clock edges counted
/// from the first edge after reset.
struct TimingTrace {
  /// The edge of the first input beat.
  int64_t firstInput = 0;
  /// The edge of each frame's last output beat.
  std::vector<int64_t> frameEnds;
};

/// Simulates `frames` frames, back to back. Fails when the design
/// deadlocks, naming the stream that cannot move.
llvm::Expected<TimingTrace> simulateTiming(const TimedDesign &design,
                                           int64_t frames);

} // namespace mav

#endif // MAV_HARDWARE_TIMINGSIMULATION_H
