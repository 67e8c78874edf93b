//===- AnalysisPasses.h - mav's analysis passes -----------------*- C++ -*-===//
//
// The create functions and options of the passes in passes/AnalysisPasses.td.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PASSES_ANALYSISPASSES_H
#define MAV_PASSES_ANALYSISPASSES_H

#include "mav/IR/MavOps.h"

#include "mlir/Pass/Pass.h"

namespace mav {

#define GEN_PASS_DECL
#include "mav/Passes/AnalysisPasses.h.inc"

} // namespace mav

#endif // MAV_PASSES_ANALYSISPASSES_H
