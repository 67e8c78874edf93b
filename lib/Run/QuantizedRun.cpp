//===- QuantizedRun.cpp - mav-run on a quantized graph --------------------===//

#include "mav/Run/QuantizedRun.h"
#include "TimingCheck.h"

#include "mav/Hardware/FixedPointErrorBound.h"
#include "mav/Hardware/FixedPointErrorEstimate.h"
#include "mav/Hardware/FixedPointModel.h"
#include "mav/Runtime/Interpreter.h"
#include "mav/Runtime/TorchTypes.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <ATen/ATen.h>

using namespace mlir;
using namespace mav;

bool mav::isQuantized(GraphOp graph) {
  // A graph whose inputs have formats claims to be fixed point even when no
  // node got one (-mav-quantize=allow-float=true): the fixed-point run then
  // refuses its float nodes by name, rather than running them in float.
  if (auto inputs = graph->getAttrOfType<ArrayAttr>("inputs"))
    for (Attribute input : inputs)
      if (getFixedFormat(input.dyn_cast<ValueMetaAttr>()))
        return true;
  for (auto node : graph.getBodyBlock().getOps<NodeOpInterface>())
    if (CommonMetaAttr common = node.getCommonMeta())
      if (ArrayAttr results = common.getResults())
        for (Attribute result : results)
          if (getFixedFormat(result.dyn_cast<ValueMetaAttr>()))
            return true;
  return false;
}

