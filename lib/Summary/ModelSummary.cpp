//===- ModelSummary.cpp - The module tree with sizes and costs ------------===//
//
// Scopes come from the nodes' `scope` attributes (every prefix of a path is a
// scope too); their classes from the module's `mav.module_classes`, written
// by the importer, else from the scopes themselves. Parameters belong to a
// module by their state_dict names, as in `module.parameters()`.
//
//===----------------------------------------------------------------------===//

#include "mav/Summary/ModelSummary.h"
#include "mav/IR/MavDialect.h"
#include "mav/Summary/BodyTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <functional>

using namespace mlir;
using namespace mav;

namespace {

/// A module whose body can no longer be typed (its scalar weights elided by
/// --mav-elide-weights) keeps the figures -mav-count-flops recorded on it
/// when it could.
NodeCost recordedModuleCost(NodeOpInterface node) {
  SoftwareMetaAttr software = node.getSoftwareMeta();
  if (!isa<CallModuleOp>(node.getOperation()) || !software)
    return {};
  auto flops = software.getEntries().getAs<IntegerAttr>("flops");
  auto macs = software.getEntries().getAs<IntegerAttr>("macs");
  if (!flops || !macs)
    return {};
  return {CostStatus::Counted, {flops.getInt(), macs.getInt()}};
}

int64_t tensorBytes(Type type) {
  auto tensor = type.dyn_cast<RankedTensorType>();
  if (!tensor || !tensor.hasStaticShape())
    return 0;
  // A complex element is two of its parts.
  Type element = tensor.getElementType();
  int64_t parts = 1;
  if (auto complex = element.dyn_cast<ComplexType>()) {
    element = complex.getElementType();
    parts = 2;
  }
  if (!element.isIntOrIndexOrFloat())
    return 0;
  int64_t bits = element.getIntOrFloatBitWidth();
  return tensor.getNumElements() * parts * ((bits + 7) / 8);
}

void addCost(OpCost &total, const OpCost &cost) {
  total.flops += cost.flops;
  total.macs += cost.macs;
}

StringRef parentPath(StringRef path) {
  size_t dot = path.rfind('.');
  return dot == StringRef::npos ? StringRef() : path.take_front(dot);
}

class SummaryBuilder {
public:
  SummaryBuilder(ModuleOp module, ModelSummary &summary) : summary(summary) {
    if (auto list = module->getAttrOfType<ArrayAttr>(
            MavDialect::getModuleClassesAttrName()))
      for (auto pair : list.getAsRange<ArrayAttr>())
        classes[pair[0].cast<StringAttr>().getValue()] =
            pair[1].cast<StringAttr>().getValue();
    summary.rootClass = classes.lookup("").str();
  }

  /// The row of `path`, created with its ancestors on first use; -1 for the
  /// root.
  int getRow(StringRef path) {
    if (path.empty())
      return -1;
    auto found = rows.find(path);
    if (found != rows.end())
      return found->second;
    int parent = getRow(parentPath(path));
    int index = static_cast<int>(created.size());
    ScopeSummary row;
    row.path = path.str();
    row.depth = static_cast<unsigned>(path.count('.')) + 1;
    row.parent = parent;
    row.moduleClass = classes.lookup(path).str();
    created.push_back(std::move(row));
    children.emplace_back();
    (parent < 0 ? topLevel : children[parent]).push_back(index);
    rows[path] = index;
    return index;
  }

  /// The row of `path` if a node was traced in it or below it, else -1.
  int getRowIfPresent(StringRef path) const {
    auto found = rows.find(path);
    return found == rows.end() ? -1 : found->second;
  }

  /// Fills a missing class from a node traced in the scope.
  void noteClass(int row, ScopeAttr scope) {
    if (row < 0) {
      if (summary.rootClass.empty())
        summary.rootClass = scope.getModuleClass().str();
      return;
    }
    if (created[row].moduleClass.empty())
      created[row].moduleClass = scope.getModuleClass().str();
  }

  ScopeSummary &row(int index) { return created[index]; }

