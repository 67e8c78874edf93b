//===- GraphRuns.cpp - Running a graph against PyTorch, in process --------===//

#include "GraphRuns.h"
#include "Failure.h"

#include "mav/Run/OutputComparison.h"
#include "mav/Run/QuantizedRun.h"
#include "mav/Runtime/InputsFile.h"
#include "mav/Runtime/Interpreter.h"

#include "llvm/Support/raw_ostream.h"

#include <torch/csrc/jit/serialization/pickle.h>
#include <torch/script.h>

namespace py = pybind11;
using namespace mlir;
using namespace mav;
using namespace mav::python;

namespace {

py::bytes pickled(const c10::IValue &value) {
  std::vector<char> data = torch::jit::pickle_save(value);
  return py::bytes(data.data(), data.size());
}

c10::IValue unpickled(Session &session, const std::string &bytes,
                      StringRef what) {
  c10::IValue contents;
  std::string error = loadTorchSave(bytes, contents);
  if (!error.empty())
    throw MavFailure("cannot read the " + what.str() + ": " + error,
                     session.getSource());
  return contents;
}

std::vector<c10::IValue> graphInputs(Session &session,
                                     const std::string &bytes) {
  std::vector<c10::IValue> inputs;
  std::string error = sampleInputs(session.getGraph(),
                                   unpickled(session, bytes, "inputs"), inputs);
  if (!error.empty())
    throw MavFailure("inputs: " + error, session.getSource());
  return inputs;
}

} // namespace

py::bytes mav::python::randomInputs(Session &session, uint64_t seed,
                                    int64_t intHigh) {
  DiagnosticCapture capture(session.getContext(), session.getSource());
  FailureOr<std::vector<c10::IValue>> inputs =
      makeRandomInputs(session.getGraph(), seed, intHigh, c10::kCPU);
  if (failed(inputs))
    capture.fail("cannot make inputs");
  return pickled(c10::ivalue::Tuple::create(*inputs));
}

py::tuple mav::python::compareWith(Session &session, const std::string &inputs,
                                   const std::string &expected, double atol,
                                   bool atolScaled, double rtol) {
  DiagnosticCapture capture(session.getContext(), session.getSource());
  std::vector<c10::IValue> arguments = graphInputs(session, inputs);
  c10::IValue reference = unpickled(session, expected, "reference outputs");
  torch::NoGradGuard noGrad;
  FailureOr<c10::IValue> output;
  try {
    Interpreter interpreter(session.getModule(), c10::kCPU);
    output = interpreter.run(session.getGraph(), arguments);
  } catch (const std::exception &error) {
    throw MavFailure(StringRef(error.what()).split('\n').first.str(),
                     session.getSource());
  }
  if (failed(output))
    capture.fail("the graph failed to run");
  ComparisonTolerance tolerance;
  tolerance.absolute = atol;
  tolerance.absoluteIsScaled = atolScaled;
  tolerance.relative = rtol;
  Comparison comparison = compareOutputs(*output, reference, tolerance);
  const char *verdict =
      comparison.verdict == Comparison::Verdict::Match      ? "match"
      : comparison.verdict == Comparison::Verdict::Mismatch ? "mismatch"
                                                            : "undecided";
  return py::make_tuple(verdict, comparison.report,
                        comparison.largestDifference, pickled(*output));
}

bool mav::python::isQuantizedGraph(Session &session) {
  return isQuantized(session.getGraph());
}

py::tuple mav::python::runQuantizedGraph(Session &session, uint64_t seed,
                                         int64_t samples, py::object reference,
                                         const std::string &rtlDirectory,
                                         const std::string &simulator,
                                         bool timing, int64_t maxCycles) {
  DiagnosticCapture capture(session.getContext(), session.getSource());
  if (samples < 1)
    throw MavFailure("samples must be at least 1", session.getSource());
  if (simulator != "verilator" && simulator != "icarus")
    throw MavFailure("simulator must be 'verilator' or 'icarus', not '" +
                         simulator + "'",
                     session.getSource());
  std::string report;
  llvm::raw_string_ostream out(report);
  QuantizedRunOptions options;
  options.seed = seed;
  options.samples = samples;
  options.out = &out;
  options.errors = &out;
  options.rtlDirectory = rtlDirectory;
  options.timing = timing;
  options.simulation.simulator =
      simulator == "verilator" ? Simulator::Verilator : Simulator::Icarus;
  options.simulation.seed = seed;
  options.simulation.maxCycles = maxCycles;
  if (!reference.is_none())
    options.reference =
        [&](const std::vector<c10::IValue> &inputs) -> FailureOr<c10::IValue> {
      std::string outputs;
      {
        py::gil_scoped_acquire gil;
        outputs = reference(pickled(c10::ivalue::Tuple::create(inputs)))
                      .cast<std::string>();
      }
      return unpickled(session, outputs, "reference outputs");
    };
  torch::NoGradGuard noGrad;
  int status;
  try {
    py::gil_scoped_release noGil;
    status = runQuantized(session.getGraph(), options);
  } catch (const c10::Error &error) {
    throw MavFailure(error.what_without_backtrace(), session.getSource());
  }
  if (!capture.text().empty())
    report = capture.text() + report;
  return py::make_tuple(status, report);
}
