//===- BodyTypes.h - A module body's shapes in one call ---------*- C++ -*-===//
//
// -mav-raise types the graph's nodes but not the bodies of leaf modules,
// which several calls of different shapes may share. To count a module from
// its body (NodeCost.h), its body is propagated again for the call's operand
// types, on the meta device as -mav-raise does. Libtorch-free: the runtime's
// shape propagation loads libtorch only where mav's rules fall short.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_SUMMARY_BODYTYPES_H
#define MAV_SUMMARY_BODYTYPES_H

#include "mav/IR/MavOps.h"
#include "mav/Operators/NodeCost.h"

#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace mav {

/// Types module bodies, once per body and operand types.
class ModuleBodyTyper {
public:
  /// The types of `body`'s values in the call `module`; null when an operand
  /// has no static tensor type or the body does not propagate (silently:
  /// the module is then uncounted).
  const BodyTypes *type(CallModuleOp module, GraphOp body);

private:
  std::map<std::pair<mlir::Operation *, std::vector<const void *>>,
           std::unique_ptr<BodyTypes>>
      typed;
};

} // namespace mav

#endif // MAV_SUMMARY_BODYTYPES_H
