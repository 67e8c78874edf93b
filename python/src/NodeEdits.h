//===- NodeEdits.h - Changing a graph from Python ---------------*- C++ -*-===//
//
// The metadata writes and structural edits a Python pass makes, each a thin
// call into mav's C++ API (NodeBuilder, ArgumentEditor, MASE metadata).
// A write the verifier rejects is undone and thrown as a MavFailure naming
// the node.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PYTHON_NODEEDITS_H
#define MAV_PYTHON_NODEEDITS_H

#include "PyValues.h"
#include "Session.h"

namespace mav::python {

/// Sets (or, for None, removes) `key` in the node's software metadata.
void setSoftware(Session &session, const std::string &node,
                 const std::string &key, pybind11::handle value);
/// Sets a field of the node's common metadata: mase_type or mase_op.
void setCommon(Session &session, const std::string &node,
               const std::string &field, const std::string &value);
/// Sets (or, for None, clears) a field of the node's hardware metadata.
void setHardware(Session &session, const std::string &node,
                 const std::string &field, pybind11::handle value);
void setScope(Session &session, const std::string &node,
              const std::string &path, const std::string &moduleClass);
/// Renames the node to `name`, which must be free (`exact`), or to a free
/// name derived from it; returns the new name.
std::string renameNode(Session &session, const std::string &node,
                       const std::string &name, bool exact);
/// Replaces every use of the node's results with `replacement`'s (a node of
/// as many results, or a value).
void replaceAllUses(Session &session, const std::string &node,
                    const ValueRef &replacement);
/// Erases a node whose results have no uses.
void eraseNode(Session &session, const std::string &node);
/// Inserts a call_function (kind "call_function", target an aten operator)
/// or call_method (kind "call_method", target a Tensor method) before the
/// node `before` ("output": at the end), named after `name` or the target.
/// Returns its name. Its results are untyped until -mav-raise.
std::string insertCall(Session &session, const std::string &kind,
                       const std::string &target, pybind11::list args,
                       pybind11::dict kwargs, const std::string &before,
                       const std::string &name, unsigned numResults);
/// Sets positional argument `position` (appends at the end), or with
/// `erase` removes it.
void setArgument(Session &session, const std::string &node, int64_t position,
                 pybind11::object value, bool erase);
/// Sets keyword argument `keyword`, or with `erase` removes it.
void setKeyword(Session &session, const std::string &node,
                const std::string &keyword, pybind11::object value, bool erase);
/// Appends `outputs` (a dict) to the module's pass outputs as pass `pass`'s.
void recordOutputs(Session &session, const std::string &pass,
                   pybind11::dict outputs);
/// The graph's value `ref` names.
mlir::Value lookupValue(Session &session, const ValueRef &ref);

} // namespace mav::python

#endif // MAV_PYTHON_NODEEDITS_H
