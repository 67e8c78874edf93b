//===- Interpreter.h - Run mav graphs on libtorch ---------------*- C++ -*-===//
//
// Runs a mav graph node by node: aten and prim operators through TorchScript's
// operator registry (boxed calls, generic over the schema), `call_module`
// nodes through the body graph the importer kept, weights from their blobs.
// On the meta device nothing is computed: tensors carry shapes, dtypes and
// strides only. Includes libtorch: for the runtime, mav-run and tests only.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_RUNTIME_INTERPRETER_H
#define MAV_RUNTIME_INTERPRETER_H

#include "mav/IR/MavOps.h"

#include "llvm/ADT/DenseMap.h"

#include <ATen/core/ivalue.h>
#include <functional>
#include <memory>

namespace mav {

class Interpreter {
public:
  /// Called after each node of the graph given to run() (not of bodies),
  /// with the node's top-level arguments (positional, then keywords in
  /// order), their schema names where known (else empty), and its results.
  using Observer = std::function<void(mlir::Operation *node,
                                      llvm::ArrayRef<c10::IValue> args,
                                      llvm::ArrayRef<std::string> argNames,
                                      llvm::ArrayRef<c10::IValue> results)>;

  Interpreter(mlir::ModuleOp module, c10::Device device);
  ~Interpreter();

  /// Runs `graph` on `inputs` and returns what its output holds (one value;
  /// a tuple when the graph returns several). Failures are diagnostics at
  /// the failing node naming the last node that succeeded.
  mlir::FailureOr<c10::IValue> run(GraphOp graph,
                                   llvm::ArrayRef<c10::IValue> inputs,
                                   const Observer &observer = {});

  c10::Device getDevice() const;

  /// On meta, a node without a meta kernel or shape function runs on cpu
  /// tensors of its arguments' shapes, filled with ones (integers zero), and
  /// again with a variant fill. When the two give different result shapes,
  /// the node's shapes depend on values (nonzero, a boolean mask index): it
  /// is remembered, and with the variant fill selected the interpreter
  /// returns the variant shapes. Comparing two runs tells which dimensions
  /// downstream are dynamic.
  void setVariantFill(bool variant);
  bool hasDataDependentShapes() const;

  /// Float parameters (not buffers) are loaded as autograd leaves that
  /// require gradients, so that backward from the outputs reaches them. Set
  /// before the first run.
  void trackGradients();
  /// The tensor of a weight loaded by a run (a tied weight's is its
  /// target's); undefined when no run read it.
  at::Tensor getWeightTensor(WeightOp weight) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Seeded random inputs of `graph`'s argument types: as Python's
/// torch.manual_seed(seed) followed, per argument in order, by
/// torch.randn(shape) (torch.rand with `uniform`) times `scale` for floats,
/// torch.randint(0, intHigh, shape) for integers, torch.randint(0, 2) for
/// bools. Fails at the graph when an argument has no static shape or dtype.
mlir::FailureOr<std::vector<c10::IValue>>
makeRandomInputs(GraphOp graph, uint64_t seed, int64_t intHigh,
                 c10::Device device, bool uniform = false, double scale = 1.0);

/// The inputs of one run of `graph` from a Python torch.save file at `path`:
/// a tensor, or a tuple or list of tensors, one per graph input, or a dict
/// whose "inputs" is one of these (test/models/generate.py's NAME.io.pt).
/// Each tensor must have its input's static shape; it is converted to the
/// input's dtype. Fails at the graph, naming `path`.
mlir::FailureOr<std::vector<c10::IValue>> readInputsFile(GraphOp graph,
                                                         llvm::StringRef path);

} // namespace mav

#endif // MAV_RUNTIME_INTERPRETER_H
