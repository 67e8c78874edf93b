//===- RtlSimulation.cpp - Check a design against the model ---------------===//
//
// The tools run with the design directory as their working directory, so
// that the ROM file names in top.sv resolve; everything they build goes to
// the work directory.
//
//===----------------------------------------------------------------------===//

#include "mav/Hardware/RtlSimulation.h"
#include "Testbenches.h"
#include "mav/Hardware/ExternalTool.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mav;

namespace {

Expected<FixedFormat> readStream(const json::Object &root, StringRef key,
                                 int64_t &words, int64_t &parallelism,
                                 const Twine &path) {
  const json::Object *stream = root.getObject(key);
  std::optional<int64_t> width =
      stream ? stream->getInteger("width") : std::nullopt;
  std::optional<int64_t> frac =
      stream ? stream->getInteger("frac") : std::nullopt;
  std::optional<int64_t> count =
      stream ? stream->getInteger("words") : std::nullopt;
  std::optional<int64_t> perBeat =
      stream ? stream->getInteger("parallelism") : std::nullopt;
  if (!width || !frac || !count || !perBeat || *width < 1 || *width > 64 ||
      *count < 0 || *perBeat < 1 || *count % *perBeat != 0)
    return makeFileError(path, "\"" + key +
                                   "\" needs integer width, frac, words and "
                                   "parallelism (words per beat, dividing "
                                   "words)");
  words = *count;
  parallelism = *perBeat;
  return FixedFormat{*width, *frac};
}

/// Parses the testbench's output.
Expected<RtlSimulationResult> parseLog(StringRef logPath, int64_t expected) {
  auto buffer = MemoryBuffer::getFile(logPath);
  if (!buffer)
    return makeFileError(logPath, "cannot read the simulation log");
  RtlSimulationResult result;
  result.expected = expected;
  bool found = false;
  SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (StringRef line : lines) {
    if (line.starts_with("DIFFER") || line.starts_with("PROTOCOL"))
      result.messages.push_back(line.str());
    if (line.consume_front("MAV-TIMING ")) {
      SmallVector<StringRef> fields;
      line.trim().split(fields, ' ');
      for (StringRef field : fields) {
        auto [key, value] = field.split('=');
        if (key == "first_in")
          (void)value.getAsInteger(10, result.firstInput);
        if (key != "frame_ends")
          continue;
        SmallVector<StringRef> ends;
        value.split(ends, ',', -1, false);
        for (StringRef end : ends) {
          int64_t cycle = 0;
          if (!end.getAsInteger(10, cycle))
            result.frameEnds.push_back(cycle);
        }
      }
      continue;
    }
    if (!line.consume_front("MAV-RESULT "))
      continue;
    found = true;
    SmallVector<StringRef> fields;
    line.split(fields, ' ');
    for (StringRef field : fields) {
      auto [key, value] = field.split('=');
      int64_t number = 0;
      if (value.trim().getAsInteger(10, number))
        continue;
      if (key == "compared")
        result.compared = number;
      else if (key == "differing")
        result.differing = number;
      else if (key == "cycles")
        result.cycles = number;
      else if (key == "protocol")
        result.protocolErrors = number;
      else if (key == "extra")
        result.extraBeats = number;
    }
  }
  if (!found)
    return makeFileError(logPath, "the simulation printed no result:\n" +
                                      (*buffer)->getBuffer().take_back(3000));
  return result;
}

/// Writes a run's words and returns the paths of its files and log.
struct RunFiles {
  SmallString<256> inputs, expected, log;
};

Expected<RunFiles> writeRun(StringRef work, const RtlDesignInfo &design,
                            const RtlRun &run, size_t index) {
  RunFiles files;
  std::string suffix = index ? "-" + std::to_string(index) : "";
  files.inputs = files.expected = files.log = work;
  sys::path::append(files.inputs, "inputs" + suffix + ".hex");
  sys::path::append(files.expected, "expected" + suffix + ".hex");
  sys::path::append(files.log, "simulation" + suffix + ".log");
  if (Error error = writeTextFile(
          files.inputs, formatHexWords(run.inputWords, design.input.width)))
    return std::move(error);
  if (Error error =
          writeTextFile(files.expected,
                        formatHexWords(run.expectedWords, design.output.width)))
    return std::move(error);
  return files;
}

Expected<std::vector<RtlSimulationResult>>
simulateIn(StringRef directory, StringRef work, const RtlDesignInfo &design,
           ArrayRef<RtlRun> runs, const RtlSimulationOptions &options) {
  std::string seed = std::to_string(options.seed);
  std::string maxCycles = std::to_string(options.maxCycles);
  SmallString<256> buildLog(work);
  sys::path::append(buildLog, "build.log");
  std::vector<RtlSimulationResult> results;

  if (options.simulator == Simulator::Verilator) {
    SmallString<256> testbench(work), objects(work);
    sys::path::append(testbench, "tb.cpp");
    sys::path::append(objects, "obj_dir");
    if (Error error = writeTextFile(testbench, makeVerilatorTestbench(design)))
      return std::move(error);
    // Small designs: a quick C++ build matters more than a fast simulation.
    if (Error error =
            runTool("verilator",
                    {"--cc", "--exe", "--build", "-j", "2", "--top-module",
                     "top", "-f", "filelist.f", std::string(testbench),
                     "--Mdir", std::string(objects), "-o", "tb", "-MAKEFLAGS",
                     "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1"},
                    directory, buildLog))
      return std::move(error);
    SmallString<256> binary(objects);
    sys::path::append(binary, "tb");
    for (auto [index, run] : llvm::enumerate(runs)) {
      Expected<RunFiles> files = writeRun(work, design, run, index);
      if (!files)
        return files.takeError();
      if (Error error =
              runTool(binary,
                      {std::string(files->inputs), std::string(files->expected),
                       seed, maxCycles, std::to_string(run.stallPercent)},
                      directory, files->log))
        return std::move(error);
      Expected<RtlSimulationResult> result =
          parseLog(files->log, static_cast<int64_t>(run.expectedWords.size()));
      if (!result)
        return result.takeError();
      results.push_back(std::move(*result));
    }
    return results;
  }
  // Icarus: the testbench's array sizes are the run's, so each run has its
  // own build when the sizes differ.
  for (auto [index, run] : llvm::enumerate(runs)) {
    Expected<RunFiles> files = writeRun(work, design, run, index);
    if (!files)
      return files.takeError();
    std::string suffix = index ? "-" + std::to_string(index) : "";
    SmallString<256> testbench(work), compiled(work);
    sys::path::append(testbench, "tb" + suffix + ".sv");
    sys::path::append(compiled, "tb" + suffix + ".vvp");
    if (Error error = writeTextFile(
            testbench, makeIcarusTestbench(design, run.inputWords.size(),
                                           run.expectedWords.size())))
      return std::move(error);
    if (Error error =
            runTool("iverilog",
                    {"-g2012", "-s", "tb", "-o", std::string(compiled), "-c",
                     "filelist.f", std::string(testbench)},
                    directory, buildLog))
      return std::move(error);
    if (Error error = runTool("vvp",
                              {"-n", std::string(compiled),
                               "+inputs=" + std::string(files->inputs),
                               "+expected=" + std::string(files->expected),
                               "+seed=" + seed, "+max_cycles=" + maxCycles,
                               "+stall=" + std::to_string(run.stallPercent)},
                              directory, files->log))
      return std::move(error);
    Expected<RtlSimulationResult> result =
        parseLog(files->log, static_cast<int64_t>(run.expectedWords.size()));
    if (!result)
      return result.takeError();
    results.push_back(std::move(*result));
  }
  return results;
}

} // namespace

