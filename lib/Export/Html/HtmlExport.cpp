//===- HtmlExport.cpp - A self-contained interactive viewer ---------------===//
//
// The page template holds five placeholders, each once; they are replaced in
// one pass, so nothing inserted is scanned again. The graph JSON sits in a
// <script type="application/json"> element, with every "<" escaped.
//
//===----------------------------------------------------------------------===//

#include "mav/Export/Html.h"
#include "mav/Export/Json.h"
#include "mav/IR/MavOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace mlir;
using namespace mav;

namespace {

/// The viewer's files, embedded at build time by EmbedViewer.cmake.
struct ViewerFile {
  llvm::StringLiteral name;
  llvm::StringLiteral text;
};

const ViewerFile viewerFiles[] = {
#include "ViewerSources.inc"
};

llvm::StringRef viewerFile(llvm::StringRef name) {
  for (const ViewerFile &file : viewerFiles)
    if (file.name == name)
      return file.text;
  return {};
}

std::string escapeHtml(llvm::StringRef text) {
  std::string result;
  for (char c : text) {
    switch (c) {
    case '&':
      result += "&amp;";
      break;
    case '<':
      result += "&lt;";
      break;
    case '>':
      result += "&gt;";
      break;
    case '"':
      result += "&quot;";
      break;
    default:
      result += c;
    }
  }
  return result;
}

/// Every "<" as the JSON escape "\u003c": JSON has "<" only inside strings,
/// and without it no "</script" or "<!--" can end the element early.
std::string escapeScriptData(llvm::StringRef json) {
  std::string result;
  result.reserve(json.size());
  for (char c : json) {
    if (c == '<')
      result += "\\u003c";
    else
      result += c;
  }
  return result;
}

} // namespace

LogicalResult mav::exportHtml(ModuleOp module, llvm::StringRef title,
                              llvm::raw_ostream &os) {
  if (llvm::none_of(module.getOps<GraphOp>(), [](GraphOp graph) {
        return graph.getSymVisibility().value_or("public") == "public";
      }))
    return module.emitError()
           << "--export-html: the module holds no public mav.graph";
  std::string json;
  llvm::raw_string_ostream jsonStream(json);
  JsonExportOptions options;
  options.title = title;
  options.indent = 0;
  if (failed(exportJson(module, jsonStream, options)))
    return failure();

  std::string data = escapeScriptData(json);
  std::string escapedTitle = escapeHtml(title);
  std::pair<llvm::StringRef, llvm::StringRef> replacements[] = {
      {"@MAV_TITLE@", escapedTitle},
      {"@MAV_STYLE@", viewerFile("viewer.css")},
      {"@MAV_ELK@", viewerFile("elk.bundled.js")},
      {"@MAV_SCRIPT@", viewerFile("viewer.js")},
      {"@MAV_DATA@", data},
  };
  llvm::StringRef page = viewerFile("viewer.html");
  llvm::SmallVector<std::pair<size_t, size_t>> found; // position, index
  for (size_t index = 0; index < std::size(replacements); ++index) {
    size_t position = page.find(replacements[index].first);
    if (position == llvm::StringRef::npos)
      return module.emitError()
             << "--export-html: the viewer template has no "
             << replacements[index].first << " (a build problem)";
    found.push_back({position, index});
  }
  llvm::sort(found);
  size_t from = 0;
  for (auto [position, index] : found) {
    os << page.slice(from, position) << replacements[index].second;
    from = position + replacements[index].first.size();
  }
  os << page.drop_front(from);
  return success();
}
