//===- FixedPointModel.h - The bit-exact software model ---------*- C++ -*-===//
//
// Runs a lowered graph on fixed-point words by the rules of
// docs/Hardware.md: the golden reference that the generated RTL is checked
// against, word for word. Where a producer's format differs from its
// consumer's, the words are cast as fixed_cast does.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_HARDWARE_FIXEDPOINTMODEL_H
#define MAV_HARDWARE_FIXEDPOINTMODEL_H

#include "mav/Hardware/HardwareGraph.h"

namespace mav {

class FixedPointModel {
public:
  /// Quantizes the weights of `graph`'s nodes; fails with a diagnostic at a
  /// weight whose values are missing. `graph` must outlive the model.
  static mlir::FailureOr<FixedPointModel> create(const HardwareGraph &graph);

  /// The output words for the words of the graph input (in the input's
  /// format, row-major, the whole batch).
  std::vector<int64_t> run(llvm::ArrayRef<int64_t> input) const;
  /// Every node's result words, indexed as the graph's nodes.
  std::vector<std::vector<int64_t>> runAll(llvm::ArrayRef<int64_t> input) const;

  const HardwareGraph &getGraph() const { return *graph; }
  /// Node `index`'s weight and bias words (linear, conv2d).
  llvm::ArrayRef<int64_t> getWeightWords(unsigned index) const {
    return weights[index];
  }
  llvm::ArrayRef<int64_t> getBiasWords(unsigned index) const {
    return biases[index];
  }

private:
  explicit FixedPointModel(const HardwareGraph &graph) : graph(&graph) {}
  std::vector<int64_t>
  evaluate(unsigned index,
           llvm::ArrayRef<llvm::ArrayRef<int64_t>> operands) const;

  const HardwareGraph *graph;
  std::vector<std::vector<int64_t>> weights, biases;
};

} // namespace mav

#endif // MAV_HARDWARE_FIXEDPOINTMODEL_H
