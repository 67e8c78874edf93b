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
#include "mav/IR/NodeNamer.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
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
  /// The node of the graph called `name`; throws when there is none. By
  /// name through an index, so that a Python pass touching every node stays
  /// linear.
  mlir::Operation *lookupNode(llvm::StringRef name);
  /// The names of the graph's nodes and placeholders, for new names.
  NodeNamer &getNamer();
  /// Keep the index true after an edit through the session.
  void nodeAdded(mlir::Operation *node);
  void nodeRenamed(llvm::StringRef from, mlir::Operation *node);
  void nodeErased(llvm::StringRef name);
  /// Forgets the graph and the index: after anything that may have changed
  /// the module other than the edits above (a pipeline, a C++ pass before a
  /// Python pass).
  void forgetNodes();
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
  /// What getGraph() found, the nodes by name and the namer; built when
  /// first needed after forgetNodes().
  GraphOp graph;
  std::optional<llvm::StringMap<mlir::Operation *>> nodesByName;
  std::optional<NodeNamer> namer;
  /// Whether a pipeline is running on the module (a Python pass may try to
  /// start another).
  bool running = false;
};

} // namespace mav::python

#endif // MAV_PYTHON_SESSION_H
