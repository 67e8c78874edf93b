//===- DotExport.cpp - The graph as Graphviz DOT --------------------------===//
//
// Each scope is a `cluster_<path>` subgraph nested as the module tree; a
// scope holding a single node and no other scope is not a cluster, the node
// stands for it (a leaf call_module). With a collapse depth, the nodes below
// a scope of that depth become one box for the scope, and the edges between
// boxes are merged.
//
//===----------------------------------------------------------------------===//

#include "mav/Export/Dot.h"
#include "mav/IR/MavOps.h"
#include "mav/Operators/OperatorInference.h"
#include "mav/Summary/ModelSummary.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"

#include <set>

using namespace mlir;
using namespace mav;

namespace {

/// A DOT string literal.
std::string quoted(StringRef text) {
  std::string result = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      result += '\\';
    if (c == '\n') {
      result += "\\n";
      continue;
    }
    result += c;
  }
  return result + "\"";
}

std::string shapeText(Type type) {
  auto tensor = type.dyn_cast<RankedTensorType>();
  if (!tensor)
    return "";
  std::string text;
  for (int64_t extent : tensor.getShape())
    text += (text.empty() ? "" : "x") +
            (ShapedType::isDynamic(extent) ? "?" : std::to_string(extent));
  return text.empty() ? "scalar" : text;
}

class DotWriter {
public:
  DotWriter(ModuleOp module, GraphOp graph, const DotExportOptions &options,
            llvm::raw_ostream &os)
      : module(module), graph(graph), options(options), os(os),
        summary(summarizeGraph(module, graph, symbols)) {}

  void write() {
    collectChildren();
    os << "digraph " << quoted(graph.getSymName()) << " {\n"
       << "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=10, "
          "labeljust=l];\n"
       << "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#eef3fb\", "
          "fontname=\"Helvetica\", fontsize=10];\n"
       << "  edge [color=\"#555555\", arrowsize=0.6];\n";
    for (auto [argument, name] :
         llvm::zip(graph.getBodyBlock().getArguments(), graph.getArgNames())) {
      StringRef label = name.cast<StringAttr>().getValue();
      endpoints[argument] = label.str();
      os << "  " << quoted(label) << " [shape=ellipse, fillcolor=\"#fff4d6\", "
         << "label="
         << quoted(label.str() + "\n" + shapeText(argument.getType()))
         << "];\n";
    }
    writeScope(-1, 1);
    os << "  \"output\" [shape=ellipse, fillcolor=\"#fff4d6\"];\n";
    writeEdges();
    os << "}\n";
  }

private:
  /// The drawn element a node belongs to: its own id, or the box of the
  /// collapsed scope holding it.
  std::string drawnId(Operation *op) {
    int row = summary.scopeOfNode.lookup(op);
    int box = collapsedAncestor(row);
    if (box >= 0)
      return "scope:" + summary.scopes[box].path;
    return cast<NodeOpInterface>(op).getNodeName().str();
  }

  /// The outermost scope at the collapse depth containing `row`, or -1.
  int collapsedAncestor(int row) {
    if (options.collapseDepth == 0)
      return -1;
    while (row >= 0 && summary.scopes[row].depth > options.collapseDepth)
      row = summary.scopes[row].parent;
    return row >= 0 && summary.scopes[row].depth == options.collapseDepth &&
                   !isSingleNode(row)
               ? row
               : -1;
  }

  bool isSingleNode(int row) {
    return children[row + 1].empty() && nodesOf[row + 1].size() == 1;
  }

  void collectChildren() {
    children.assign(summary.scopes.size() + 1, {});
    nodesOf.assign(summary.scopes.size() + 1, {});
    for (size_t index = 0; index < summary.scopes.size(); ++index) {
      children[summary.scopes[index].parent + 1].push_back(index);
      rowByPath[summary.scopes[index].path] = index;
    }
    for (Operation &op : graph.getBodyBlock().without_terminator())
      nodesOf[summary.scopeOfNode.lookup(&op) + 1].push_back(&op);
  }

  int64_t parameters(Operation *op) {
    if (auto call = dyn_cast<CallModuleOp>(op)) {
      auto row = rowByPath.find(call.getTarget());
      if (row == rowByPath.end())
        return 0;
      const ScopeSummary &scope = summary.scopes[row->second];
      return scope.trainable + scope.frozen;
    }
    if (auto read = dyn_cast<GetAttrOp>(op))
      if (auto weight = symbols.lookupNearestSymbolFrom<WeightOp>(
              read, read.getTargetAttr());
          weight && weight.getKind() == WeightKind::parameter)
        return weight.getWeightType().getNumElements();
    return 0;
  }

