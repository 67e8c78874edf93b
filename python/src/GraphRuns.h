//===- GraphRuns.h - Running a graph against PyTorch, in process -*- C++
//-*-===//
//
// `Graph.check` and `Graph.simulate_rtl`: mav-run --reference and --rtl
// without files. Tensors cross between Python and C++ as torch.save bytes,
// so the package needs no header of torch's Python bindings.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PYTHON_GRAPHRUNS_H
#define MAV_PYTHON_GRAPHRUNS_H

#include "Session.h"

#include <pybind11/pybind11.h>

namespace mav::python {

/// mav-run's seeded inputs of the graph, as the bytes of a torch.save'd
/// tuple.
pybind11::bytes randomInputs(Session &session, uint64_t seed, int64_t intHigh);

/// Runs the graph on `inputs` (torch.save bytes of a tuple of tensors) and
/// compares its outputs with `expected` (torch.save bytes). Returns
/// (verdict, report, largest difference, outputs as torch.save bytes).
pybind11::tuple compareWith(Session &session, const std::string &inputs,
                            const std::string &expected, double atol,
                            bool atolScaled, double rtol);

/// Whether -mav-quantize gave the graph fixed-point formats.
bool isQuantizedGraph(Session &session);

/// mav-run on a quantized graph: the fixed-point model on `samples` seeded
/// inputs, against `reference` (called with torch.save bytes of the inputs,
/// returning those of its outputs; None for no reference), and with a
/// non-empty `rtlDirectory`, the exported design under `simulator`.
/// Returns (exit status, report).
pybind11::tuple runQuantizedGraph(Session &session, uint64_t seed,
                                  int64_t samples, pybind11::object reference,
                                  const std::string &rtlDirectory,
                                  const std::string &simulator, bool timing,
                                  int64_t maxCycles);

} // namespace mav::python

#endif // MAV_PYTHON_GRAPHRUNS_H
