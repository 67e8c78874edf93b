//===- GraphAnalyses.cpp - Analyses that run a graph forward and back -----===//
//
// The scale and execution-order analyses run the graph once through the
// interpreter with gradients tracked: inputs drawn from the seed, forward,
// output gradients drawn from the same generator, backward. The scale
// analysis measures each top-level node's first float result and hooks its
// gradient, then reads the parameters' gradients; the order analysis
// watches which call_module nodes run and which parameters they read, and
// hooks every parameter. The range observation (calibration) only runs
// forward, without gradients, once per sample, and keeps each node's
// largest magnitude.
//
//===----------------------------------------------------------------------===//

#include "mav/Runtime/GraphAnalyses.h"
#include "mav/Runtime/InputsFile.h"
#include "RuntimeServices.h"
#include "mav/IR/WeightData.h"
#include "mav/Runtime/Interpreter.h"
#include "mav/Runtime/TorchTypes.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/grad_mode.h>

using namespace mlir;
using namespace mav;

namespace {

/// The float tensors among a graph's outputs, in order.
std::vector<at::Tensor> floatTensors(const c10::IValue &value) {
  std::vector<c10::IValue> leaves;
  flattenValue(value, leaves);
  std::vector<at::Tensor> tensors;
  for (const c10::IValue &leaf : leaves)
    if (leaf.isTensor() && leaf.toTensor().is_floating_point())
      tensors.push_back(leaf.toTensor());
  return tensors;
}

/// Draws the gradients of `outputs`, continuing the seeded generator, and
/// runs backward. Outputs that do not require gradients are skipped.
LogicalResult runBackward(GraphOp graph, const std::vector<at::Tensor> &outputs,
                          const RandomDraw &draw) {
  std::vector<at::Tensor> roots, grads;
  for (const at::Tensor &output : outputs) {
    at::Tensor grad = draw.distribution == InputDistribution::Uniform
                          ? at::rand(output.sizes(), output.options())
                          : at::randn(output.sizes(), output.options());
    if (draw.scale != 1.0)
      grad = grad * draw.scale;
    if (!output.requires_grad())
      continue;
    roots.push_back(output);
    grads.push_back(grad);
  }
  if (roots.empty())
    return graph.emitError() << "no output of @" << graph.getSymName()
                             << " depends on a parameter or input that "
                                "takes gradients: nothing to run backward";
  try {
    torch::autograd::backward(roots, grads);
  } catch (const c10::Error &error) {
    return graph.emitError()
           << "backward failed: "
           << StringRef(error.what_without_backtrace()).split('\n').first;
  }
  return success();
}

/// Draws the inputs (float inputs take gradients) and runs forward.
FailureOr<c10::IValue> runForward(GraphOp graph, Interpreter &interpreter,
                                  const RandomDraw &draw,
                                  const Interpreter::Observer &observer) {
  FailureOr<std::vector<c10::IValue>> inputs = makeRandomInputs(
      graph, draw.seed, draw.intHigh, c10::kCPU,
      draw.distribution == InputDistribution::Uniform, draw.scale);
  if (failed(inputs))
    return failure();
  for (c10::IValue &input : *inputs)
    if (input.isTensor() && input.toTensor().is_floating_point())
      input.toTensor().set_requires_grad(true);
  return interpreter.run(graph, *inputs, observer);
}

TensorStats statsOf(const at::Tensor &tensor) {
  at::Tensor values = tensor.detach().to(at::kDouble);
  TensorStats stats;
  if (values.numel() == 0)
    return stats;
  stats.std = values.numel() > 1 ? values.std().item<double>() : 0.0;
  stats.mean = values.mean().item<double>();
  stats.absMax = values.abs().max().item<double>();
  stats.zeroFraction = values.eq(0).to(at::kDouble).mean().item<double>();
  return stats;
}

double stdOf(const at::Tensor &tensor) {
  at::Tensor values = tensor.detach().to(at::kDouble);
  return values.numel() > 1 ? values.std().item<double>() : 0.0;
}

/// The samples in a calibration inputs file (RangeObservation); on failure
/// returns why.
std::string readSamples(GraphOp graph, const RangeObservation &observation,
                        std::vector<std::vector<c10::IValue>> &samples) {
  c10::IValue contents;
  std::string error = loadTorchSave(*observation.inputsData, contents);
  if (!error.empty())
    return error;
  std::vector<c10::IValue> listed;
  if (contents.isGenericDict()) {
    c10::Dict<c10::IValue, c10::IValue> dict = contents.toGenericDict();
    auto found = dict.find(c10::IValue("inputs"));
    if (found == dict.end())
      return "a dict without \"inputs\"";
    listed.push_back(found->value());
  } else if (contents.isTensor()) {
    listed.push_back(contents);
  } else if (contents.isList()) {
    for (const c10::IValue &item : contents.toListRef())
      listed.push_back(item);
  } else if (contents.isTuple()) {
    for (const c10::IValue &item : contents.toTupleRef().elements())
      listed.push_back(item);
  } else {
    return "holds a " + contents.tagKind() +
           ", not a tensor, a list of samples or a dict with \"inputs\"";
  }
  if (listed.empty())
    return "holds no samples";
  for (auto [index, sample] : llvm::enumerate(listed)) {
    std::vector<c10::IValue> inputs;
    std::string error = sampleInputs(graph, sample, inputs);
    if (!error.empty())
      return "sample " + std::to_string(index) + " " + error;
    samples.push_back(std::move(inputs));
  }
  return "";
}

} // namespace

