//===- NodeEdits.cpp - Changing a graph from Python -----------------------===//

#include "NodeEdits.h"
#include "Failure.h"

#include "mav/IR/ArgumentEditor.h"
#include "mav/IR/MavAttrs.h"
#include "mav/IR/MavTypes.h"
#include "mav/IR/NodeBuilder.h"
#include "mav/IR/NodeMetadata.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"

#include "mlir/IR/Verifier.h"

namespace py = pybind11;
using namespace mlir;
using namespace mav;
using namespace mav::python;

namespace {

/// Sets attribute `field` of `op` with `update`, which may emit errors; when
/// it fails or the node then fails to verify, restores the old value and
/// throws what was said.
void writeChecked(Session &session, Operation *op, StringRef field,
                  llvm::function_ref<Attribute()> update) {
  DiagnosticCapture capture(session.getContext(), session.getSource());
  std::string node = cast<NodeOpInterface>(op).getNodeName().str();
  Attribute old = op->getAttr(field);
  Attribute value = update();
  if (!value)
    capture.fail("invalid " + field.str() + " metadata", node);
  op->setAttr(field, value);
  if (failed(mlir::verify(op))) {
    if (old)
      op->setAttr(field, old);
    else
      op->removeAttr(field);
    capture.fail("invalid " + field.str() + " metadata", node);
  }
}

std::function<InFlightDiagnostic()> errorsAt(Operation *op) {
  return [op] { return op->emitError(); };
}

StringRef stringOf(py::handle value, StringRef field) {
  if (!py::isinstance<py::str>(value))
    throw MavFailure(field.str() + " must be a string", "");
  return PyUnicode_AsUTF8(value.ptr());
}

} // namespace

Value mav::python::lookupValue(Session &session, const ValueRef &ref) {
  GraphOp graph = session.getGraph();
  for (auto [argument, name] :
       llvm::zip(graph.getBodyBlock().getArguments(), graph.getArgNames()))
    if (cast<StringAttr>(name).getValue() == ref.node)
      return argument;
  Operation *op = session.lookupNode(ref.node);
  if (ref.result >= op->getNumResults())
    throw MavFailure("node '" + ref.node + "' has " +
                         std::to_string(op->getNumResults()) +
                         " results, not " + std::to_string(ref.result + 1),
                     session.getSource(), ref.node);
  return op->getResult(ref.result);
}

void mav::python::recordOutputs(Session &session, const std::string &pass,
                                py::dict outputs) {
  MLIRContext *context = session.getContext();
  SmallVector<NamedAttribute> entries;
  for (auto [key, value] : outputs) {
    std::string name = py::str(key).cast<std::string>();
    entries.emplace_back(
        StringAttr::get(context, name),
        toMetadataAttr(context, value, "pass '" + pass + "' output " + name));
  }
  llvm::sort(entries, [](const NamedAttribute &a, const NamedAttribute &b) {
    return a.getName().getValue() < b.getName().getValue();
  });
  recordPassOutputs(session.getModule(), pass, entries);
}

void mav::python::setSoftware(Session &session, const std::string &node,
                              const std::string &key, py::handle value) {
  Operation *op = session.lookupNode(node);
  MLIRContext *context = session.getContext();
  NamedAttrList entries;
  if (SoftwareMetaAttr software = cast<NodeOpInterface>(op).getSoftwareMeta())
    entries.assign(software.getEntries().getValue());
  if (value.is_none())
    entries.erase(key);
  else
    entries.set(key, toMetadataAttr(context, value,
                                    "node '" + node + "' software." + key));
  if (entries.empty()) {
    op->removeAttr("software");
    return;
  }
  writeChecked(session, op, "software", [&]() -> Attribute {
    return SoftwareMetaAttr::getChecked(errorsAt(op), context,
                                        entries.getDictionary(context));
  });
}

void mav::python::setCommon(Session &session, const std::string &node,
                            const std::string &field,
                            const std::string &value) {
  Operation *op = session.lookupNode(node);
  if (field != "mase_type" && field != "mase_op")
    throw MavFailure("common." + field +
                         " cannot be set from Python: mase_type and mase_op "
                         "can; args and results follow the node's types",
                     session.getSource(), node);
  CommonMetaAttr complete = cast<NodeOpInterface>(op).getCommonMeta();
  StringRef maseType = complete ? complete.getMaseType() : "";
  StringRef maseOp = complete ? complete.getMaseOp() : "";
  (field == "mase_type" ? maseType : maseOp) = value;
  ArrayAttr args = complete ? complete.getArgs() : ArrayAttr();
  ArrayAttr results = complete ? complete.getResults() : ArrayAttr();
  writeChecked(session, op, "common", [&]() -> Attribute {
    auto updated = CommonMetaAttr::getChecked(errorsAt(op), op->getContext(),
                                              maseType, maseOp, args, results);
    return updated ? leanCommonMeta(op, updated) : Attribute();
  });
}

