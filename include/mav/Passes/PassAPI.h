//===- PassAPI.h - Everything a pass author uses ----------------*- C++ -*-===//
//
// One include for a pass of your own (docs/WritingPasses.md): mav's IR and
// the API over it, pass outputs, and MLIR's pass and builder headers. Each
// header it includes documents its part:
//   - mav/IR/MavOps.h            the ops: graphs, nodes, weights
//   - mav/Operators/OperatorInference.h what a node computes; walks by
//   mase_op/type
//   - mav/IR/ModuleNodes.h       a call_module, its body and its weights
//   - mav/IR/WeightData.h        reading, writing, creating weights
//   - mav/IR/ArgumentEditor.h    changing a node's arguments
//   - mav/IR/NodeBuilder.h       new nodes with FX-style names
//   - mav/IR/GraphCleanup.h      erasing dead nodes, bodies and weights
//   - mav/Passes/Metadata.h      the model's graphs, MASE metadata
//   - mav/Passes/PassOutputs.h   MASE's pass outputs
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PASSES_PASSAPI_H
#define MAV_PASSES_PASSAPI_H

#include "mav/IR/ArgumentEditor.h"
#include "mav/IR/GraphCleanup.h"
#include "mav/IR/MavOps.h"
#include "mav/IR/ModuleNodes.h"
#include "mav/IR/NodeBuilder.h"
#include "mav/IR/WeightData.h"
#include "mav/Operators/OperatorInference.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"

#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"

#endif // MAV_PASSES_PASSAPI_H
