//===- Report.h - Pass outputs as a JSON report -----------------*- C++ -*-===//

#ifndef MAV_PASSES_REPORT_H
#define MAV_PASSES_REPORT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <string>
#include <vector>

namespace mav {

/// A pass output's value as JSON: booleans, integers, floats, strings,
/// arrays and dictionaries as themselves, anything else as MLIR prints it.
/// Every string is copied.
llvm::json::Value attributeToJson(mlir::Attribute value);

/// Watches a pipeline and keeps the pass outputs each module recorded
/// (`mav.pass_outputs`), to write them as JSON:
/// `[{"pass": NAME, "outputs": {...}}, ...]` in run order.
class PassOutputCollector {
public:
  PassOutputCollector();
  std::unique_ptr<mlir::PassInstrumentation> makeInstrumentation();
  /// Writes atomically; on failure `error` says why.
  llvm::Error writeJson(llvm::StringRef path) const;

  struct State;

private:
  std::shared_ptr<State> state;
};

} // namespace mav

#endif // MAV_PASSES_REPORT_H
