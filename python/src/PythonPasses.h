//===- PythonPasses.h - Python functions as mav passes ----------*- C++ -*-===//
//
// A Python function registered with `mav.register_pass(name, fn)` becomes a
// module pass that any pipeline string can name, next to mav's own. The
// pass calls `mav.passes._dispatch(name)`, which hands the function the
// graph being run on; an exception it raises fails the pass, with its text.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PYTHON_PYTHONPASSES_H
#define MAV_PYTHON_PYTHONPASSES_H

#include <string>

namespace mav::python {

/// Registers the pass `name` (once; registering again keeps it). Throws a
/// MavFailure when a C++ pass already has the name.
void registerPythonPass(const std::string &name,
                        const std::string &description);

} // namespace mav::python

#endif // MAV_PYTHON_PYTHONPASSES_H
