//===- GraphCleanup.h - Erase what no node refers to any more -------------===//
//
// Part of the mav project.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_GRAPHCLEANUP_H
#define MAV_IR_GRAPHCLEANUP_H

#include "mlir/IR/BuiltinOps.h"

namespace mav {

/// Erases every private graph that no call_module names as its body. One walk
/// over the calls: a per-body symbol-use query walks the whole module.
void eraseUnusedBodies(mlir::ModuleOp module);

} // namespace mav

#endif // MAV_IR_GRAPHCLEANUP_H