Expected<RtlDesignInfo> mav::readDesignInfo(StringRef directory) {
  SmallString<256> path(directory);
  sys::path::append(path, "design.json");
  auto buffer = MemoryBuffer::getFile(path);
  if (!buffer)
    return makeFileError(path, "cannot read (" + buffer.getError().message() +
                                   "): export the design with mav-translate "
                                   "--export-verilog");
  Expected<json::Value> value = json::parse((*buffer)->getBuffer());
  if (!value)
    return makeFileError(path, toString(value.takeError()));
  const json::Object *root = value->getAsObject();
  if (!root)
    return makeFileError(path, "expected a JSON object");
  RtlDesignInfo design;
  if (std::optional<StringRef> graph = root->getString("graph"))
    design.graph = graph->str();
  Expected<FixedFormat> input = readStream(*root, "input", design.inputWords,
                                           design.inputParallelism, path);
  if (!input)
    return input.takeError();
  Expected<FixedFormat> output = readStream(*root, "output", design.outputWords,
                                            design.outputParallelism, path);
  if (!output)
    return output.takeError();
  design.input = *input;
  design.output = *output;
  if (const json::Array *files = root->getArray("files"))
    for (const json::Value &file : *files)
      if (std::optional<StringRef> name = file.getAsString())
        design.files.push_back(name->str());
  return design;
}

Expected<std::vector<RtlSimulationResult>>
mav::simulateRtlRuns(StringRef directory, const RtlDesignInfo &design,
                     ArrayRef<RtlRun> runs,
                     const RtlSimulationOptions &options) {
  SmallString<256> absolute(directory);
  if (std::error_code error = sys::fs::make_absolute(absolute))
    return makeFileError(directory, error.message());
  if (!options.workDirectory.empty()) {
    if (std::error_code error =
            sys::fs::create_directories(options.workDirectory))
      return makeFileError(options.workDirectory, error.message());
    SmallString<256> work(options.workDirectory);
    (void)sys::fs::make_absolute(work);
    return simulateIn(absolute, work, design, runs, options);
  }
  SmallString<256> work;
  if (std::error_code error = sys::fs::createUniqueDirectory("mav-rtl", work))
    return makeFileError("mav-rtl",
                         "cannot create a work directory: " + error.message());
  Expected<std::vector<RtlSimulationResult>> results =
      simulateIn(absolute, work, design, runs, options);
  sys::fs::remove_directories(work);
  return results;
}

Expected<RtlSimulationResult>
mav::simulateRtl(StringRef directory, const RtlDesignInfo &design,
                 ArrayRef<int64_t> inputWords, ArrayRef<int64_t> expectedWords,
                 const RtlSimulationOptions &options) {
  RtlRun run{inputWords, expectedWords};
  Expected<std::vector<RtlSimulationResult>> results =
      simulateRtlRuns(directory, design, run, options);
  if (!results)
    return results.takeError();
  return std::move(results->front());
}
