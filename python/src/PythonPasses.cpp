//===- PythonPasses.cpp - Python functions as mav passes ------------------===//

#include "PythonPasses.h"
#include "Failure.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringSet.h"

#include <pybind11/pybind11.h>

namespace py = pybind11;
using namespace mlir;

namespace {

class PythonPass : public OperationPass<ModuleOp> {
public:
  PythonPass(TypeID id, std::string argument, std::string description)
      : OperationPass(id), argument(std::move(argument)),
        description(std::move(description)) {}

  StringRef getName() const override { return argument; }
  StringRef getArgument() const override { return argument; }
  StringRef getDescription() const override { return description; }

  std::unique_ptr<Pass> clonePass() const override {
    return std::make_unique<PythonPass>(getTypeID(), argument, description);
  }

  void runOnOperation() override {
    // The pipeline runs with the GIL released (libtorch's autograd insists).
    py::gil_scoped_acquire gil;
    try {
      py::module_::import("mav.passes").attr("_dispatch")(argument);
    } catch (py::error_already_set &error) {
      getOperation().emitError()
          << "python pass '" << argument << "' raised " << error.what();
      signalPassFailure();
    }
  }

private:
  std::string argument;
  std::string description;
};

} // namespace

void mav::python::registerPythonPass(const std::string &name,
                                     const std::string &description) {
  static llvm::StringSet<> registered;
  static TypeIDAllocator typeIds;
  if (registered.contains(name))
    return;
  if (PassInfo::lookup(name) || PassPipelineInfo::lookup(name))
    throw MavFailure("cannot register Python pass '" + name +
                         "': mav already has a pass or pipeline of that name",
                     "");
  TypeID id = typeIds.allocate();
  mlir::registerPass([id, name, description]() -> std::unique_ptr<Pass> {
    return std::make_unique<PythonPass>(id, name, description);
  });
  registered.insert(name);
}
