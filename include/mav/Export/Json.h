//===- Json.h - The annotated graph as JSON ---------------------*- C++ -*-===//
//
// `mav-translate --export-json`: nodes with their common, hardware and
// software metadata, scopes and costs, edges, weights (no data), graph inputs
// and outputs, the module tree and the model summary, in MASE's field names.
// The schema is in docs/ExportJson.md. libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_EXPORT_JSON_H
#define MAV_EXPORT_JSON_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace mav {

/// The version of the schema, written as "version".
constexpr int64_t kJsonExportVersion = 2;

struct JsonExportOptions {
  /// A report of mav-translate --report-resources, embedded as "resources".
  const llvm::json::Object *resources = nullptr;
  /// Written as "title" when not empty (the viewer's heading).
  llvm::StringRef title;
  /// Indentation; 0 writes one line (what --export-html embeds).
  unsigned indent = 2;
  /// Write only "graphs" (what the Python package reads nodes from), not
  /// the weights, the module tree and the summary.
  bool graphsOnly = false;
};

/// Writes the module's public graphs as JSON. Fails, with a diagnostic on the
/// module and nothing written, when the module holds no public graph.
mlir::LogicalResult exportJson(mlir::ModuleOp module, llvm::raw_ostream &os,
                               const JsonExportOptions &options = {});

} // namespace mav

#endif // MAV_EXPORT_JSON_H