  std::string nodeLabel(NodeOpInterface node) {
    Operation *op = node;
    std::string label = node.getNodeName().str() + "\n";
    CommonMetaAttr common = node.getCommonMeta();
    if (common && !common.getMaseOp().empty())
      label += common.getMaseOp().str();
    else if (auto call = dyn_cast<CallModuleOp>(op))
      label += shortClassName(call.getModuleClass());
    else
      label += getNodeTarget(op).str();
    if (op->getNumResults() != 0) {
      std::string shape = shapeText(op->getResult(0).getType());
      if (!shape.empty())
        label += "\n" + shape;
    }
    if (int64_t params = parameters(op))
      label += "\n" + formatCount(params) + " params";
    return label;
  }

  std::string scopeLabel(const ScopeSummary &scope) {
    std::string label = scope.path + " : " + shortClassName(scope.moduleClass);
    return label;
  }

  void writeCollapsed(int row, unsigned indent) {
    const ScopeSummary &scope = summary.scopes[row];
    std::string label = scopeLabel(scope);
    if (scope.outputShape) {
      std::string shape;
      for (int64_t extent : *scope.outputShape)
        shape += (shape.empty() ? "" : "x") + std::to_string(extent);
      label += "\n" + shape;
    }
    if (int64_t params = scope.trainable + scope.frozen)
      label += "\n" + formatCount(params) + " params";
    if (scope.cost.macs)
      label += "\n" + formatCount(scope.cost.macs) + " MACs";
    os.indent(indent * 2) << quoted("scope:" + scope.path)
                          << " [shape=box3d, fillcolor=\"#dfe8d8\", label="
                          << quoted(label) << "];\n";
  }

  /// Writes the nodes and sub-scopes of scope `row` (-1: the graph).
  void writeScope(int row, unsigned indent) {
    for (Operation *op : nodesOf[row + 1]) {
      auto node = cast<NodeOpInterface>(op);
      os.indent(indent * 2) << quoted(node.getNodeName())
                            << " [label=" << quoted(nodeLabel(node)) << "];\n";
    }
    for (int child : children[row + 1]) {
      if (collapsedAncestor(child) == child) {
        writeCollapsed(child, indent);
        continue;
      }
      if (isSingleNode(child)) {
        writeScope(child, indent);
        continue;
      }
      os.indent(indent * 2)
          << "subgraph " << quoted("cluster_" + summary.scopes[child].path)
          << " {\n";
      os.indent(indent * 2 + 2)
          << "label=" << quoted(scopeLabel(summary.scopes[child]))
          << "; style=\"rounded,dashed\"; color=\"#8899aa\";\n";
      writeScope(child, indent + 1);
      os.indent(indent * 2) << "}\n";
    }
  }

  void writeEdges() {
    std::vector<std::pair<std::string, std::string>> edges;
    std::set<std::pair<std::string, std::string>> seen;
    for (Operation &op : graph.getBodyBlock()) {
      std::string to = isa<OutputOp>(op) ? "output" : drawnId(&op);
      for (Value operand : op.getOperands()) {
        std::string from = operand.isa<BlockArgument>()
                               ? endpoints[operand]
                               : drawnId(operand.getDefiningOp());
        if (from != to && seen.insert({from, to}).second)
          edges.push_back({from, to});
      }
    }
    for (const auto &[from, to] : edges)
      os << "  " << quoted(from) << " -> " << quoted(to) << ";\n";
  }

  ModuleOp module;
  GraphOp graph;
  const DotExportOptions &options;
  llvm::raw_ostream &os;
  SymbolTableCollection symbols;
  ModelSummary summary;
  /// Child scopes and nodes of each scope, at index row + 1 (0: the graph).
  std::vector<std::vector<int>> children;
  std::vector<std::vector<Operation *>> nodesOf;
  llvm::DenseMap<Value, std::string> endpoints;
  llvm::StringMap<int> rowByPath;
};

} // namespace

LogicalResult mav::exportDot(ModuleOp module, llvm::raw_ostream &os,
                             const DotExportOptions &options) {
  GraphOp graph;
  for (GraphOp candidate : module.getOps<GraphOp>())
    if (candidate.getSymName() == options.graphName &&
        candidate.getSymVisibility().value_or("public") == "public")
      graph = candidate;
  if (!graph)
    return module.emitError() << "--export-dot: no public mav.graph named '"
                              << options.graphName << "'";
  DotWriter(module, graph, options, os).write();
  return success();
}