namespace {

constexpr double kReferenceSlack = 1e-5;

/// Error statistics of the fixed-point outputs against the reference's.
struct ErrorStats {
  double maxAbs = 0, sumAbs = 0, maxReference = 0, maxBound = 0;
  /// The largest error over its element's bound (the default comparison).
  double worstExcess = -INFINITY;
  int64_t count = 0;
  bool within = true;
  /// Whether an output of zeros would have been within the bound too: then
  /// the bound tells nothing.
  bool zerosWithin = true;
  /// The error estimate: the largest predicted rms error, the sum of the
  /// squares and the largest of |error| / predicted, and whether every
  /// element is within kErrorEstimateSigmas of it (with the reference's
  /// slack).
  double maxPredicted = 0, sumSquaredRatio = 0, maxRatio = 0;
  double worstEstimateExcess = -INFINITY;
  bool estimateWithin = true;
  /// Whether an output of zeros would have been within the estimate too.
  bool zerosWithinEstimate = true;
  /// A classifier's output (1 x classes): the samples whose largest output
  /// is the reference's.
  int64_t topOneSamples = 0, topOneAgreeing = 0;
};

/// Logits of one input: a 1 x C output, C > 1.
bool isClassifierOutput(const at::Tensor &output) {
  return output.dim() == 2 && output.size(0) == 1 && output.size(1) > 1;
}

/// One sample: input words, output words, the output as reals, the bound
/// on each output element's error and the estimate of every node's.
struct Sample {
  std::vector<c10::IValue> inputs;
  std::vector<int64_t> inputWords, outputWords;
  at::Tensor output, bound, predicted;
  ErrorEstimate estimate;
};

FailureOr<Sample> runSample(GraphOp graph, const FixedPointModel &model,
                            const FixedPointErrorBound &errorBound,
                            const FixedPointErrorEstimate &errorEstimate,
                            uint64_t seed, int64_t intHigh) {
  FailureOr<std::vector<c10::IValue>> inputs =
      makeRandomInputs(graph, seed, intHigh, c10::kCPU);
  if (failed(inputs))
    return failure();
  const HardwareGraph &hardware = model.getGraph();
  Sample sample;
  sample.inputs = std::move(*inputs);
  if (sample.inputs.size() != 1 || !sample.inputs[0].isTensor())
    return graph.emitError() << "the fixed-point model takes one tensor";
  at::Tensor input = sample.inputs[0].toTensor().to(at::kDouble).contiguous();
  ArrayRef<double> reals(input.data_ptr<double>(), input.numel());
  for (double real : reals)
    sample.inputWords.push_back(quantize(real, hardware.nodes[0].format));
  std::vector<std::vector<int64_t>> values = model.runAll(sample.inputWords);
  std::vector<double> bound = errorBound.bound(reals, values);
  sample.estimate = errorEstimate.estimate(reals, values);
  sample.outputWords = std::move(values[hardware.output]);
  const HardwareNode &output = hardware.nodes[hardware.output];
  sample.bound = at::tensor(bound, at::kDouble).reshape(output.outShape);
  sample.predicted =
      at::tensor(sample.estimate.allowed[hardware.output], at::kDouble)
          .sqrt()
          .reshape(output.outShape);
  std::vector<double> outputs;
  for (int64_t word : sample.outputWords)
    outputs.push_back(dequantize(word, output.format));
  sample.output =
      at::tensor(outputs, at::kDouble).reshape(output.outShape).to(at::kFloat);
  return sample;
}

bool accumulateError(const Sample &sample, const c10::IValue &expected,
                     const QuantizedRunOptions &options, ErrorStats &stats) {
  std::vector<c10::IValue> leaves;
  flattenValue(expected, leaves);
  if (leaves.size() != 1 || !leaves[0].isTensor() ||
      !leaves[0].toTensor().sizes().equals(sample.output.sizes())) {
    *options.errors << "mav-run: the reference does not return one tensor of "
                       "the graph's output shape\n";
    return false;
  }
  at::Tensor reference = leaves[0].toTensor().to(at::kDouble);
  at::Tensor mine = sample.output.to(at::kDouble);
  at::Tensor difference = (mine - reference).abs();
  if (isClassifierOutput(reference)) {
    ++stats.topOneSamples;
    stats.topOneAgreeing +=
        mine.argmax(1).item<int64_t>() == reference.argmax(1).item<int64_t>();
  }
  stats.maxAbs = std::max(stats.maxAbs, difference.max().item<double>());
  stats.sumAbs += difference.sum().item<double>();
  double scale = reference.abs().max().item<double>();
  stats.maxReference = std::max(stats.maxReference, scale);
  stats.count += difference.numel();
  // The error estimate, whatever decides: |error| <= K * predicted, with the
  // float reference's own rounding allowed for as below.
  at::Tensor slack = at::full_like(reference, kReferenceSlack * scale);
  at::Tensor ratio = difference / at::maximum(sample.predicted, slack);
  stats.maxPredicted =
      std::max(stats.maxPredicted, sample.predicted.max().item<double>());
  stats.sumSquaredRatio += ratio.square().sum().item<double>();
  stats.maxRatio = std::max(stats.maxRatio, ratio.max().item<double>());
  at::Tensor estimateAllowed = kErrorEstimateSigmas * sample.predicted + slack;
  stats.worstEstimateExcess =
      std::max(stats.worstEstimateExcess,
               (difference - estimateAllowed).max().item<double>());
  stats.estimateWithin &= difference.le(estimateAllowed).all().item<bool>();
  stats.zerosWithinEstimate &=
      reference.abs().le(estimateAllowed).all().item<bool>();
  if (options.absoluteTolerance || options.relativeTolerance) {
    stats.within &=
        at::isclose(mine, reference, options.relativeTolerance.value_or(0),
                    options.absoluteTolerance.value_or(0))
            .all()
            .item<bool>();
    return true;
  }
  // The float reference rounds too: as much as mav-run's float comparison
  // allows, 1e-5 of the output's scale.
  at::Tensor allowed = sample.bound + kReferenceSlack * scale;
  stats.maxBound = std::max(stats.maxBound, sample.bound.max().item<double>());
  stats.worstExcess =
      std::max(stats.worstExcess, (difference - allowed).max().item<double>());
  stats.within &= difference.le(allowed).all().item<bool>();
  stats.zerosWithin &= reference.abs().le(allowed).all().item<bool>();
  return true;
}

int simulate(const HardwareGraph &hardware, ArrayRef<Sample> samples,
             const QuantizedRunOptions &options) {
  llvm::Expected<RtlDesignInfo> design = readDesignInfo(options.rtlDirectory);
  if (!design) {
    *options.errors << "mav-run: " << llvm::toString(design.takeError())
                    << "\n";
    return 1;
  }
  const HardwareNode &input = hardware.nodes[0];
  const HardwareNode &output = hardware.nodes[hardware.output];
  if (design->input != input.format || design->output != output.format ||
      design->inputWords != input.outNumel() ||
      design->outputWords != output.outNumel()) {
    *options.errors << "mav-run: " << options.rtlDirectory
                    << ": the design was exported from another graph: it takes "
                    << design->inputWords << " words "
                    << formatFixed(design->input) << " and returns "
                    << design->outputWords << " words "
                    << formatFixed(design->output) << ", the graph "
                    << input.outNumel() << " " << formatFixed(input.format)
                    << " and " << output.outNumel() << " "
                    << formatFixed(output.format) << "\n";
    return 1;
  }
  std::vector<int64_t> inputWords, expectedWords;
  for (const Sample &sample : samples) {
    llvm::append_range(inputWords, sample.inputWords);
    llvm::append_range(expectedWords, sample.outputWords);
  }
  // The timing run streams at least two frames: the samples, repeated.
  int64_t frames = std::max<int64_t>(samples.size(), 2);
  std::vector<int64_t> timingInputs, timingExpected;
  for (int64_t frame = 0; frame < frames; ++frame) {
    const Sample &sample = samples[frame % samples.size()];
    llvm::append_range(timingInputs, sample.inputWords);
    llvm::append_range(timingExpected, sample.outputWords);
  }
  SmallVector<RtlRun, 2> runs = {RtlRun{inputWords, expectedWords}};
  if (options.timing)
    runs.push_back(RtlRun{timingInputs, timingExpected, /*stallPercent=*/0});
  bool verilator = options.simulation.simulator == Simulator::Verilator;
  llvm::Expected<std::vector<RtlSimulationResult>> results =
      simulateRtlRuns(options.rtlDirectory, *design, runs, options.simulation);
  if (!results) {
    *options.errors << "mav-run: " << llvm::toString(results.takeError())
                    << "\n";
    return 1;
  }
  const RtlSimulationResult &result = results->front();
  for (const std::string &message : result.messages)
    *options.out << "rtl: " << message << "\n";
  *options.out << "rtl (" << (verilator ? "verilator" : "icarus")
               << "): words compared: " << result.compared << " of "
               << result.expected << ", differing: " << result.differing
               << ", protocol errors: " << result.protocolErrors
               << ", extra beats: " << result.extraBeats
               << ", cycles: " << result.cycles << ": "
               << (result.passed() ? "bit-exact" : "MISMATCH") << "\n";
  int status = result.passed() ? 0 : 1;
  if (options.timing &&
      checkTiming(hardware, results->back(), frames,
                  verilator ? "verilator" : "icarus", *options.out))
    status = 1;
  return status;
}

/// Every node's estimate over the samples: its largest predicted rms error
/// and its saturated elements.
struct NodeEstimates {
  std::vector<double> maxRms;
  std::vector<int64_t> saturated;

