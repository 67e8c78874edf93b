//===- Session.h - One mav module held for Python ---------------*- C++ -*-===//
//
// What a Python `mav.Graph` holds: an MLIR context with the mav dialect, the
// module, and whatever its weight blobs point into. Every operation either
// completes or throws a MavFailure (Failure.h) and leaves the module as it
// was. libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PYTHON_SESSION_H
#define MAV_PYTHON_SESSION_H

#include "mav/IR/MavOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>
#include <vector>

namespace mav {
struct CheckpointWeights;
} // namespace mav

namespace mav::python {

class Session {
public:
  /// Imports the TorchScript archive at `path` (mapped, not copied);
  /// `name` names it in errors.
  static std::unique_ptr<Session>
  importTorchScript(const std::string &path, const std::string &name,
                    const std::vector<std::string> &inputShapes,
                    const std::vector<std::string> &leafModules);
  /// Reads IR (text or bytecode, with its weights file) or a checkpoint.
  static std::unique_ptr<Session> load(const std::string &path);
  ~Session();

  mlir::MLIRContext *getContext() { return context.get(); }
  mlir::ModuleOp getModule() { return *module; }
  const std::string &getSource() const { return source; }
  /// `forward`, else the first public graph.
  GraphOp getGraph();
  /// The node of the graph called `name`; throws when there is none.
  mlir::Operation *lookupNode(llvm::StringRef name);
  /// Throws, naming the node, when the module does not verify.
  void verify();

  /// Runs a mav-opt pipeline (`mav-raise,mav-count-dropout`, or anchored:
  /// `builtin.module(...)`). On failure the module is as it was before.
  void runPipeline(const std::string &pipeline);
  /// The module's pass outputs: `[{"pass": NAME, "outputs": {...}}, ...]`.
  std::string passOutputsJson();
  void saveCheckpoint(const std::string &path);
  std::string print(bool weights);
  /// `--export-json`'s text on one line; with `graphsOnly`, the graphs
  /// alone.
  std::string exportJson(bool graphsOnly);
  std::string summaryTable(unsigned depth);
  std::string exportHtml(const std::string &title);
  void exportVerilog(const std::string &directory);

private:
  Session(std::string source);

  std::unique_ptr<mlir::MLIRContext> context;
  /// The parsed buffer, which bytecode blobs may point into.
  std::unique_ptr<llvm::SourceMgr> sourceMgr;
  std::shared_ptr<const CheckpointWeights> weights;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string source;
  /// Whether a pipeline is running on the module (a Python pass may try to
  /// start another).
  bool running = false;
};

} // namespace mav::python

#endif // MAV_PYTHON_SESSION_H
