//===- InstanceResources.cpp - Synthesise a design instance by instance ---===//
//
// `--resources-by=instance`: each distinct configuration of top.sv (a module
// and its parameter values) is synthesised once, with the instance's own ROM
// files, by the scripts of the whole-design report; the figures are cached
// on disk under a hash of everything Yosys reads, and summed by instance
// count. top.sv holds no logic of its own (parseTopInstances checks), so the
// sum has no glue term.
//
//===----------------------------------------------------------------------===//

#include "ResourceFigures.h"
#include "mav/Hardware/ExternalTool.h"
#include "mav/Hardware/ResourceReport.h"
#include "mav/Support/AtomicOutput.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <chrono>
#include <climits>
#include <cmath>
#include <set>

using namespace llvm;
using namespace mav;
using namespace mav::synthesis;

namespace {

/// Bump when the scripts or the figures change: it is part of every key.
constexpr StringLiteral kRecipe = "mav-resources-by-instance 2";

/// A ROM left out of synthesis (--synth-memory-limit): synthesised without
/// its file, keyed by its size.
struct EstimatedRom {
  std::string parameter;
  int64_t words, width;
};

/// What is synthesised once: a module with one set of parameter values (a
/// ROM left out counts by its size, not its file), and its instances.
struct Configuration {
  const TopInstance *first = nullptr;
  SmallVector<std::string> instances;
  /// For chparam: a ROM left out has no file.
  SmallVector<std::pair<std::string, std::string>> parameters;
  SmallVector<EstimatedRom> estimated;
};

/// RAMB18E1s for a ROM of `words` × `width` bits: the best of the block's
/// aspect ratios (16K × 1 ... 1K × 18, 512 × 36).
int64_t estimateBram18(int64_t words, int64_t width) {
  static const std::pair<int64_t, int64_t> shapes[] = {
      {16384, 1}, {8192, 2}, {4096, 4}, {2048, 9}, {1024, 18}, {512, 36}};
  int64_t best = INT64_MAX;
  for (auto [depth, bits] : shapes)
    best = std::min<int64_t>(best, divideCeil(words, depth) *
                                       divideCeil(width, bits));
  return best;
}

/// The design's sources: which file defines which module, and their text.
struct Sources {
  StringMap<std::string> fileOfModule;
  StringMap<std::unique_ptr<MemoryBuffer>> text;

  /// The files that `module` needs: its own, and those of every module its
  /// files name (a superset, which only makes the key stricter).
  std::set<std::string> closure(StringRef module) const {
    std::set<std::string> files;
    SmallVector<std::string> work = {fileOfModule.lookup(module)};
    while (!work.empty()) {
      std::string file = work.pop_back_val();
      if (!files.insert(file).second)
        continue;
      StringRef body = text.find(file)->second->getBuffer();
      for (const auto &entry : fileOfModule)
        if (containsWord(body, entry.getKey()))
          work.push_back(entry.getValue());
    }
    return files;
  }

