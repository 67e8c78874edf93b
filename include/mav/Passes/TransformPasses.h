//===- TransformPasses.h - mav's transform passes ---------------*- C++ -*-===//
//
// The create functions and options of the passes in passes/TransformPasses.td.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PASSES_TRANSFORMPASSES_H
#define MAV_PASSES_TRANSFORMPASSES_H

#include "mav/IR/MavOps.h"

#include "mlir/Pass/Pass.h"

namespace mav {

#define GEN_PASS_DECL
#include "mav/Passes/TransformPasses.h.inc"

} // namespace mav

#endif // MAV_PASSES_TRANSFORMPASSES_H
