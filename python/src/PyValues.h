//===- PyValues.h - Python values as mav attributes -------------*- C++ -*-===//
//
// What Python hands mav: metadata values (numbers, strings, lists, dicts) and
// call arguments, which may also refer to graph values.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PYTHON_PYVALUES_H
#define MAV_PYTHON_PYVALUES_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <pybind11/pybind11.h>

#include <string>

namespace mav::python {

/// A result of a node, or a placeholder (`result` 0), by name.
struct ValueRef {
  std::string node;
  unsigned result = 0;
};

/// bool, int, float, str, lists, tuples and dicts with str keys, as
/// BoolAttr, i64, f64, StringAttr, ArrayAttr and DictionaryAttr. Throws a
/// MavFailure naming `what` for anything else.
mlir::Attribute toMetadataAttr(mlir::MLIRContext *context,
                               pybind11::handle value, llvm::StringRef what);

/// A call argument: as metadata, plus None, tuples as tuples, and ValueRefs,
/// which `use` turns into operand references.
mlir::Attribute
toArgumentAttr(mlir::MLIRContext *context, pybind11::handle value,
               llvm::function_ref<mlir::Attribute(const ValueRef &)> use);

} // namespace mav::python

#endif // MAV_PYTHON_PYVALUES_H