  static bool containsWord(StringRef body, StringRef word) {
    auto isWordChar = [](char c) { return isAlnum(c) || c == '_'; };
    for (size_t at = body.find(word); at != StringRef::npos;
         at = body.find(word, at + 1)) {
      size_t end = at + word.size();
      if ((at == 0 || !isWordChar(body[at - 1])) &&
          (end == body.size() || !isWordChar(body[end])))
        return true;
    }
    return false;
  }
};

Expected<Sources> readSources(StringRef directory, StringRef fileList) {
  Expected<SmallVector<std::string>> files = synthesis::readFileList(fileList);
  if (!files)
    return files.takeError();
  Sources sources;
  for (StringRef file : *files) {
    if (file == "top.sv")
      continue;
    SmallString<256> path(directory);
    sys::path::append(path, file);
    auto buffer = MemoryBuffer::getFile(path);
    if (!buffer)
      return makeFileError(path, "cannot read (" + buffer.getError().message() +
                                     "), listed in " + fileList);
    SmallVector<StringRef> lines;
    (*buffer)->getBuffer().split(lines, '\n');
    for (StringRef line : lines) {
      StringRef text = line.trim();
      if (!text.consume_front("module "))
        continue;
      StringRef name =
          text.take_while([](char c) { return isAlnum(c) || c == '_'; });
      if (!name.empty())
        sources.fileOfModule[name] = file.str();
    }
    sources.text[file] = std::move(*buffer);
  }
  return sources;
}

/// A ROM file an instance names: the value of a string parameter.
std::optional<StringRef> romFile(StringRef value) {
  if (value.size() > 2 && value.front() == '"' && value.back() == '"')
    return value.drop_front().drop_back();
  return std::nullopt;
}

Expected<std::string> yosysVersion(StringRef work) {
  SmallString<256> log(work);
  sys::path::append(log, "version.log");
  if (Error error = runTool("yosys", {"-V"}, work, log))
    return std::move(error);
  auto buffer = MemoryBuffer::getFile(log);
  if (!buffer)
    return makeFileError(log, "cannot read");
  return (*buffer)->getBuffer().trim().str();
}

/// The memories synth_xilinx left out, from their `dump`: kind, words,
/// width, bits, estimated RAMB18s.
json::Array readLeftOut(StringRef path) {
  json::Array memories;
  auto buffer = MemoryBuffer::getFile(path);
  if (!buffer)
    return memories; // no memory limit, or nothing left out
  std::optional<json::Object> current;
  auto finish = [&] {
    if (!current)
      return;
    int64_t words = current->getInteger("words").value_or(0);
    int64_t width = current->getInteger("width").value_or(0);
    (*current)["bits"] = words * width;
    (*current)["bram_18k"] = estimateBram18(words, width);
    memories.push_back(std::move(*current));
    current.reset();
  };
  SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (StringRef line : lines) {
    SmallVector<StringRef> words;
    line.split(words, ' ', -1, /*KeepEmpty=*/false);
    if (words.size() >= 2 && words[0] == "cell") {
      finish();
      current =
          json::Object{{"kind", words[1] == "$__MAV_ROM" ? "rom" : "ram"}};
    } else if (current && words.size() >= 3 && words[0] == "parameter") {
      StringRef name = words[words.size() - 2], value = words.back();
      StringRef key = name == "\\SIZE"    ? "words"
                      : name == "\\WIDTH" ? "width"
                                          : "";
      if (key.empty())
        continue;
      int64_t number = 0;
      if (size_t quote = value.find('\''); quote != StringRef::npos)
        value.drop_front(quote + 1).getAsInteger(2, number);
      else
        value.getAsInteger(10, number);
      (*current)[key] = number;
    } else if (words.size() == 1 && words[0] == "end") {
      finish();
    }
  }
  finish();
  return memories;
}

json::Object
parametersObject(ArrayRef<std::pair<std::string, std::string>> values) {
  json::Object parameters;
  for (const auto &[name, value] : values)
    parameters[name] = romFile(value) ? romFile(value)->str() : value;
  return parameters;
}

/// Adds `figures` times `count` into `sum` (integers, and `cells_by_type`).
void accumulate(json::Object &sum, const json::Object &figures, int64_t count) {
  for (const auto &[key, value] : figures) {
    if (std::optional<int64_t> number = value.getAsInteger()) {
      sum[key] = sum.getInteger(key).value_or(0) + *number * count;
    } else if (const json::Object *types = value.getAsObject()) {
      json::Value &slot = sum[key];
      if (!slot.getAsObject())
        slot = json::Object();
      accumulate(*slot.getAsObject(), *types, count);
    }
  }
}

/// `sum` - `whole` for every figure and cell type in either; cell types
/// whose counts agree are left out.
json::Object difference(const json::Object &sum, const json::Object &whole,
                        bool cellTypes = false) {
  json::Object result;
  std::set<std::string> keys;
  for (const auto &[key, value] : sum)
    keys.insert(key.str());
  for (const auto &[key, value] : whole)
    keys.insert(key.str());
  for (const std::string &key : keys) {
    const json::Object *a = sum.getObject(key), *b = whole.getObject(key);
    if (a || b) {
      json::Object types =
          difference(a ? *a : json::Object(), b ? *b : json::Object(), true);
      result[key] = std::move(types);
      continue;
    }
    int64_t delta =
        sum.getInteger(key).value_or(0) - whole.getInteger(key).value_or(0);
    if (delta != 0 || !cellTypes)
      result[key] = delta;
  }
  return result;
}

} // namespace