void mav::python::setHardware(Session &session, const std::string &node,
                              const std::string &field, py::handle value) {
  Operation *op = session.lookupNode(node);
  MLIRContext *context = session.getContext();
  HardwareMetaAttr hardware = cast<NodeOpInterface>(op).getHardwareMeta();
  BoolAttr isImplicit = hardware ? hardware.getIsImplicit() : BoolAttr();
  StringRef toolchain = hardware ? hardware.getToolchain() : "";
  StringRef module = hardware ? hardware.getModule() : "";
  IntegerAttr deviceId = hardware ? hardware.getDeviceId() : IntegerAttr();
  DictionaryAttr interface =
      hardware ? hardware.getInterface() : DictionaryAttr();
  DictionaryAttr verilogParam =
      hardware ? hardware.getVerilogParam() : DictionaryAttr();
  ArrayAttr files = hardware ? hardware.getDependenceFiles() : ArrayAttr();
  DenseI64ArrayAttr parallelism =
      hardware ? hardware.getMaxParallelism() : DenseI64ArrayAttr();
  std::string what = "node '" + node + "' hardware." + field;
  Attribute converted =
      value.is_none() ? Attribute() : toMetadataAttr(context, value, what);
  auto expect = [&](bool ok, StringRef kind) {
    if (converted && !ok)
      throw MavFailure(what + " must be " + kind.str(), session.getSource(),
                       node);
  };
  if (field == "is_implicit") {
    expect(isa_and_nonnull<BoolAttr>(converted), "a bool");
    isImplicit = dyn_cast_or_null<BoolAttr>(converted);
  } else if (field == "toolchain" || field == "module") {
    expect(isa_and_nonnull<StringAttr>(converted), "a string");
    StringRef text =
        converted ? cast<StringAttr>(converted).getValue() : StringRef();
    (field == "toolchain" ? toolchain : module) = text;
  } else if (field == "device_id") {
    expect(isa_and_nonnull<IntegerAttr>(converted), "an int");
    deviceId = dyn_cast_or_null<IntegerAttr>(converted);
  } else if (field == "interface" || field == "verilog_param") {
    expect(isa_and_nonnull<DictionaryAttr>(converted), "a dict");
    (field == "interface" ? interface : verilogParam) =
        dyn_cast_or_null<DictionaryAttr>(converted);
  } else if (field == "dependence_files") {
    expect(isa_and_nonnull<ArrayAttr>(converted), "a list");
    files = dyn_cast_or_null<ArrayAttr>(converted);
  } else if (field == "max_parallelism") {
    SmallVector<int64_t> sizes;
    if (auto list = dyn_cast_or_null<ArrayAttr>(converted))
      for (Attribute element : list)
        if (auto size = dyn_cast<IntegerAttr>(element))
          sizes.push_back(size.getInt());
    expect(isa_and_nonnull<ArrayAttr>(converted) &&
               sizes.size() == cast<ArrayAttr>(converted).size(),
           "a list of ints");
    parallelism = converted ? DenseI64ArrayAttr::get(context, sizes)
                            : DenseI64ArrayAttr();
  } else {
    throw MavFailure(what + ": no such field (is_implicit, toolchain, module, "
                            "device_id, interface, verilog_param, "
                            "dependence_files, max_parallelism)",
                     session.getSource(), node);
  }
  writeChecked(session, op, "hardware", [&]() -> Attribute {
    return HardwareMetaAttr::getChecked(errorsAt(op), context, isImplicit,
                                        toolchain, module, deviceId, interface,
                                        verilogParam, files, parallelism);
  });
}

void mav::python::setScope(Session &session, const std::string &node,
                           const std::string &path,
                           const std::string &moduleClass) {
  Operation *op = session.lookupNode(node);
  writeChecked(session, op, "scope", [&]() -> Attribute {
    return ScopeAttr::get(session.getContext(), path, moduleClass);
  });
}

std::string mav::python::renameNode(Session &session, const std::string &node,
                                    const std::string &name, bool exact) {
  Operation *op = session.lookupNode(node);
  if (name == node)
    return name;
  std::string claimed = session.getNamer().claim(name);
  if (exact && claimed != name)
    throw MavFailure("cannot rename node '" + node + "' to '" + name +
                         "': not a Python identifier, or another node or "
                         "placeholder has it",
                     session.getSource(), node);
  op->setAttr("name", StringAttr::get(session.getContext(), claimed));
  session.nodeRenamed(node, op);
  return claimed;
}