LogicalResult
mav::torch_runtime::observeValueRanges(GraphOp graph,
                                       const RangeObservation &observation,
                                       ValueRangeResult &result) {
  c10::AutoGradMode gradients(false);
  std::vector<std::vector<c10::IValue>> samples;
  if (observation.inputsData) {
    std::string error = readSamples(graph, observation, samples);
    if (!error.empty())
      return graph.emitError() << "calibration inputs '"
                               << observation.inputsName << "': " << error;
  }
  int64_t count = observation.inputsData ? static_cast<int64_t>(samples.size())
                                         : observation.samples;
  const RandomDraw &draw = observation.draw;
  Interpreter interpreter(graph->getParentOfType<ModuleOp>(), c10::kCPU);
  result.inputAbsMax.assign(graph.getBodyBlock().getNumArguments(), 0.0);
  auto absMax = [](const at::Tensor &tensor) {
    return tensor.numel() == 0
               ? 0.0
               : tensor.detach().abs().max().to(at::kDouble).item<double>();
  };
  Interpreter::Observer observer = [&](Operation *node, ArrayRef<c10::IValue>,
                                       ArrayRef<std::string>,
                                       ArrayRef<c10::IValue> results) {
    if (isa<GetAttrOp>(node))
      return;
    std::vector<c10::IValue> leaves;
    for (const c10::IValue &value : results)
      flattenValue(value, leaves);
    for (const c10::IValue &leaf : leaves)
      if (leaf.isTensor() && leaf.toTensor().is_floating_point()) {
        double &entry = result.nodeAbsMax[node];
        entry = std::max(entry, absMax(leaf.toTensor()));
      }
  };
  for (int64_t index = 0; index < count; ++index) {
    std::vector<c10::IValue> inputs;
    if (observation.inputsData) {
      inputs = samples[index];
    } else {
      FailureOr<std::vector<c10::IValue>> drawn = makeRandomInputs(
          graph, draw.seed + index, draw.intHigh, c10::kCPU,
          draw.distribution == InputDistribution::Uniform, draw.scale);
      if (failed(drawn))
        return failure();
      inputs = std::move(*drawn);
    }
    for (auto [input, range] : llvm::zip(inputs, result.inputAbsMax))
      if (input.isTensor() && input.toTensor().is_floating_point())
        range = std::max(range, absMax(input.toTensor()));
    if (failed(interpreter.run(graph, inputs, observer)))
      return failure();
    ++result.samples;
  }
  return success();
}

