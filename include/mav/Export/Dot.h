//===- Dot.h - The graph as Graphviz DOT ------------------------*- C++ -*-===//
//
// `mav-translate --export-dot`: one public graph as a Graphviz digraph whose
// nodes are clustered by module scope and labelled with name, operator,
// output shape and parameters; `dot -Tsvg` renders it. See
// docs/Visualization.md. libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_EXPORT_DOT_H
#define MAV_EXPORT_DOT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mav {

struct DotExportOptions {
  /// The public graph to draw.
  llvm::StringRef graphName = "forward";
  /// Scopes deeper than this are drawn as one node each (0: none are).
  unsigned collapseDepth = 0;
};

/// Writes the graph. Fails, with a diagnostic, when the module has no public
/// graph of that name.
mlir::LogicalResult exportDot(mlir::ModuleOp module, llvm::raw_ostream &os,
                              const DotExportOptions &options = {});

} // namespace mav

#endif // MAV_EXPORT_DOT_H
