//===- Report.cpp - Pass outputs as a JSON report -------------------------===//

#include "mav/Passes/Report.h"
#include "mav/IR/MavOps.h"
#include "mav/Support/AtomicOutput.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mav;

struct PassOutputCollector::State {
  /// The latest list each module held, as JSON (the context does not outlive
  /// the pipeline), by module, in first-seen order.
  llvm::MapVector<Operation *, std::pair<ArrayAttr, llvm::json::Array>> latest;
};

namespace {
class Instrumentation : public PassInstrumentation {
public:
  explicit Instrumentation(std::shared_ptr<PassOutputCollector::State> state)
      : state(std::move(state)) {}
  void runAfterPass(Pass *, Operation *op) override;

private:
  std::shared_ptr<PassOutputCollector::State> state;
};
} // namespace

llvm::json::Value mav::attributeToJson(Attribute value) {
  if (auto boolean = value.dyn_cast<BoolAttr>())
    return boolean.getValue();
  if (auto integer = value.dyn_cast<IntegerAttr>())
    return integer.getValue().getSExtValue();
  if (auto number = value.dyn_cast<FloatAttr>())
    return number.getValueAsDouble();
  // json::Value and ObjectKey do not own a StringRef; the context dies
  // before the report is written, so every string is copied.
  if (auto string = value.dyn_cast<StringAttr>())
    return string.getValue().str();
  if (auto symbol = value.dyn_cast<FlatSymbolRefAttr>())
    return symbol.getValue().str();
  if (auto array = value.dyn_cast<ArrayAttr>()) {
    llvm::json::Array elements;
    for (Attribute element : array)
      elements.push_back(attributeToJson(element));
    return std::move(elements);
  }
  if (auto dictionary = value.dyn_cast<DictionaryAttr>()) {
    llvm::json::Object object;
    for (NamedAttribute entry : dictionary)
      object[entry.getName().getValue().str()] =
          attributeToJson(entry.getValue());
    return std::move(object);
  }
  std::string printed;
  llvm::raw_string_ostream(printed) << value;
  return printed;
}

void Instrumentation::runAfterPass(Pass *, Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return;
  auto records =
      module->getAttrOfType<ArrayAttr>(MavDialect::getPassOutputsAttrName());
  if (!records)
    return;
  auto &[seen, report] = state->latest[op];
  if (seen == records)
    return;
  seen = records;
  report.clear();
  for (Attribute record : records) {
    auto output = record.cast<PassOutputAttr>();
    report.push_back(
        llvm::json::Object{{"pass", output.getPass().str()},
                           {"outputs", attributeToJson(output.getOutputs())}});
  }
}

PassOutputCollector::PassOutputCollector() : state(std::make_shared<State>()) {}

std::unique_ptr<PassInstrumentation>
PassOutputCollector::makeInstrumentation() {
  return std::make_unique<Instrumentation>(state);
}

llvm::Error PassOutputCollector::writeJson(StringRef path) const {
  llvm::json::Array report;
  for (const auto &entry : state->latest)
    for (const llvm::json::Value &record : entry.second.second)
      report.push_back(record);
  llvm::Error written =
      mav::writeFileAtomically(path, [&](llvm::raw_ostream &os) -> llvm::Error {
        os << llvm::formatv("{0:2}", llvm::json::Value(std::move(report)))
           << "\n";
        return llvm::Error::success();
      });
  if (written)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "cannot write report '" + path.str() +
            "': " + llvm::toString(std::move(written)));
  return llvm::Error::success();
}
