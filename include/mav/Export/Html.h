//===- Html.h - A self-contained interactive viewer -------------*- C++ -*-===//
//
// `mav-translate --export-html`: one HTML file holding the viewer (viewer/
// in the source tree), the elkjs layout library it uses, and the graph as
// --export-json writes it. It opens from a file with no network access. See
// docs/Visualization.md. libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_EXPORT_HTML_H
#define MAV_EXPORT_HTML_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mav {

/// Writes the page, titled `title` (the input file's name). Fails, with a
/// diagnostic, when the module holds no public graph.
mlir::LogicalResult exportHtml(mlir::ModuleOp module, llvm::StringRef title,
                               llvm::raw_ostream &os);

} // namespace mav

#endif // MAV_EXPORT_HTML_H
