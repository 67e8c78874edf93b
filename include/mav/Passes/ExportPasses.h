//===- ExportPasses.h - mav's export passes ---------------------*- C++ -*-===//
//
// The create functions and options of the passes in passes/ExportPasses.td.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PASSES_EXPORTPASSES_H
#define MAV_PASSES_EXPORTPASSES_H

#include "mav/IR/MavOps.h"

#include "mlir/Pass/Pass.h"

namespace mav {

#define GEN_PASS_DECL
#include "mav/Passes/ExportPasses.h.inc"

} // namespace mav

#endif // MAV_PASSES_EXPORTPASSES_H
