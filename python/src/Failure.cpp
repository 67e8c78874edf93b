//===- Failure.cpp - mav's diagnostics as a Python exception --------------===//

#include "Failure.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mav::python;

MavFailure::MavFailure(std::string message, std::string file, std::string node)
    : message(std::move(message)), file(std::move(file)),
      node(std::move(node)) {
  if (this->node.empty())
    this->node = nodeNamedIn(this->message);
}

std::string mav::python::nodeNamedIn(llvm::StringRef message) {
  static const llvm::Regex quoted("node '([^']+)'");
  static const llvm::Regex percent("node %([A-Za-z0-9_.]+)");
  llvm::SmallVector<llvm::StringRef, 2> groups;
  if (quoted.match(message, &groups) || percent.match(message, &groups))
    return groups[1].str();
  return "";
}

static void printDiagnostic(Diagnostic &diagnostic, llvm::raw_ostream &os) {
  Location location = diagnostic.getLocation();
  if (auto fileLineCol = dyn_cast<FileLineColLoc>(location)) {
    os << fileLineCol.getFilename().getValue();
    if (fileLineCol.getLine())
      os << ":" << fileLineCol.getLine() << ":" << fileLineCol.getColumn();
    os << ": ";
  } else if (!isa<UnknownLoc>(location)) {
    os << location << ": ";
  }
  switch (diagnostic.getSeverity()) {
  case DiagnosticSeverity::Error:
    os << "error: ";
    break;
  case DiagnosticSeverity::Warning:
    os << "warning: ";
    break;
  case DiagnosticSeverity::Note:
    os << "note: ";
    break;
  case DiagnosticSeverity::Remark:
    os << "remark: ";
    break;
  }
  os << diagnostic << "\n";
}

DiagnosticCapture::DiagnosticCapture(MLIRContext *context, std::string file)
    : file(std::move(file)), handler(context, [this](Diagnostic &diagnostic) {
        // Remarks are progress, not failure; they are not kept.
        if (diagnostic.getSeverity() == DiagnosticSeverity::Remark)
          return success();
        llvm::raw_string_ostream os(collected);
        printDiagnostic(diagnostic, os);
        for (Diagnostic &note : diagnostic.getNotes())
          printDiagnostic(note, os);
        if (firstNode.empty() &&
            diagnostic.getSeverity() == DiagnosticSeverity::Error)
          firstNode = nodeNamedIn(diagnostic.str());
        return success();
      }) {}

void DiagnosticCapture::fail(llvm::StringRef fallback,
                             llvm::StringRef node) const {
  std::string message = collected.empty() ? fallback.str() : collected;
  while (!message.empty() && message.back() == '\n')
    message.pop_back();
  if (!node.empty() && nodeNamedIn(message) != node)
    message = "node '" + node.str() + "': " + message;
  throw MavFailure(message, file, node.empty() ? firstNode : node.str());
}