  explicit NodeEstimates(ArrayRef<Sample> samples) {
    size_t nodes = samples.front().estimate.saturated.size();
    maxRms.assign(nodes, 0.0);
    saturated.assign(nodes, 0);
    for (const Sample &sample : samples)
      for (size_t index = 0; index < nodes; ++index) {
        for (double meanSquare : sample.estimate.meanSquares[index])
          maxRms[index] = std::max(maxRms[index], std::sqrt(meanSquare));
        saturated[index] += sample.estimate.saturated[index];
      }
  }
  bool holds() const {
    return llvm::all_of(saturated, [](int64_t count) { return count == 0; });
  }
};

std::string describeNode(const HardwareNode &node) {
  return "'" + node.name + "' (" +
         (node.component ? node.component->module.str() : "input") + ", " +
         formatFixed(node.format) + ")";
}

/// Each node's predicted rms error and saturated elements (--estimate-nodes).
void printNodeEstimates(const HardwareGraph &hardware,
                        const NodeEstimates &nodes, llvm::raw_ostream &os) {
  for (auto [index, node] : llvm::enumerate(hardware.nodes)) {
    double lsb = dequantize(1, node.format);
    os << "error estimate: node " << describeNode(node) << ": rms error up to "
       << llvm::format("%.4g", nodes.maxRms[index]) << " ("
       << llvm::format("%.3g", nodes.maxRms[index] / lsb) << " LSB), saturated "
       << nodes.saturated[index] << "\n";
  }
}

/// The error estimate's line; true when it decides the run and fails it.
/// It decides when the worst-case bound cannot (`decides`).
bool printEstimate(const HardwareGraph &hardware, const NodeEstimates &nodes,
                   const ErrorStats &stats, bool decides, StringRef other,
                   llvm::raw_ostream &os) {
  os << "error estimate: ";
  if (!nodes.holds()) {
    int64_t total = 0;
    for (int64_t count : nodes.saturated)
      total += count;
    const HardwareNode *first = nullptr;
    for (auto [index, node] : llvm::enumerate(hardware.nodes))
      if (!first && nodes.saturated[index])
        first = &node;
    os << "does not hold: " << total << " elements saturated, first at node "
       << describeNode(*first) << ": the format does not hold its values\n";
    return false;
  }
  double lsb = dequantize(1, hardware.nodes[hardware.output].format);
  double rms =
      std::sqrt(stats.sumSquaredRatio / std::max<int64_t>(stats.count, 1));
  os << "predicted rms error up to " << llvm::format("%.4g", stats.maxPredicted)
     << " (" << llvm::format("%.3g", stats.maxPredicted / lsb)
     << " LSB); |error| / predicted: rms " << llvm::format("%.3g", rms)
     << ", largest " << llvm::format("%.3g", stats.maxRatio) << ": "
     << (stats.estimateWithin ? "within" : "NOT within")
     << " the statistical error estimate (|error| <= "
     << llvm::format("%g", kErrorEstimateSigmas) << " x predicted";
  if (!stats.estimateWithin)
    os << "; exceeded by up to "
       << llvm::format("%.4g", stats.worstEstimateExcess);
  os << ")";
  // As for the bound: an estimate as large as every output cannot tell a
  // right model from one that outputs zeros.
  bool conclusive = !(stats.estimateWithin && stats.zerosWithinEstimate);
  if (!conclusive)
    os << ", which an output of zeros would also meet: not "
          "conclusive";
  if (!decides)
    os << (conclusive ? ", " : "; ") << "not enforced: " << other << " decides";
  else if (!conclusive)
    os << ", give --atol/--rtol";
  os << "\n";
  return decides && !stats.estimateWithin;
}

} // namespace