std::string mav::defaultSynthesisCache() {
  SmallString<256> path;
  if (!sys::path::cache_directory(path))
    return "";
  sys::path::append(path, "mav", "synth");
  return std::string(path);
}

Expected<json::Object>
mav::reportResourcesByInstance(StringRef directory,
                               const InstanceSynthesisOptions &options) {
  SmallString<256> absolute(directory);
  if (std::error_code error = sys::fs::make_absolute(absolute))
    return makeFileError(directory, error.message());
  SmallString<256> fileList(absolute), top(absolute);
  sys::path::append(fileList, "filelist.f");
  sys::path::append(top, "top.sv");
  Expected<Sources> sources = readSources(absolute, fileList);
  if (!sources)
    return sources.takeError();
  Expected<std::vector<TopInstance>> instances = parseTopInstances(top);
  if (!instances)
    return instances.takeError();

  auto where = [&](const TopInstance &instance) {
    return (top + ":" + Twine(instance.line) + ": instance " + instance.name +
            " (" + instance.module + ")")
        .str();
  };
  auto romPath = [&](StringRef file) {
    SmallString<256> path(absolute);
    sys::path::append(path, file);
    return std::string(path);
  };
  // The ROM file `file` of parameter `name` of `instance`.
  auto readRom = [&](StringRef file, StringRef name,
                     const TopInstance &instance)
      -> Expected<std::unique_ptr<MemoryBuffer>> {
    std::string path = romPath(file);
    auto buffer = MemoryBuffer::getFile(path);
    if (!buffer)
      return makeFileError(path, "cannot read (" + buffer.getError().message() +
                                     "), parameter " + name + " of " +
                                     where(instance));
    return std::move(*buffer);
  };
  std::vector<Configuration> configurations;
  StringMap<unsigned> configurationOf;
  for (const TopInstance &instance : *instances) {
    if (!sources->fileOfModule.count(instance.module))
      return makeFileError(top + ":" + Twine(instance.line),
                           "instance " + instance.name + ": module " +
                               instance.module +
                               " is defined by no file of filelist.f");
    std::optional<int64_t> width;
    for (const auto &[name, value] : instance.parameters)
      if (name == "DATA_WIDTH")
        width = std::stoll("0" + value); // digits, as TopLevel.cpp writes
    std::string key = instance.module + " #(";
    SmallVector<std::pair<std::string, std::string>> parameters;
    SmallVector<EstimatedRom> estimated;
    for (const auto &[name, value] : instance.parameters) {
      std::optional<StringRef> rom = romFile(value);
      if (!rom || options.memoryLimitWords <= 0 || !width) {
        key += "." + name + "(" + value + ") ";
        parameters.push_back({name, value});
        continue;
      }
      Expected<std::unique_ptr<MemoryBuffer>> buffer =
          readRom(*rom, name, instance);
      if (!buffer)
        return buffer.takeError();
      int64_t words =
          count_if(split((*buffer)->getBuffer(), '\n'), [](StringRef line) {
            return !line.trim().empty() && !line.trim().starts_with("//");
          });
      if (words < options.memoryLimitWords) {
        key += "." + name + "(" + value + ") ";
        parameters.push_back({name, value});
        continue;
      }
      key += "." + name + "(<" + std::to_string(words) + " words>) ";
      parameters.push_back({name, "\"\""});
      estimated.push_back({name, words, *width});
    }
    auto [slot, inserted] =
        configurationOf.try_emplace(key + ")", configurations.size());
    if (inserted)
      configurations.emplace_back();
    Configuration &configuration = configurations[slot->second];
    if (!configuration.first) {
      configuration.first = &instance;
      configuration.parameters = std::move(parameters);
      configuration.estimated = std::move(estimated);
    }
    configuration.instances.push_back(instance.name);
  }

  SmallString<256> work;
  if (std::error_code error = sys::fs::createUniqueDirectory("mav-synth", work))
    return makeFileError("mav-synth", error.message());
  auto cleanup = make_scope_exit([&] { sys::fs::remove_directories(work); });
  auto path = [&](StringRef name) {
    SmallString<256> result(work);
    sys::path::append(result, name);
    return std::string(result);
  };
  Expected<std::string> version = yosysVersion(work);
  if (!version)
    return version.takeError();
  if (!options.cacheDirectory.empty())
    if (std::error_code error =
            sys::fs::create_directories(options.cacheDirectory))
      return makeFileError(options.cacheDirectory,
                           "cannot create the synthesis cache: " +
                               error.message());

  json::Array reports;
  json::Object generic, xilinx;
  int64_t synthesized = 0, cached = 0;
  for (auto [index, configuration] : llvm::enumerate(configurations)) {
    const TopInstance &instance = *configuration.first;

    // The key: everything Yosys reads, and how it is run.
    SHA256 hash;
    auto add = [&](StringRef text) {
      hash.update(text);
      hash.update(StringRef("\0", 1));
    };
    add(kRecipe);
    add(*version);
    add(std::to_string(options.memoryLimitWords));
    add(options.genericFlow ? "generic and xilinx" : "xilinx");
    add(instance.module);
    std::set<std::string> files = sources->closure(instance.module);
    for (const std::string &file : files) {
      add(file);
      add(sources->text.find(file)->second->getBuffer());
    }
    std::string chparam = "chparam";
    for (const auto &[name, value] : configuration.parameters) {
      add(name);
      chparam += " -set " + name + " " + value;
      std::optional<StringRef> rom = romFile(value);
      if (!rom) {
        add(value);
        continue;
      }
      // The contents, not the name: a ROM's values decide what Yosys keeps.
      Expected<std::unique_ptr<MemoryBuffer>> buffer =
          readRom(*rom, name, instance);
      if (!buffer)
        return buffer.takeError();
      add((*buffer)->getBuffer());
    }
    for (const EstimatedRom &rom : configuration.estimated)
      add(rom.parameter + " " + std::to_string(rom.words) + " words");
    std::string key = toHex(hash.final(), /*LowerCase=*/true);
    SmallString<256> cacheFile(options.cacheDirectory);
    sys::path::append(cacheFile, key + ".json");

    json::Object result;
    bool hit = false;
    auto buffer = options.cacheDirectory.empty()
                      ? ErrorOr<std::unique_ptr<MemoryBuffer>>(
                            std::make_error_code(std::errc::invalid_argument))
                      : MemoryBuffer::getFile(cacheFile);
    if (buffer) {
      // A damaged entry is synthesised again and rewritten.
      Expected<json::Value> value = json::parse((*buffer)->getBuffer());
      json::Object *object = value ? value->getAsObject() : nullptr;
      if (object && object->getObject("generic") &&
          object->getObject("xilinx")) {
        result = std::move(*object);
        hit = true;
      }
      if (!value)
        consumeError(value.takeError());
    }
    if (!hit) {
      auto start = std::chrono::steady_clock::now();
      StatFiles stats{path("memory.json"), path("generic.json"),
                      path("xilinx.json"), path("left-out.il")};
      std::string read = "read_verilog -defer -sv " + join(files, " ") + "; " +
                         chparam + " " + instance.module + "; ";
      auto [genericScript, xilinxScript] = synthesisScripts(
          read, instance.module, stats, options.memoryLimitWords);
      // Without the generic flow, only its first step: the memory bits.
      if (!options.genericFlow)
        genericScript = read + "hierarchy -top " + instance.module +
                        "; proc; flatten; tee -q -o " + stats.memory +
                        " stat -json; tee -q -o " + stats.generic +
                        " stat -json";
      for (const std::string &script : {genericScript, xilinxScript})
        if (Error error =
                runTool("yosys", {"-q", "-p", script}, absolute, path("log")))
          return createStringError(
              inconvertibleErrorCode(),
              where(instance) + ": yosys failed: " +
                  yosysErrorLine(toString(std::move(error))));
      Expected<json::Object> figures = readFigures(stats, /*byType=*/true);
      if (!figures)
        return makeFileError(where(instance), toString(figures.takeError()));
      result = std::move(*figures);
      if (!options.genericFlow)
        result["generic"] = json::Object{
            {"memory_bits",
             result.getObject("generic")->getInteger("memory_bits")}};
      result["left_out"] = readLeftOut(stats.leftOut);
      double seconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
      result["seconds"] = std::round(seconds * 10) / 10;
      result["module"] = instance.module;
      result["parameters"] = parametersObject(configuration.parameters);
      result["yosys"] = *version;
      if (!options.cacheDirectory.empty())
        if (Error error = writeFileAtomically(cacheFile, [&](raw_ostream &os) {
              os << formatv("{0:2}", json::Value(json::Object(result))) << "\n";
              return Error::success();
            }))
          return makeFileError(cacheFile, "cannot write the synthesis cache: " +
                                              toString(std::move(error)));
    }
    ++(hit ? cached : synthesized);

    int64_t count = configuration.instances.size();
    const json::Object *genericFigures = result.getObject("generic");
    json::Object *xilinxFigures = result.getObject("xilinx");
    int64_t estimatedBram = 0;
    json::Array leftOut;
    if (const json::Array *memories = result.getArray("left_out"))
      leftOut = *memories;
    for (const json::Value &memory : leftOut)
      if (const json::Object *object = memory.getAsObject())
        estimatedBram += object->getInteger("bram_18k").value_or(0);
    (*xilinxFigures)["bram_18k_estimated"] = estimatedBram;
    accumulate(generic, *genericFigures, count);
    accumulate(xilinx, *xilinxFigures, count);
    const json::Object *genericTypes =
        genericFigures->getObject("cells_by_type");
    auto cellsOf = [&](StringRef type) {
      return genericTypes ? genericTypes->getInteger(type).value_or(0) : 0;
    };
    json::Object shown = parametersObject(configuration.parameters);
    for (const EstimatedRom &rom : configuration.estimated)
      shown[rom.parameter] = formatv("<{0} words, not synthesised>", rom.words);
    json::Array names;
    for (const std::string &name : configuration.instances)
      names.push_back(name);
    json::Object report{{"module", instance.module},
                        {"parameters", std::move(shown)},
                        {"instances", std::move(names)},
                        {"count", count},
                        {"key", key},
                        {"cached", hit},
                        {"seconds", result.getNumber("seconds").value_or(0)},
                        {"unsynthesised_roms", cellsOf("$__MAV_ROM")},
                        {"unmapped_rams", cellsOf("$mem_v2")},
                        {"left_out", std::move(leftOut)},
                        {"generic", json::Object(*genericFigures)},
                        {"xilinx", json::Object(*xilinxFigures)}};
    if (options.progress)
      options.progress(
          formatv("[{0}/{1}] {2} {3} (x{4}): {5}", index + 1,
                  configurations.size(), instance.module, instance.name, count,
                  hit ? std::string("from the cache")
                      : formatv("synthesised in {0:f1} s",
                                report.getNumber("seconds").value_or(0))
                            .str())
              .str());
    reports.push_back(std::move(report));
  }

  json::Object report{
      {"tool", "Yosys"},
      {"yosys", *version},
      {"by", "instance"},
      {"cache", options.cacheDirectory},
      {"memory_limit_words", options.memoryLimitWords},
      {"generic_flow", options.genericFlow},
      {"configurations", std::move(reports)},
      {"instances", static_cast<int64_t>(instances->size())},
      {"synthesised", synthesized},
      {"cached", cached},
      {"glue", "none: top.sv holds only instances, wires and assigns"},
      {"generic", std::move(generic)},
      {"xilinx", std::move(xilinx)}};
  if (options.compareWithDesign) {
    Expected<json::Object> whole = synthesizeDesign(absolute, /*byType=*/true);
    if (!whole)
      return whole.takeError();
    json::Object delta;
    for (StringRef section : {"generic", "xilinx"})
      delta[section] =
          difference(*report.getObject(section), *whole->getObject(section));
    report["whole_design"] = std::move(*whole);
    report["difference"] = std::move(delta);
  }
  return report;
}
