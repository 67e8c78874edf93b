//===- CoreModule.cpp - The mav._core extension module --------------------===//
//
// The C++ half of the `mav` package: sessions (Session.h), their edits
// (NodeEdits.h), runs (GraphRuns.h) and Python passes (PythonPasses.h). The
// Python half (python/mav) builds the user's API on it. libtorch is the
// process's: Python's torch loads it, and this module links the same file.
//
//===----------------------------------------------------------------------===//

#include "Failure.h"
#include "GraphRuns.h"
#include "NodeEdits.h"
#include "PythonPasses.h"
#include "Session.h"

#include "mav/Checkpoint/Checkpoint.h"
#include "mav/Import/TorchScript.h"
#include "mav/Operators/OpRegistry.h"
#include "mav/Passes/Passes.h"
#include "mav/Runtime/TorchRuntime.h"

#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mav::python;

namespace {

void registerEverything() {
  mav::registerRuntimeTorchServices();
  mav::registerCheckpointTorchServices();
  mav::registerImportTorchServices();
  mav::registerMavPassesAndPipelines();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSymbolDCEPass();
  mlir::registerStripDebugInfoPass();
}

std::string registryJson() {
  std::string text;
  llvm::raw_string_ostream os(text);
  mav::printOpRegistryJson(os);
  return text;
}

/// Each node's location, by name: (file, line, column).
py::dict nodeLocations(Session &session) {
  py::dict locations;
  for (mlir::Operation &op : session.getGraph().getBodyBlock()) {
    auto node = llvm::dyn_cast<mav::NodeOpInterface>(op);
    if (!node)
      continue;
    if (auto location = llvm::dyn_cast<mlir::FileLineColLoc>(op.getLoc()))
      locations[py::str(node.getNodeName().str())] =
          py::make_tuple(location.getFilename().str(), location.getLine(),
                         location.getColumn());
  }
  return locations;
}

} // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "mav's C++ core; use the `mav` package";
  registerEverything();

  py::register_exception_translator([](std::exception_ptr pointer) {
    try {
      if (pointer)
        std::rethrow_exception(pointer);
    } catch (const MavFailure &failure) {
      py::object error =
          py::module_::import("mav.errors")
              .attr("Error")(failure.message, failure.file, failure.node);
      PyErr_SetObject(error.get_type().ptr(), error.ptr());
    }
  });

  py::class_<ValueRef>(m, "ValueRef")
      .def(py::init<std::string, unsigned>(), py::arg("node"),
           py::arg("result") = 0)
      .def_readonly("node", &ValueRef::node)
      .def_readonly("result", &ValueRef::result);

  py::class_<Session>(m, "Session")
      .def_static("import_torchscript", &Session::importTorchScript,
                  py::arg("path"), py::arg("name"), py::arg("input_shapes"),
                  py::arg("leaf_modules"))
      .def_static("load", &Session::load, py::arg("path"))
      .def_property_readonly("source", &Session::getSource)
      .def("verify", &Session::verify)
      .def("forget_nodes", &Session::forgetNodes)
      // Passes may run autograd, which refuses to start holding the GIL;
      // Python passes take it back.
      .def("run_pipeline", &Session::runPipeline, py::arg("pipeline"),
           py::call_guard<py::gil_scoped_release>())
      .def("pass_outputs_json", &Session::passOutputsJson)
      .def("save_checkpoint", &Session::saveCheckpoint, py::arg("path"))
      .def("print", &Session::print, py::arg("weights"))
      .def("export_json", &Session::exportJson, py::arg("graphs_only"))
      .def("summary_table", &Session::summaryTable, py::arg("depth"))
      .def("export_html", &Session::exportHtml, py::arg("title"))
      .def("export_verilog", &Session::exportVerilog, py::arg("directory"))
      .def("node_locations", &nodeLocations)
      .def("record_pass_outputs", &recordOutputs)
      .def("set_software", &setSoftware)
      .def("set_common", &setCommon)
      .def("set_hardware", &setHardware)
      .def("set_scope", &setScope)
      .def("rename_node", &renameNode)
      .def("replace_all_uses", &replaceAllUses)
      .def("erase_node", &eraseNode)
      .def("insert_call", &insertCall)
      .def("set_argument", &setArgument)
      .def("set_keyword", &setKeyword)
      .def("random_inputs", &randomInputs, py::arg("seed"), py::arg("int_high"))
      .def("compare_with", &compareWith)
      .def("is_quantized", &isQuantizedGraph)
      .def("run_quantized", &runQuantizedGraph);

  m.def("register_python_pass", &registerPythonPass, py::arg("name"),
        py::arg("description"));
  m.def("operator_registry_json", &registryJson);
}