int mav::runQuantized(GraphOp graph, const QuantizedRunOptions &options) {
  FailureOr<HardwareGraph> hardware = lowerToHardware(graph);
  if (failed(hardware))
    return 1;
  FailureOr<FixedPointModel> model = FixedPointModel::create(*hardware);
  if (failed(model))
    return 1;
  FailureOr<FixedPointErrorBound> errorBound =
      FixedPointErrorBound::create(*model);
  if (failed(errorBound))
    return 1;
  FailureOr<FixedPointErrorEstimate> errorEstimate =
      FixedPointErrorEstimate::create(*model);
  if (failed(errorEstimate))
    return 1;
  std::vector<Sample> samples;
  for (int64_t index = 0; index < options.samples; ++index) {
    FailureOr<Sample> sample =
        runSample(graph, *model, *errorBound, *errorEstimate,
                  options.seed + index, options.intHigh);
    if (failed(sample))
      return 1;
    samples.push_back(std::move(*sample));
  }
  const HardwareNode &output = hardware->nodes[hardware->output];
  *options.out << "output 0: tensor<";
  for (int64_t size : output.outShape)
    *options.out << size << "x";
  *options.out << "fixed" << formatFixed(output.format)
               << "> (fixed-point model)\n";

  int status = 0;
  NodeEstimates nodes(samples);
  if (options.estimateNodes)
    printNodeEstimates(*hardware, nodes, *options.out);
  if (options.reference) {
    ErrorStats stats;
    for (const Sample &sample : samples) {
      FailureOr<c10::IValue> expected = options.reference(sample.inputs);
      if (failed(expected) ||
          !accumulateError(sample, *expected, options, stats))
        return 1;
    }
    double lsb = dequantize(1, output.format);
    *options.out << "fixed-point " << formatFixed(output.format)
                 << " vs float reference: max abs error "
                 << llvm::format("%.4g", stats.maxAbs) << " ("
                 << llvm::format("%.3g", stats.maxAbs / lsb)
                 << " LSB), mean abs error "
                 << llvm::format("%.4g", stats.sumAbs /
                                             std::max<int64_t>(stats.count, 1))
                 << ", reference max |y| "
                 << llvm::format("%.4g", stats.maxReference) << ": ";
    bool explicitTolerance =
        options.absoluteTolerance || options.relativeTolerance;
    bool estimateConclusive =
        nodes.holds() && !(stats.estimateWithin && stats.zerosWithinEstimate);
    if (explicitTolerance &&
        options.absoluteTolerance.value_or(0) >= stats.maxReference) {
      // An output of zeros would be within such a tolerance.
      *options.out << "UNDECIDED: the tolerance "
                   << llvm::format("%g", options.absoluteTolerance.value_or(0))
                   << " is at or above the reference's largest magnitude\n";
      status = 1;
    } else if (explicitTolerance) {
      *options.out << (stats.within ? "within" : "MISMATCH") << " (atol "
                   << llvm::format("%g", options.absoluteTolerance.value_or(0))
                   << ", rtol "
                   << llvm::format("%g", options.relativeTolerance.value_or(0))
                   << ")\n";
    } else {
      *options.out << (stats.within ? "within" : "MISMATCH")
                   << " the error bound (largest "
                   << llvm::format("%.4g", stats.maxBound) << ", "
                   << llvm::format("%.3g", stats.maxBound / lsb) << " LSB";
      if (!stats.within)
        *options.out << "; exceeded by up to "
                     << llvm::format("%.4g", stats.worstExcess);
      *options.out << ")";
      // The worst case grows with depth; where it covers every output's own
      // magnitude (or is infinite) it cannot tell a right model from one
      // that outputs zeros: the statistical estimate decides, unless an
      // element saturated.
      if (stats.within && stats.zerosWithin)
        *options.out << ", which an output of zeros would also meet: not "
                        "conclusive, "
                     << (estimateConclusive ? "the error estimate decides"
                                            : "give --atol/--rtol");
      *options.out << "\n";
    }
    if (!stats.within)
      status = 1;
    bool estimateDecides =
        !explicitTolerance && stats.within && stats.zerosWithin;
    if (printEstimate(*hardware, nodes, stats, estimateDecides,
                      explicitTolerance ? "--atol/--rtol" : "the error bound",
                      *options.out))
      status = 1;
    if (stats.topOneSamples)
      *options.out << "top-1 agreement with the float reference: "
                   << stats.topOneAgreeing << " of " << stats.topOneSamples
                   << " samples\n";
  }
  if (!options.rtlDirectory.empty() && simulate(*hardware, samples, options))
    status = 1;
  return status;
}
