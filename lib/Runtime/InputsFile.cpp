//===- InputsFile.cpp - Graph inputs read from a torch.save file ---------===//

#include "mav/Runtime/InputsFile.h"
#include "mav/Runtime/Interpreter.h"
#include "mav/Runtime/TorchTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <torch/csrc/jit/serialization/pickle.h>

using namespace mlir;
using namespace mav;

std::string mav::loadTorchSave(llvm::StringRef bytes, c10::IValue &contents) {
  try {
    std::vector<char> copy(bytes.begin(), bytes.end());
    contents = torch::jit::pickle_load(copy);
  } catch (const c10::Error &error) {
    StringRef message =
        StringRef(error.what_without_backtrace()).split('\n').first;
    // Python pickles a one-element list with APPEND and a one-entry dict
    // with SETITEM, which libtorch 1.13's unpickler does not know.
    StringRef hint = message.starts_with("Unknown opcode")
                         ? " (libtorch reads no one-element list or "
                           "one-entry dict: save tuples, e.g. (x,))"
                         : "";
    return ("not a torch.save file libtorch reads: " + message + hint).str();
  } catch (const std::exception &error) {
    return std::string("not a torch.save file libtorch reads: ") + error.what();
  }
  return "";
}

std::string mav::sampleInputs(GraphOp graph, const c10::IValue &sample,
                              std::vector<c10::IValue> &inputs) {
  std::vector<c10::IValue> tensors;
  if (sample.isTensor())
    tensors.push_back(sample);
  else if (sample.isList())
    for (const c10::IValue &item : sample.toListRef())
      tensors.push_back(item);
  else if (sample.isTuple())
    for (const c10::IValue &item : sample.toTupleRef().elements())
      tensors.push_back(item);
  else
    return "is a " + sample.tagKind() + ", not a tensor or a list of tensors";
  Block::BlockArgListType arguments = graph.getBodyBlock().getArguments();
  if (tensors.size() != arguments.size())
    return "has " + std::to_string(tensors.size()) + " tensors; @" +
           graph.getSymName().str() + " takes " +
           std::to_string(arguments.size()) + " inputs";
  for (auto [index, value, argument] : llvm::enumerate(tensors, arguments)) {
    if (!value.isTensor())
      return "input " + std::to_string(index) + " is a " + value.tagKind() +
             ", not a tensor";
    at::Tensor tensor = value.toTensor();
    auto type = dyn_cast<RankedTensorType>(argument.getType());
    std::optional<c10::ScalarType> dtype =
        type ? convertElementType(type.getElementType()) : std::nullopt;
    if (!type || !dtype)
      return "input " + std::to_string(index) +
             ": the graph's input has no tensor type with a torch dtype";
    if (type.hasStaticShape() &&
        !tensor.sizes().equals(
            c10::IntArrayRef(type.getShape().data(), type.getShape().size()))) {
      std::string shape;
      llvm::raw_string_ostream os(shape);
      llvm::interleave(tensor.sizes(), os, "x");
      os << ", the graph takes ";
      llvm::interleave(type.getShape(), os, "x");
      return "input " + std::to_string(index) + " has shape " + os.str();
    }
    inputs.push_back(tensor.to(*dtype));
  }
  return "";
}

FailureOr<std::vector<c10::IValue>> mav::readInputsFile(GraphOp graph,
                                                        StringRef path) {
  auto fail = [&](const llvm::Twine &why) {
    return graph.emitError() << "inputs file '" << path << "': " << why;
  };
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path);
  if (!file)
    return fail(file.getError().message());
  c10::IValue contents;
  std::string error = loadTorchSave((*file)->getBuffer(), contents);
  if (!error.empty())
    return fail(error);
  if (contents.isGenericDict()) {
    c10::Dict<c10::IValue, c10::IValue> dict = contents.toGenericDict();
    auto found = dict.find(c10::IValue("inputs"));
    if (found == dict.end())
      return fail("a dict without \"inputs\"");
    contents = found->value();
  }
  std::vector<c10::IValue> inputs;
  error = sampleInputs(graph, contents, inputs);
  if (!error.empty())
    return fail(error);
  return inputs;
}