void mav::python::replaceAllUses(Session &session, const std::string &node,
                                 const ValueRef &replacement) {
  Operation *op = session.lookupNode(node);
  if (op->getNumResults() == 1 || replacement.result != 0) {
    Value with = lookupValue(session, replacement);
    if (op->getNumResults() != 1)
      throw MavFailure("node '" + node +
                           "' has several results: replace them one by one",
                       session.getSource(), node);
    op->getResult(0).replaceAllUsesWith(with);
    return;
  }
  Operation *with = session.lookupNode(replacement.node);
  if (with->getNumResults() != op->getNumResults())
    throw MavFailure("node '" + node + "' has " +
                         std::to_string(op->getNumResults()) + " results, '" +
                         replacement.node + "' has " +
                         std::to_string(with->getNumResults()),
                     session.getSource(), node);
  op->replaceAllUsesWith(with->getResults());
}

void mav::python::eraseNode(Session &session, const std::string &node) {
  Operation *op = session.lookupNode(node);
  for (Value result : op->getResults())
    if (!result.use_empty()) {
      Operation *user = *result.getUsers().begin();
      std::string userName =
          isa<NodeOpInterface>(user)
              ? cast<NodeOpInterface>(user).getNodeName().str()
              : std::string("output");
      throw MavFailure("cannot erase node '" + node + "': '" + userName +
                           "' uses it (replace its uses first)",
                       session.getSource(), node);
    }
  op->erase();
  session.nodeErased(node);
}

std::string mav::python::insertCall(Session &session, const std::string &kind,
                                    const std::string &target, py::list args,
                                    py::dict kwargs, const std::string &before,
                                    const std::string &name,
                                    unsigned numResults) {
  if (kind != "call_function" && kind != "call_method")
    throw MavFailure(
        "insert: kind must be call_function or call_method, not '" + kind + "'",
        session.getSource());
  MLIRContext *context = session.getContext();
  Operation *anchor = before == "output"
                          ? session.getGraph().getBodyBlock().getTerminator()
                          : session.lookupNode(before);
  ArgumentTreeBuilder tree(context);
  auto use = [&](const ValueRef &ref) {
    return tree.use(lookupValue(session, ref));
  };
  SmallVector<Attribute> positional;
  for (py::handle arg : args)
    positional.push_back(toArgumentAttr(context, arg, use));
  SmallVector<NamedAttribute> keywords;
  for (auto [key, arg] : kwargs)
    keywords.emplace_back(StringAttr::get(context, key.cast<std::string>()),
                          toArgumentAttr(context, arg, use));
  NodeBuilder builder(anchor);
  SmallVector<Type> resultTypes(numResults, UnknownTensorType::get(context));
  Location loc = anchor->getLoc();
  Operation *created =
      kind == "call_function"
          ? builder
                .createCallFunction(loc, target, positional, keywords, tree,
                                    resultTypes)
                .getOperation()
          : builder
                .createCallMethod(loc, target, positional, keywords, tree,
                                  resultTypes)
                .getOperation();
  if (!name.empty())
    created->setAttr("name", StringAttr::get(context, builder.claimName(name)));
  DiagnosticCapture capture(context, session.getSource());
  if (failed(mlir::verify(created))) {
    std::string createdName =
        cast<NodeOpInterface>(created).getNodeName().str();
    created->erase();
    capture.fail("node '" + createdName + "' does not verify");
  }
  session.nodeAdded(created);
  return cast<NodeOpInterface>(created).getNodeName().str();
}

namespace {

template <typename Edit>
void editArguments(Session &session, const std::string &node, Edit edit) {
  Operation *op = session.lookupNode(node);
  if (!isa<CallFunctionOp, CallMethodOp, CallModuleOp>(op))
    throw MavFailure("node '" + node + "' is not a call: it has no arguments",
                     session.getSource(), node);
  ArgumentEditor editor(op);
  auto use = [&](const ValueRef &ref) {
    return editor.use(lookupValue(session, ref));
  };
  edit(op, editor, use);
  editor.apply();
}

} // namespace

void mav::python::setArgument(Session &session, const std::string &node,
                              int64_t position, py::object value, bool erase) {
  editArguments(
      session, node, [&](Operation *op, ArgumentEditor &editor, auto use) {
        int64_t count = editor.getNumPositional();
        if (position < 0 || position > count || (erase && position == count))
          throw MavFailure("node '" + node + "' has " + std::to_string(count) +
                               " positional arguments; there is no argument " +
                               std::to_string(position),
                           session.getSource(), node);
        if (erase)
          return editor.erase(position);
        Attribute argument = toArgumentAttr(op->getContext(), value, use);
        if (position == count)
          editor.append(argument);
        else
          editor.set(position, argument);
      });
}

void mav::python::setKeyword(Session &session, const std::string &node,
                             const std::string &keyword, py::object value,
                             bool erase) {
  editArguments(session, node,
                [&](Operation *op, ArgumentEditor &editor, auto use) {
                  if (erase)
                    return editor.eraseKeyword(keyword);
                  editor.setKeyword(
                      keyword, toArgumentAttr(op->getContext(), value, use));
                });
}