  /// Moves the rows into the summary in tree order.
  void finish() {
    std::vector<int> order;
    std::vector<int> newIndex(created.size());
    std::function<void(int)> visit = [&](int index) {
      newIndex[index] = static_cast<int>(order.size());
      order.push_back(index);
      for (int child : children[index])
        visit(child);
    };
    for (int index : topLevel)
      visit(index);
    for (int index : order) {
      ScopeSummary row = std::move(created[index]);
      if (row.parent >= 0)
        row.parent = newIndex[row.parent];
      summary.scopes.push_back(std::move(row));
    }
    for (auto &entry : summary.scopeOfNode)
      if (entry.second >= 0)
        entry.second = newIndex[entry.second];
  }

private:
  ModelSummary &summary;
  llvm::StringMap<StringRef> classes;
  llvm::StringMap<int> rows;
  std::vector<ScopeSummary> created;
  std::vector<std::vector<int>> children;
  std::vector<int> topLevel;
};

} // namespace

ModelSummary mav::summarizeGraph(ModuleOp module, GraphOp graph,
                                 SymbolTableCollection &symbols) {
  ModelSummary summary;
  SummaryBuilder builder(module, summary);
  summary.graphName = graph.getSymName().str();
  for (BlockArgument input : graph.getBodyBlock().getArguments())
    summary.inputBytes += tensorBytes(input.getType());
  if (graph.getOutput()->getNumOperands() != 0)
    if (auto tensor = graph.getOutput()
                          ->getOperand(0)
                          .getType()
                          .dyn_cast<RankedTensorType>();
        tensor && tensor.hasStaticShape())
      summary.outputShape = std::vector<int64_t>(tensor.getShape().begin(),
                                                 tensor.getShape().end());

  ModuleBodyTyper bodyTyper;
  for (auto node : graph.getBodyBlock().getOps<NodeOpInterface>()) {
    Operation *op = node;
    ScopeAttr scope = node.getNodeScope();
    int row = builder.getRow(scope ? scope.getPath() : StringRef());
    if (scope)
      builder.noteClass(row, scope);
    summary.scopeOfNode[op] = row;

    std::optional<std::vector<int64_t>> shape;
    if (op->getNumResults() != 0)
      if (auto tensor = op->getResult(0).getType().dyn_cast<RankedTensorType>();
          tensor && tensor.hasStaticShape())
        shape = std::vector<int64_t>(tensor.getShape().begin(),
                                     tensor.getShape().end());
    if (!isa<GetAttrOp>(op))
      for (Value result : op->getResults())
        summary.activationBytes += tensorBytes(result.getType());

    NodeCost cost =
        computeNodeCost(node, symbols, [&](CallModuleOp module, GraphOp body) {
          return bodyTyper.type(module, body);
        });
    if (cost.status == CostStatus::Unknown)
      cost = recordedModuleCost(node);
    if (cost.status == CostStatus::Unknown)
      summary.uncounted.push_back(node.getNodeName().str());
    if (cost.status == CostStatus::Counted) {
      summary.nodeCosts[op] = cost.cost;
      addCost(summary.cost, cost.cost);
    }
    for (int index = row; index >= 0; index = builder.row(index).parent) {
      ScopeSummary &scopeRow = builder.row(index);
      if (cost.status == CostStatus::Counted)
        addCost(scopeRow.cost, cost.cost);
      if (shape && !isa<GetAttrOp>(op))
        scopeRow.outputShape = shape;
    }
  }

  // Parameters, each tensor once per module: a tied name counts where its
  // tensor was not counted yet.
  llvm::DenseSet<std::pair<int, StringRef>> counted;
  for (WeightOp weight : module.getOps<WeightOp>()) {
    if (weight.getKind() != WeightKind::parameter)
      continue;
    int64_t elements = weight.getWeightType().getNumElements();
    StringRef tensor = weight.getTiedToAttr()
                           ? weight.getTiedToAttr().getValue()
                           : weight.getSymName();
    bool frozen = weight.getFrozen();
    if (!weight.getTiedToAttr()) {
      (frozen ? summary.frozen : summary.trainable) += elements;
      summary.parameterBytes += tensorBytes(weight.getWeightType());
    }
    for (StringRef path = parentPath(weight.getSymName()); !path.empty();
         path = parentPath(path)) {
      int index = builder.getRowIfPresent(path);
      if (index < 0 || !counted.insert({index, tensor}).second)
        continue;
      ScopeSummary &scopeRow = builder.row(index);
      (frozen ? scopeRow.frozen : scopeRow.trainable) += elements;
    }
  }
  builder.finish();
  return summary;
}
