//===- ModelSummary.h - The module tree with sizes and costs ----*- C++ -*-===//
//
// What torchinfo's summary shows, computed from a raised mav module: every
// module scope the graph's nodes were traced in, with its class, output
// shape, parameters (trainable and frozen) and cost, and the model's totals
// and memory estimates. `mav-translate --summary` prints it; `--export-html`
// and `--export-dot` show it. Libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_SUMMARY_MODELSUMMARY_H
#define MAV_SUMMARY_MODELSUMMARY_H

#include "mav/IR/MavOps.h"
#include "mav/Operators/NodeCost.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mav {

/// One module scope: a row of the table.
struct ScopeSummary {
  /// The module path, e.g. "layer1.0"; depth 1 for "layer1".
  std::string path;
  unsigned depth = 0;
  /// The demangled class, "" when the module does not say it.
  std::string moduleClass;
  /// The first result of the scope's last node, when static.
  std::optional<std::vector<int64_t>> outputShape;
  /// Parameter elements of the module, its submodules' included, each tensor
  /// once: what `sum(p.numel() for p in module.parameters())` counts,
  /// split by requires_grad.
  int64_t trainable = 0;
  int64_t frozen = 0;
  /// The cost of its nodes, its submodules' included.
  OpCost cost;
  /// Index of the parent row, -1 for a top-level scope.
  int parent = -1;
};

struct ModelSummary {
  /// The graph's name and the root module's class ("" when unknown).
  std::string graphName;
  std::string rootClass;
  /// The graph's first output, when static.
  std::optional<std::vector<int64_t>> outputShape;
  /// In tree order: a scope, then its children by first use.
  std::vector<ScopeSummary> scopes;
  /// The row a node's own scope is, by node.
  llvm::DenseMap<mlir::Operation *, int> scopeOfNode;
  /// Per node, when it computes and mav counted it.
  llvm::DenseMap<mlir::Operation *, OpCost> nodeCosts;
  /// Nodes that compute but whose cost mav cannot count, in graph order.
  std::vector<std::string> uncounted;

  int64_t trainable = 0;
  int64_t frozen = 0;
  OpCost cost;
  /// Bytes: the graph's inputs, every node's results (the activations of
  /// one forward pass), the parameters.
  int64_t inputBytes = 0;
  int64_t activationBytes = 0;
  int64_t parameterBytes = 0;
};

/// Summarises `graph`, a public graph of `module`.
ModelSummary summarizeGraph(mlir::ModuleOp module, GraphOp graph,
                            mlir::SymbolTableCollection &symbols);

/// 11689512 -> "11,689,512".
std::string formatCount(int64_t value);

/// "torchvision.models.resnet.BasicBlock" -> "BasicBlock"; "" stays "".
std::string shortClassName(llvm::StringRef qualified);

/// Prints the table, with scopes down to `maxDepth` (0: all).
void printSummaryTable(const ModelSummary &summary, unsigned maxDepth,
                       llvm::raw_ostream &os);

} // namespace mav

#endif // MAV_SUMMARY_MODELSUMMARY_H
