//===- GraphCleanup.h - Erase what no node refers to any more ---*- C++ -*-===//
//
// What a transform leaves behind: nodes whose results nobody reads (FX's
// eliminate_dead_code), module bodies no call names, weights nothing reads.
// Each is one walk, linear in the module.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_GRAPHCLEANUP_H
#define MAV_IR_GRAPHCLEANUP_H

#include "mav/IR/MavOps.h"

#include "mlir/IR/BuiltinOps.h"

namespace mav {

/// Whether erasing `node` when nothing reads its results changes nothing: it
/// is not an in-place operator (`aten::add_`, `relu_`), which writes its
/// input, and not one kept for its effect (assertions, prints, warnings).
bool isRemovableWhenUnused(mlir::Operation *node);

/// Erases the nodes of `graph` whose results nothing reads and that are
/// removable (isRemovableWhenUnused), until none is left: what a node that
/// only they read becomes dead goes too. Returns how many were erased.
unsigned eraseDeadNodes(GraphOp graph);

/// Sets `graph`'s function type to its arguments' and its output's operand
/// types, after a transform changed what the output returns.
void updateGraphSignature(GraphOp graph);

/// Erases every private graph that no call_module names as its body. One walk
/// over the calls: a per-body symbol-use query walks the whole module.
void eraseUnusedBodies(mlir::ModuleOp module);

/// Erases the weights that no node reads and no weight is tied to. Weights
/// are a model's state_dict, which PyTorch keeps even when unused, so no
/// pass does this unasked. Returns how many were erased.
unsigned eraseUnusedWeights(mlir::ModuleOp module);

} // namespace mav

#endif // MAV_IR_GRAPHCLEANUP_H
