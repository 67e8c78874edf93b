//===- Failure.h - mav's diagnostics as a Python exception ------*- C++ -*-===//
//
// Every failure of the package reaches Python as `mav.Error`, carrying the
// diagnostic text, the file and, where the diagnostic names one, the node.
// The C++ side throws MavFailure; the module translates it.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PYTHON_FAILURE_H
#define MAV_PYTHON_FAILURE_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <exception>
#include <string>

namespace mav::python {

struct MavFailure : std::exception {
  MavFailure(std::string message, std::string file, std::string node = "");
  const char *what() const noexcept override { return message.c_str(); }
  std::string message;
  std::string file;
  std::string node;
};

/// The node a diagnostic names (`node 'conv1'`, `node %conv1`), or "".
std::string nodeNamedIn(llvm::StringRef message);

/// Collects the diagnostics of `context` while it lives, one line each
/// (`LOCATION: error: MESSAGE`, then its notes), instead of printing them.
class DiagnosticCapture {
public:
  DiagnosticCapture(mlir::MLIRContext *context, std::string file);
  /// Throws a MavFailure with what was collected; `fallback` when nothing
  /// was. With `node`, the failure is that node's.
  [[noreturn]] void fail(llvm::StringRef fallback = "failed",
                         llvm::StringRef node = "") const;
  const std::string &text() const { return collected; }

private:
  std::string file;
  std::string collected;
  std::string firstNode;
  mlir::ScopedDiagnosticHandler handler;
};

} // namespace mav::python

#endif // MAV_PYTHON_FAILURE_H
