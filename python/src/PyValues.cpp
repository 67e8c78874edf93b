//===- PyValues.cpp - Python values as mav attributes ---------------------===//

#include "PyValues.h"
#include "Failure.h"

#include "mav/IR/NodeArguments.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace py = pybind11;
using namespace mlir;
using namespace mav::python;

namespace {

/// Converts a Python value, with `leaf` for what is neither a number, a
/// string nor a container.
class Converter {
public:
  Converter(MLIRContext *context, bool arguments,
            llvm::function_ref<Attribute(py::handle)> leaf)
      : builder(context), trees(context), arguments(arguments), leaf(leaf) {}

  Attribute convert(py::handle value) {
    if (py::isinstance<py::bool_>(value))
      return builder.getBoolAttr(value.cast<bool>());
    if (py::isinstance<py::int_>(value))
      return builder.getI64IntegerAttr(value.cast<int64_t>());
    if (py::isinstance<py::float_>(value))
      return builder.getF64FloatAttr(value.cast<double>());
    if (py::isinstance<py::str>(value))
      return builder.getStringAttr(value.cast<std::string>());
    if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
      SmallVector<Attribute> elements;
      for (py::handle element : value)
        elements.push_back(convert(element));
      if (!arguments)
        return builder.getArrayAttr(elements);
      return py::isinstance<py::tuple>(value) ? trees.tuple(elements)
                                              : trees.list(elements);
    }
    if (py::isinstance<py::dict>(value) && !arguments) {
      SmallVector<NamedAttribute> entries;
      for (auto [key, element] : value.cast<py::dict>()) {
        if (!py::isinstance<py::str>(key))
          throw MavFailure("metadata keys must be strings, got " +
                               py::repr(key).cast<std::string>(),
                           "");
        entries.push_back(
            builder.getNamedAttr(key.cast<std::string>(), convert(element)));
      }
      return builder.getDictionaryAttr(entries);
    }
    if (value.is_none() && arguments)
      return trees.none();
    return leaf(value);
  }

private:
  Builder builder;
  mav::ArgumentTreeBuilder trees;
  bool arguments;
  llvm::function_ref<Attribute(py::handle)> leaf;
};

} // namespace

Attribute mav::python::toMetadataAttr(MLIRContext *context, py::handle value,
                                      llvm::StringRef what) {
  auto refuse = [&](py::handle leaf) -> Attribute {
    throw MavFailure(what.str() + ": cannot store " +
                         py::repr(leaf).cast<std::string>() + " (" +
                         py::str(leaf.get_type()).cast<std::string>() +
                         "): metadata holds bool, int, float, str, and lists "
                         "and dicts of them",
                     "");
  };
  return Converter(context, /*arguments=*/false, refuse).convert(value);
}

Attribute mav::python::toArgumentAttr(
    MLIRContext *context, py::handle value,
    llvm::function_ref<Attribute(const ValueRef &)> use) {
  auto leaf = [&](py::handle leaf) -> Attribute {
    if (py::isinstance<ValueRef>(leaf))
      return use(leaf.cast<const ValueRef &>());
    throw MavFailure("cannot pass " + py::repr(leaf).cast<std::string>() +
                         " as an argument: give a node, None, a bool, int, "
                         "float or str, or a list or tuple of them",
                     "");
  };
  return Converter(context, /*arguments=*/true, leaf).convert(value);
}
