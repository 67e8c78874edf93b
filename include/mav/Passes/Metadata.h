//===- Metadata.h - Helpers for passes that write MASE metadata -*- C++ -*-===//

#ifndef MAV_PASSES_METADATA_H
#define MAV_PASSES_METADATA_H

#include "mav/IR/MavOps.h"

namespace mav {

/// The graphs passes annotate: public ones, not leaf module bodies.
llvm::SmallVector<GraphOp> getPublicGraphs(mlir::ModuleOp module);

/// `#mav.value<name = "x">` for each placeholder, by its FX name.
llvm::SmallVector<mlir::Attribute> placeholderMetadata(GraphOp graph);

/// `#mav.value<name = "data_out_N">` for each value the graph returns.
llvm::SmallVector<mlir::Attribute> outputMetadata(GraphOp graph);

/// Sets the graph-level `inputs` and `outputs` metadata.
void setGraphMetadata(GraphOp graph, llvm::ArrayRef<mlir::Attribute> inputs,
                      llvm::ArrayRef<mlir::Attribute> outputs);

/// Sets `entries` in the node's software metadata, keeping its other entries.
void setSoftwareMetadata(mlir::Operation *node,
                         llvm::ArrayRef<mlir::NamedAttribute> entries);

} // namespace mav

#endif // MAV_PASSES_METADATA_H
