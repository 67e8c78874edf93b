//===- SummaryTable.cpp - The summary as a torchinfo-style table ----------===//

#include "mav/Summary/ModelSummary.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <array>

using namespace mav;

namespace {

std::string countOrDash(int64_t value) {
  return value == 0 ? "--" : formatCount(value);
}

std::string shapeText(const std::optional<std::vector<int64_t>> &shape) {
  if (!shape)
    return "--";
  std::string text = "[";
  for (size_t i = 0; i < shape->size(); ++i)
    text += (i ? ", " : "") + std::to_string((*shape)[i]);
  return text + "]";
}

std::string megabytes(int64_t bytes) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.2f", bytes / 1e6);
  return text;
}

std::string giga(int64_t value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.2f", value / 1e9);
  return text;
}

/// The tree glyphs before a row's label: one column per ancestor, then the
/// row's own branch.
std::vector<std::string> treeLabels(const ModelSummary &summary,
                                    const std::vector<int> &shown) {
  // Whether a shown row is the last shown child of its parent.
  std::vector<bool> isLast(summary.scopes.size(), false);
  std::vector<int> lastChild(summary.scopes.size() + 1, -1);
  for (int index : shown)
    lastChild[summary.scopes[index].parent + 1] = index;
  for (int index : shown)
    isLast[index] = lastChild[summary.scopes[index].parent + 1] == index;

  std::vector<std::string> labels;
  for (int index : shown) {
    const ScopeSummary &row = summary.scopes[index];
    std::string prefix;
    for (int ancestor = row.parent; ancestor >= 0;
         ancestor = summary.scopes[ancestor].parent)
      prefix.insert(0, isLast[ancestor] ? "     " : "│    ");
    prefix += isLast[index] ? "└─" : "├─";
    labels.push_back(prefix +
                     (row.moduleClass.empty()
                          ? std::string("?")
                          : shortClassName(row.moduleClass)) +
                     ": " + row.path);
  }
  return labels;
}

/// Display width: box-drawing characters take three bytes and one column.
size_t columns(const std::string &text) {
  size_t width = 0;
  for (unsigned char c : text)
    width += (c & 0xC0) != 0x80;
  return width;
}

} // namespace

std::string mav::formatCount(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  std::string text;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0)
      text += ',';
    text += digits[i];
  }
  return value < 0 ? "-" + text : text;
}

std::string mav::shortClassName(llvm::StringRef qualified) {
  return qualified.rsplit('.').second.empty()
             ? qualified.str()
             : qualified.rsplit('.').second.str();
}

void mav::printSummaryTable(const ModelSummary &summary, unsigned maxDepth,
                            llvm::raw_ostream &os) {
  std::vector<int> shown;
  for (size_t index = 0; index < summary.scopes.size(); ++index)
    if (maxDepth == 0 || summary.scopes[index].depth <= maxDepth)
      shown.push_back(static_cast<int>(index));

  std::vector<std::array<std::string, 5>> cells;
  cells.push_back(
      {"Layer (type: path)", "Output Shape", "Param #", "Frozen", "MACs"});
  std::string rootLabel = summary.rootClass.empty()
                              ? summary.graphName
                              : shortClassName(summary.rootClass);
  cells.push_back({rootLabel, shapeText(summary.outputShape), "--", "--",
                   countOrDash(summary.cost.macs)});
  std::vector<std::string> labels = treeLabels(summary, shown);
  for (size_t i = 0; i < shown.size(); ++i) {
    const ScopeSummary &row = summary.scopes[shown[i]];
    cells.push_back({labels[i], shapeText(row.outputShape),
                     countOrDash(row.trainable), countOrDash(row.frozen),
                     countOrDash(row.cost.macs)});
  }

  std::array<size_t, 5> widths{};
  for (const auto &line : cells)
    for (size_t column = 0; column < 5; ++column)
      widths[column] = std::max(widths[column], columns(line[column]));
  size_t total = 0;
  for (size_t width : widths)
    total += width + 2;
  std::string rule(total, '=');
  std::string thin(total, '-');

  auto printLine = [&](const std::array<std::string, 5> &line) {
    std::string text;
    for (size_t column = 0; column < 5; ++column) {
      std::string padding(widths[column] - columns(line[column]), ' ');
      text += column < 2 ? line[column] + padding : padding + line[column];
      text += "  ";
    }
    os << llvm::StringRef(text).rtrim() << "\n";
  };
  os << rule << "\n";
  printLine(cells[0]);
  os << rule << "\n";
  for (size_t i = 1; i < cells.size(); ++i)
    printLine(cells[i]);
  os << rule << "\n";
  os << "Total params: " << formatCount(summary.trainable + summary.frozen)
     << "\n";
  os << "Trainable params: " << formatCount(summary.trainable) << "\n";
  os << "Non-trainable params: " << formatCount(summary.frozen) << "\n";
  os << "Total MACs (G): " << giga(summary.cost.macs) << "  ("
     << formatCount(summary.cost.macs) << ")\n";
  os << "Total FLOPs (G): " << giga(summary.cost.flops) << "  ("
     << formatCount(summary.cost.flops) << ")\n";
  if (!summary.uncounted.empty())
    os << "Nodes not counted: " << summary.uncounted.size()
       << " (first: " << summary.uncounted.front() << ")\n";
  os << thin << "\n";
  os << "Input size (MB): " << megabytes(summary.inputBytes) << "\n";
  os << "Forward activations (MB): " << megabytes(summary.activationBytes)
     << "\n";
  os << "Params size (MB): " << megabytes(summary.parameterBytes) << "\n";
  os << "Estimated total size (MB): "
     << megabytes(summary.inputBytes + summary.activationBytes +
                  summary.parameterBytes)
     << "\n";
  os << rule << "\n";
}
