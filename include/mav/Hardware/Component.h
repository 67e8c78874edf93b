//===- Component.h - One registry entry per hardware component --*- C++ -*-===//
//
// Everything that is true of a component of the RTL library
// (lib/Export/Verilog/rtl) is on its entry: its module, parameters and files,
// the operators it computes and which calls of them fit, its fixed-point rule,
// its error-bound rule, its error-estimate rule, its instance parameters,
// its cycles and its resource estimates. The lowering (HardwareGraph), the
// fixed-point model, the error bound and estimate, the exporter and the
// performance model read the entry and nothing else, so adding a component is
// its `.sv` file, its entry (lib/Hardware/Components) and its tests
// (docs/Hardware.md, "How to add a component").
//
// The entries key on the op registry's mase_op names. They live in
// lib/Hardware, not on the op registry's OpInfo, because their rules need
// the lowered node; lib/Operators stays free of the hardware flow.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_HARDWARE_COMPONENT_H
#define MAV_HARDWARE_COMPONENT_H

#include "mav/Hardware/FixedPoint.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mlir {
class SymbolTableCollection;
} // namespace mlir

namespace mav {

struct AtenCall;
struct HardwareNode;

/// What a component's `describe` reads: the node's operator (its mase_op),
/// its aten call, and the symbol tables to find its weights in.
struct ComponentCall {
  llvm::StringRef maseOp;
  const AtenCall &call;
  mlir::SymbolTableCollection &symbols;
};

/// What a fixed-point rule reads: the stream operands, already in the node's
/// format, and the node's quantized weights (empty without).
struct NodeWords {
  llvm::ArrayRef<llvm::ArrayRef<int64_t>> operands;
  llvm::ArrayRef<int64_t> weight, bias;
};

/// What an error-bound rule reads, per stream operand: the real value the
/// node reads (after the cast to its format) and a bound on how far it is
/// from float PyTorch's; the node's result words; its weights, quantized and
/// as floats.
struct NodeErrors {
  llvm::ArrayRef<std::vector<double>> operands, errors;
  llvm::ArrayRef<int64_t> result;
  llvm::ArrayRef<int64_t> weightWords, biasWords;
  llvm::ArrayRef<float> weight, bias;
};

/// What an error-estimate rule reads, per stream operand: the real value the
/// node reads (after the cast to its format), the predicted mean square of
/// its error against float PyTorch's, and the mean square the rule allows it
/// (NoiseEstimate::allowed); the node's result words; its weights, quantized
/// and as floats.
struct NodeNoise {
  llvm::ArrayRef<std::vector<double>> operands, meanSquares, allowed;
  llvm::ArrayRef<int64_t> result;
  llvm::ArrayRef<int64_t> weightWords, biasWords;
  llvm::ArrayRef<float> weight, bias;
};

/// A node's error, estimated to first order: the mean square of each
/// result element's error, and how many result elements saturated (the
/// estimate does not hold for them, nor for what they feed).
struct NoiseEstimate {
  std::vector<double> meanSquare;
  /// The mean square the rule (|error| <= K rms) allows each result's
  /// error: meanSquare, widened where a relu or clamp cut the error near
  /// its kink (an input error within K rms may carry the value across), and
  /// passed on by what copies or selects (flatten, concat, pools). Empty:
  /// meanSquare, as after any sum, where such cuts average out.
  std::vector<double> allowed = {};
  int64_t saturated = 0;
};

/// Words per beat on each of a node's stream inputs and on its output.
struct StreamWidths {
  llvm::SmallVector<int64_t, 2> in;
  int64_t out = 1;

