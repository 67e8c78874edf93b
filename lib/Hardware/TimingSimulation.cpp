//===- TimingSimulation.cpp - Beat-level timing of a design ---------------===//
//
// Each stream resolves its beats in order. Beat k of a stream first gets its
// offer (the producer's rule), then its ready (the consumer's rule); it moves
// on edge max(offer, ready). A rule reads only beats of its own unit's
// streams that are already resolved; when one is not, the stream waits and
// is tried again once a neighbouring stream has moved on (a worklist). The
// rules, edge by edge, are those of docs/Hardware.md, "Performance":
//
//   slice (capacity K):  offer(k) = max(in(k), out(k-1)) + 1
//                        ready(k) = max(in(k-1), out(k-K)) + 1
//   join:                as a slice of capacity 2 on both inputs at once;
//                        an input is ready once the other one is offered
//   sequence:            a slice of capacity 2 whose input, per item, is
//                        each phase's port in turn; a phase starts one
//                        edge after the previous phase's last beat
//   buffered:            load beat j of item i: j > 0: in(k-1) + 1,
//                        j = 0: one edge after item i-1's last output beat;
//                        first output beat of a block: C + 1 edges after the
//                        last load beat or the previous block's last beat;
//                        other output beats: out(k-1) + 1
//   convert (I -> O):    offer(k) = max(in(ceil((k+1)O/I) - 1), out(k-1)) + 1
//                        ready(j) = max(in(j-1), out(m)) + 1,
//                        m = ceil(((j+1)I - CAP)/O) - 1, CAP = I + O + min(I,O)
//                        - 1
//   fork:                offers each branch the input's offer; the input
//                        moves when the last branch has taken the beat
//
// with in(k) / out(k) the edge of beat k of the unit's input / output (-1
// before the first beat).
//
//===----------------------------------------------------------------------===//

#include "mav/Hardware/TimingSimulation.h"

#include <deque>
#include <optional>

using namespace llvm;
using namespace mav;

namespace {

using Kind = ComponentTiming::Kind;
using Edge = std::optional<int64_t>;
constexpr int64_t kUnknown = INT64_MIN;

int64_t ceilDiv(int64_t a, int64_t b) {
  return a <= 0 ? a / b : (a - 1) / b + 1;
}

class Simulation {
public:
  Simulation(const TimedDesign &design, int64_t frames)
      : design(design), frames(frames) {}

  Expected<TimingTrace> run();

private:
  /// The edge of beat k of stream s: -1 before the first, none when not
  /// resolved yet.
  Edge at(unsigned s, int64_t k) const {
    if (k < 0)
      return -1;
    if (k >= next[s])
      return std::nullopt;
    return edges[s][k];
  }
  /// Beat k of stream s is offered at `offers[s][k]`, when known.
  Edge offered(unsigned s, int64_t k) const {
    if (k < 0)
      return -1;
    if (k >= static_cast<int64_t>(offers[s].size()) || offers[s][k] == kUnknown)
      return std::nullopt;
    return offers[s][k];
  }

  Edge offer(unsigned s, int64_t k) const;
  Edge ready(unsigned s, int64_t k) const;
  Edge sequenceReady(const TimedUnit &unit, unsigned port, int64_t k) const;
  Edge sequenceOffer(const TimedUnit &unit, int64_t k) const;
  bool advance(unsigned s);
  void notify(unsigned s);