LogicalResult mav::torch_runtime::analyseScale(GraphOp graph,
                                               const RandomDraw &draw,
                                               bool backward,
                                               ScaleAnalysisResult &result) {
  c10::AutoGradMode gradients(backward);
  Interpreter interpreter(graph->getParentOfType<ModuleOp>(), c10::kCPU);
  if (backward)
    interpreter.trackGradients();
  // A tensor hook, not retain_grad: registered before a later in-place op
  // (resnet's relu_) it still sees the gradient w.r.t. this node's value.
  // Nodes are reserved up front so that the hooks' indices stay valid.
  result.nodes.reserve(graph.getBodyBlock().getOperations().size());
  Interpreter::Observer observer = [&](Operation *node, ArrayRef<c10::IValue>,
                                       ArrayRef<std::string>,
                                       ArrayRef<c10::IValue> results) {
    if (isa<GetAttrOp>(node))
      return;
    for (const c10::IValue &value : results) {
      if (!value.isTensor() || !value.toTensor().is_floating_point())
        continue;
      at::Tensor tensor = value.toTensor();
      size_t index = result.nodes.size();
      result.nodes.push_back({node, statsOf(tensor), std::nullopt});
      if (tensor.requires_grad())
        tensor.register_hook([&result, index](const at::Tensor &grad) {
          if (!result.nodes[index].backwardStd)
            result.nodes[index].backwardStd = stdOf(grad);
        });
      return;
    }
  };
  FailureOr<c10::IValue> output =
      runForward(graph, interpreter, draw, observer);
  if (failed(output))
    return failure();
  if (!backward)
    return success();
  if (failed(runBackward(graph, floatTensors(*output), draw)))
    return failure();
  ModuleOp module = graph->getParentOfType<ModuleOp>();
  for (WeightOp weight : module.getOps<WeightOp>()) {
    // A tied weight is its target's parameter, reported once by that name.
    if (weight.getKind() != WeightKind::parameter || weight.getTiedToAttr())
      continue;
    at::Tensor tensor = interpreter.getWeightTensor(weight);
    std::optional<double> gradStd;
    if (tensor.defined() && tensor.grad().defined())
      gradStd = stdOf(tensor.grad());
    result.weights.push_back({weight, gradStd});
  }
  return success();
}

LogicalResult mav::torch_runtime::recordExecOrder(GraphOp graph,
                                                  const RandomDraw &draw,
                                                  bool backward,
                                                  ExecOrderResult &result) {
  c10::AutoGradMode gradients(backward);
  ModuleOp module = graph->getParentOfType<ModuleOp>();
  SymbolTableCollection symbols;
  DenseMap<Operation *, unsigned> rank = getWeightRanks(module);
  Interpreter interpreter(module, c10::kCPU);
  if (backward)
    interpreter.trackGradients();
  llvm::SetVector<WeightOp> forward;
  Interpreter::Observer observer = [&](Operation *node, ArrayRef<c10::IValue>,
                                       ArrayRef<std::string>,
                                       ArrayRef<c10::IValue>) {
    if (isa<CallModuleOp>(node))
      result.moduleOrder.push_back(node);
    if (!isa<GetAttrOp>(node))
      for (WeightOp weight : getNodeParameters(node, symbols, rank))
        forward.insert(weight);
  };
  FailureOr<c10::IValue> output =
      runForward(graph, interpreter, draw, observer);
  if (failed(output))
    return failure();
  result.forwardOrder.assign(forward.begin(), forward.end());
  if (!backward)
    return success();
  // A hook per parameter tensor, in forward order; it fires once the
  // parameter's gradient is accumulated.
  llvm::SetVector<WeightOp> ready;
  for (WeightOp weight : result.forwardOrder) {
    at::Tensor tensor = interpreter.getWeightTensor(weight);
    if (tensor.defined() && tensor.requires_grad())
      tensor.register_hook(
          [&ready, weight](const at::Tensor &) { ready.insert(weight); });
  }
  if (failed(runBackward(graph, floatTensors(*output), draw)))
    return failure();
  result.backwardOrder.assign(ready.begin(), ready.end());
  return success();
}