  bool operator==(const StreamWidths &other) const {
    return in == other.in && out == other.out;
  }
  bool operator!=(const StreamWidths &other) const { return !(*this == other); }
};

/// How a component moves beats with no stalls, as its .sv header states:
/// what the performance model (PerformanceModel.h) simulates. Times are
/// clock edges; a beat moves on an edge where valid and ready are high.
struct ComponentTiming {
  enum class Kind {
    /// A register slice (skid buffer, FIFO): a beat taken on edge t is
    /// offered on edge t + 1; it holds `capacity` beats.
    Slice,
    /// Two inputs taken together into a skid buffer (fixed_join2).
    Join,
    /// Per item, whole inputs one after another (`phases`) into a skid
    /// buffer: concat, channel mul.
    Sequence,
    /// Per item: load `loadBeats` input beats (one a cycle), then `blocks`
    /// times `computeCycles` cycles and `emitBeats` output beats (one a
    /// cycle, each held until taken); the next item is taken after the last
    /// output beat (linear, conv2d, pools). With `phases`, the inputs load
    /// whole, one after another, instead (matmul).
    Buffered,
    /// Repacks I words a beat into O (fixed_width_convert).
    Convert,
    /// Broadcasts each beat to every consumer (fixed_fork), combinational.
    Fork,
  };
  /// One input of a Sequence, per item.
  struct Phase {
    unsigned port;
    int64_t beats;
    /// Whether its beats go to the output (a concat's) or not (the scales
    /// of a channel mul).
    bool passes;
  };
  Kind kind = Kind::Slice;
  /// Slice: the beats it holds (a skid buffer 2, a FIFO its depth).
  int64_t capacity = 2;
  /// Buffered, per item.
  int64_t loadBeats = 0, blocks = 0, computeCycles = 0, emitBeats = 0;
  /// Sequence and Buffered, per item, in the order taken.
  llvm::SmallVector<Phase, 2> phases = {};
  /// Convert: words per input and per output beat.
  int64_t inWords = 1, outWords = 1;
};

/// An estimate of an instance's resources (docs/Hardware.md, "Performance"):
/// the bits of the arrays its .sv declares, and LUTs and flip-flops from a
/// linear formula of its parameters, not from synthesis.
struct ResourceEstimate {
  int64_t memoryBits = 0;
  int64_t luts = 0;
  int64_t flipFlops = 0;
};

/// A component instance's parameter values, as SystemVerilog text.
using ParameterValues = llvm::StringMap<std::string>;

struct Component {
  /// The module and file name, e.g. "fixed_linear".
  llvm::StringRef module;
  /// Its parameters, in declaration order (a unit test reads the .sv file).
  llvm::ArrayRef<llvm::StringRef> parameters;
  /// The .sv files needed to build it, relative to the rtl directory: the
  /// components it instantiates, transitively, in dependency order, then its
  /// own file (MASE's `dependence_files`).
  llvm::ArrayRef<llvm::StringRef> dependenceFiles;
  /// The mase_op names it computes; empty for helpers and glue (fifo, cast).
  llvm::ArrayRef<llvm::StringRef> operators = {};

  /// What fits: fills the node's sizes, window, weights and stream operands
  /// from its call, or returns false with `reason` set ("groups 2 is not
  /// supported by fixed_conv2d"). The node's shapes are already set.
  bool (*describe)(ComponentCall call, HardwareNode &node,
                   std::string &reason) = nullptr;
  /// Once the node has its format: derived constants (a reciprocal's
  /// fraction bits) and checks that depend on it (an accumulator's width).
  /// Null: nothing to do.
  bool (*prepare)(HardwareNode &node, std::string &reason) = nullptr;
  /// The fixed-point rule (docs/Hardware.md, "Per operation"): the result
  /// words, row-major.
  std::vector<int64_t> (*evaluate)(const HardwareNode &node,
                                   const NodeWords &words) = nullptr;
  /// A bound on each result's distance from float PyTorch's, given its
  /// operands' (docs/Hardware.md, "The error bound").
  std::vector<double> (*bound)(const HardwareNode &node,
                               const NodeErrors &errors) = nullptr;
  /// A first-order statistical estimate of each result's error, given its
  /// operands': how the node passes on their errors' mean squares, plus
  /// what its own rounding adds (docs/Hardware.md, "The error estimate").
  NoiseEstimate (*estimate)(const HardwareNode &node,
                            const NodeNoise &noise) = nullptr;
  /// The widths the node can stream at: for each port, the largest legal
  /// width at most `cap`'s (every port has at least width 1). Widths are
  /// what the node's hardware metadata records and its instance uses.
  StreamWidths (*legalWidths)(const HardwareNode &node,
                              const StreamWidths &cap) = nullptr;
  /// Cycles one item (an image; a vector for linear) takes with no stalls,
  /// from its first input beat to its last output beat: the component's
  /// documented formula (its .sv header). Every component here takes the next
  /// item only after the last output beat, so it is also the initiation
  /// interval.
  int64_t (*itemCycles)(const HardwareNode &node) = nullptr;
  /// The multipliers the instance has (DSP candidates).
  int64_t (*multipliers)(const HardwareNode &node) = nullptr;
  /// How it moves beats with no stalls (its .sv header). Glue instances
  /// (fork, FIFO, cast, width converter) are described by a HardwareNode of
  /// their stream: the producer's shape, format and width.
  ComponentTiming (*timing)(const HardwareNode &node) = nullptr;
  /// Its memory bits, LUTs and flip-flops, estimated.
  ResourceEstimate (*resources)(const HardwareNode &node) = nullptr;
  /// The instance's parameters besides DATA_WIDTH, FRAC_WIDTH, PARALLELISM
  /// (the width of a component whose ports all have one) and the ROM files.
  void (*instanceParameters)(const HardwareNode &node,
                             ParameterValues &values) = nullptr;
};

/// Every component of the library, helpers included, in dependency order.
llvm::ArrayRef<const Component *> getComponents();

/// The component named `module`; null if there is none.
const Component *lookupComponent(llvm::StringRef module);

/// The components that compute `maseOp`, in the order they are tried.
llvm::SmallVector<const Component *, 2>
getComponentsFor(llvm::StringRef maseOp);

} // namespace mav

#endif // MAV_HARDWARE_COMPONENT_H