  const TimedDesign &design;
  int64_t frames;
  std::vector<std::vector<int64_t>> edges, offers;
  std::vector<int64_t> next;
  std::deque<unsigned> work;
  std::vector<char> queued;
};

/// max(a + 1, b + 1), none when either is unknown.
Edge after(Edge a, Edge b) {
  if (!a || !b)
    return std::nullopt;
  return std::max(*a, *b) + 1;
}

/// a + 1, none when a is unknown.
Edge after(Edge a) { return after(a, a); }

Edge Simulation::sequenceOffer(const TimedUnit &unit, int64_t k) const {
  int64_t perItem = 0;
  for (const ComponentTiming::Phase &phase : unit.timing.phases)
    if (phase.passes)
      perItem += phase.beats;
  int64_t item = k / perItem, rest = k % perItem;
  for (const ComponentTiming::Phase &phase : unit.timing.phases) {
    if (!phase.passes)
      continue;
    if (rest < phase.beats)
      return after(at(unit.inputs[phase.port], item * phase.beats + rest),
                   at(unit.outputs[0], k - 1));
    rest -= phase.beats;
  }
  return std::nullopt;
}

Edge Simulation::sequenceReady(const TimedUnit &unit, unsigned port,
                               int64_t k) const {
  ArrayRef<ComponentTiming::Phase> phases = unit.timing.phases;
  size_t index = 0;
  while (phases[index].port != port)
    ++index;
  const ComponentTiming::Phase &phase = phases[index];
  int64_t item = k / phase.beats, beat = k % phase.beats;
  Edge start;
  if (beat > 0)
    start = after(at(unit.inputs[port], k - 1));
  else if (index > 0)
    start = after(at(unit.inputs[phases[index - 1].port],
                     (item + 1) * phases[index - 1].beats - 1));
  else
    start = after(
        at(unit.inputs[phases.back().port], item * phases.back().beats - 1));
  if (!phase.passes)
    return start;
  // Its skid buffer: output beat o needs beat o - 2 gone.
  int64_t perItem = 0, offset = 0;
  for (auto [i, other] : llvm::enumerate(phases)) {
    if (!other.passes)
      continue;
    if (i < index)
      offset += other.beats;
    perItem += other.beats;
  }
  Edge skid = after(at(unit.outputs[0], item * perItem + offset + beat - 2));
  if (!start || !skid)
    return std::nullopt;
  return std::max(*start, *skid);
}

Edge Simulation::offer(unsigned s, int64_t k) const {
  const TimedStream &stream = design.streams[s];
  const TimedUnit &unit = design.units[stream.producer];
  const ComponentTiming &timing = unit.timing;
  if (unit.role == TimedUnit::Role::Source)
    return after(at(s, k - 1));
  switch (timing.kind) {
  case Kind::Slice:
  case Kind::Join:
    return after(at(unit.inputs[0], k), at(s, k - 1));
  case Kind::Sequence:
    return sequenceOffer(unit, k);
  case Kind::Buffered: {
    int64_t perItem = timing.blocks * timing.emitBeats;
    int64_t item = k / perItem, rest = k % perItem;
    if (rest == 0) {
      unsigned port = 0;
      int64_t beats = timing.loadBeats;
      if (!timing.phases.empty()) {
        port = timing.phases.back().port;
        beats = timing.phases.back().beats;
      }
      Edge loaded = at(unit.inputs[port], (item + 1) * beats - 1);
      return loaded ? Edge(*loaded + 1 + timing.computeCycles) : std::nullopt;
    }
    Edge previous = at(s, k - 1);
    if (!previous)
      return std::nullopt;
    return *previous + 1 +
           (rest % timing.emitBeats == 0 ? timing.computeCycles : 0);
  }
  case Kind::Convert:
    return after(at(unit.inputs[0],
                    ceilDiv((k + 1) * timing.outWords, timing.inWords) - 1),
                 at(s, k - 1));
  case Kind::Fork:
    return offered(unit.inputs[0], k);
  }
  return std::nullopt;
}

Edge Simulation::ready(unsigned s, int64_t k) const {
  const TimedStream &stream = design.streams[s];
  const TimedUnit &unit = design.units[stream.consumer];
  const ComponentTiming &timing = unit.timing;
  if (unit.role == TimedUnit::Role::Sink)
    return 0;
  switch (timing.kind) {
  case Kind::Slice:
    return after(at(s, k - 1), at(unit.outputs[0], k - timing.capacity));
  case Kind::Join: {
    unsigned other = unit.inputs[stream.consumerPort == 0 ? 1 : 0];
    Edge skid = after(at(s, k - 1), at(unit.outputs[0], k - 2));
    Edge partner = offered(other, k);
    if (!skid || !partner)
      return std::nullopt;
    return std::max(*skid, *partner);
  }
  case Kind::Sequence:
    return sequenceReady(unit, stream.consumerPort, k);
  case Kind::Buffered: {
    // Inputs load in turn (phases), or the one input loads.
    int64_t beats = timing.loadBeats;
    const ComponentTiming::Phase *previous = nullptr;
    for (const ComponentTiming::Phase &phase : timing.phases) {
      if (phase.port == stream.consumerPort) {
        beats = phase.beats;
        break;
      }
      previous = &phase;
    }
    int64_t item = k / beats;
    if (k % beats != 0)
      return after(at(s, k - 1));
    if (previous)
      return after(
          at(unit.inputs[previous->port], (item + 1) * previous->beats - 1));
    return after(
        at(unit.outputs[0], item * timing.blocks * timing.emitBeats - 1));
  }
  case Kind::Convert: {
    int64_t capacity = timing.inWords + timing.outWords +
                       std::min(timing.inWords, timing.outWords) - 1;
    int64_t m =
        ceilDiv((k + 1) * timing.inWords - capacity, timing.outWords) - 1;
    return after(at(s, k - 1), at(unit.outputs[0], std::max<int64_t>(m, -1)));
  }
  case Kind::Fork: {
    int64_t last = -1;
    for (unsigned branch : unit.outputs) {
      Edge taken = at(branch, k);
      if (!taken)
        return std::nullopt;
      last = std::max(last, *taken);
    }
    return last;
  }
  }
  return std::nullopt;
}

void Simulation::notify(unsigned s) {
  const TimedStream &stream = design.streams[s];
  for (unsigned unit : {stream.producer, stream.consumer}) {
    const TimedUnit &neighbour = design.units[unit];
    for (ArrayRef<unsigned> ids : {ArrayRef<unsigned>(neighbour.inputs),
                                   ArrayRef<unsigned>(neighbour.outputs)})
      for (unsigned id : ids)
        if (!queued[id]) {
          queued[id] = true;
          work.push_back(id);
        }
  }
}

/// Resolves as many beats of stream s as its neighbours allow; whether it
/// changed anything (an offer or a beat).
bool Simulation::advance(unsigned s) {
  bool changed = false;
  int64_t total = static_cast<int64_t>(edges[s].size());
  while (next[s] < total) {
    int64_t k = next[s];
    if (offers[s][k] == kUnknown) {
      Edge edge = offer(s, k);
      if (!edge)
        break;
      offers[s][k] = *edge;
      changed = true;
    }
    Edge accepted = ready(s, k);
    if (!accepted)
      break;
    edges[s][k] = std::max(offers[s][k], *accepted);
    ++next[s];
    changed = true;
  }
  return changed;
}

Expected<TimingTrace> Simulation::run() {
  size_t count = design.streams.size();
  edges.resize(count);
  offers.resize(count);
  next.assign(count, 0);
  queued.assign(count, true);
  for (unsigned s = 0; s < count; ++s) {
    int64_t beats = design.streams[s].beatsPerFrame * frames;
    edges[s].assign(beats, kUnknown);
    offers[s].assign(beats, kUnknown);
    work.push_back(s);
  }
  while (!work.empty()) {
    unsigned s = work.front();
    work.pop_front();
    queued[s] = false;
    if (advance(s))
      notify(s);
  }
  TimingTrace trace;
  std::optional<unsigned> input, output;
  for (unsigned s = 0; s < count; ++s) {
    const TimedStream &stream = design.streams[s];
    if (next[s] < static_cast<int64_t>(edges[s].size()))
      return createStringError(
          inconvertibleErrorCode(),
          "the timing model deadlocks: the stream from '" +
              design.units[stream.producer].name + "' to '" +
              design.units[stream.consumer].name + "' stops at beat " +
              std::to_string(next[s]) + " of " +
              std::to_string(edges[s].size()));
    if (design.units[stream.producer].role == TimedUnit::Role::Source)
      input = s;
    if (design.units[stream.consumer].role == TimedUnit::Role::Sink)
      output = s;
  }
  if (!input || !output || edges[*input].empty() || edges[*output].empty())
    return createStringError(inconvertibleErrorCode(),
                             "the timed design needs an input and an output "
                             "stream, each with beats");
  trace.firstInput = edges[*input][0];
  int64_t perFrame = design.streams[*output].beatsPerFrame;
  for (int64_t frame = 0; frame < frames; ++frame)
    trace.frameEnds.push_back(edges[*output][(frame + 1) * perFrame - 1]);
  return trace;
}

} // namespace

Expected<TimingTrace> mav::simulateTiming(const TimedDesign &design,
                                          int64_t frames) {
  return Simulation(design, std::max<int64_t>(frames, 1)).run();
}
