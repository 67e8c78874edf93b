//===- ResourceReport.cpp - Synthesise an exported design -----------------===//

#include "mav/Hardware/ResourceReport.h"
#include "ResourceFigures.h"
#include "mav/Hardware/ExternalTool.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mav;
using namespace mav::synthesis;

namespace {

/// The cell counts of the (single, flattened) module of a `stat -json`.
Expected<json::Object> readStat(StringRef path) {
  auto buffer = MemoryBuffer::getFile(path);
  if (!buffer)
    return makeFileError(path, "Yosys wrote no statistics");
  Expected<json::Value> value = json::parse((*buffer)->getBuffer());
  if (!value)
    return makeFileError(path, toString(value.takeError()));
  const json::Object *root = value->getAsObject();
  const json::Object *modules = root ? root->getObject("modules") : nullptr;
  if (!modules || modules->size() != 1)
    return makeFileError(path, "expected the statistics of one flat module");
  const json::Object *module = modules->begin()->second.getAsObject();
  if (!module)
    return makeFileError(path, "malformed statistics");
  return *module;
}

int64_t countCells(const json::Object &module,
                   function_ref<bool(StringRef)> matches) {
  int64_t count = 0;
  if (const json::Object *cells = module.getObject("num_cells_by_type"))
    for (const auto &[type, number] : *cells)
      if (matches(type))
        count += number.getAsInteger().value_or(0);
  return count;
}

bool isGenericFlipFlop(StringRef type) {
  return type.contains("DFF") || type.contains("DLATCH") ||
         type.starts_with("$_SR");
}

bool isXilinxFlipFlop(StringRef type) {
  return type == "FDRE" || type == "FDSE" || type == "FDCE" || type == "FDPE";
}

/// Distributed RAM (RAM32M, RAM64X1D, ...), not block RAM (RAMB18E1).
bool isLutRam(StringRef type) {
  return type.starts_with("RAM") && !type.starts_with("RAMB");
}

} // namespace

Expected<SmallVector<std::string>> synthesis::readFileList(StringRef fileList) {
  auto list = MemoryBuffer::getFile(fileList);
  if (!list)
    return makeFileError(fileList,
                         "cannot read (" + list.getError().message() +
                             "): export the design with mav-translate "
                             "--export-verilog");
  SmallVector<StringRef> lines;
  (*list)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  SmallVector<std::string> files;
  for (StringRef line : lines)
    if (!line.trim().empty())
      files.push_back(line.trim().str());
  return files;
}

std::pair<std::string, std::string>
synthesis::synthesisScripts(StringRef read, StringRef top,
                            const StatFiles &stats, int64_t memoryLimitWords) {
  std::string topName = top.str();
  std::string synth = "synth -flatten -top " + topName, cutGeneric, cutXilinx;
  if (memoryLimitWords > 0) {
    std::string large = "r:SIZE>=" + std::to_string(memoryLimitWords) + " %i";
    // A large ROM (and, for synth_xilinx, a large RAM) becomes an opaque
    // cell whose read data are free inputs of the module: the logic it
    // feeds and the address logic that drives it stay, its storage is not
    // mapped. The dump tells the caller their sizes.
    std::string select = "memory_collect; select -set mav_roms t:$mem_v2 "
                         "r:WR_PORTS=0 %i " +
                         large + "; ";
    std::string expose = "setundef -undriven -expose; ";
    cutGeneric = select +
                 "setparam -unset INIT @mav_roms; chtype -set $__MAV_ROM "
                 "@mav_roms; " +
                 expose;
    cutXilinx = select + "select -set mav_rams t:$mem_v2 " + large +
                " @mav_roms %d; setparam -unset INIT @mav_roms @mav_rams; "
                "chtype -set $__MAV_ROM @mav_roms; chtype -set $__MAV_RAM "
                "@mav_rams; tee -q -o " +
                stats.leftOut + " dump t:$__MAV_ROM t:$__MAV_RAM; " + expose;
    // `synth`'s `fine` step spelled out (yosys help synth), so that
    // memory_map leaves the large RAMs as $mem_v2 cells.
    synth += " -run begin:fine; setattr -set mav_kept 1 t:$mem_v2 " + large +
             "; opt -fast -full; memory_map -attr !mav_kept; opt -full; "
             "techmap; opt -fast; abc -fast; opt -fast";
  }
  std::string generic = read.str() + "hierarchy -top " + topName +
                        "; proc; flatten; tee -q -o " + stats.memory +
                        " stat -json; " + cutGeneric + synth + "; tee -q -o " +
                        stats.generic + " stat -json";
  std::string xilinx = read.str() +
                       (cutXilinx.empty() ? ""
                                          : "hierarchy -top " + topName +
                                                "; proc; " + cutXilinx) +
                       "synth_xilinx -flatten -top " + topName +
                       "; tee -q -o " + stats.xilinx + " stat -json";
  return {generic, xilinx};
}

Expected<json::Object> synthesis::readFigures(const StatFiles &stats,
                                              bool byType) {
  Expected<json::Object> memory = readStat(stats.memory);
  if (!memory)
    return memory.takeError();
  Expected<json::Object> cells = readStat(stats.generic);
  if (!cells)
    return cells.takeError();
  Expected<json::Object> fpga = readStat(stats.xilinx);
  if (!fpga)
    return fpga.takeError();
  auto prefixed = [](StringRef prefix) {
    return [prefix](StringRef type) { return type.starts_with(prefix); };
  };
  auto exactly = [](StringRef name) {
    return [name](StringRef type) { return type == name; };
  };
  int64_t ramb18 = countCells(*fpga, exactly("RAMB18E1"));
  int64_t ramb36 = countCells(*fpga, exactly("RAMB36E1"));
  json::Object generic{
      {"cells", cells->getInteger("num_cells").value_or(0)},
      {"flip_flops", countCells(*cells, isGenericFlipFlop)},
      {"memory_bits", memory->getInteger("num_memory_bits").value_or(0)}};
  json::Object xilinx{{"luts", countCells(*fpga, prefixed("LUT"))},
                      {"flip_flops", countCells(*fpga, isXilinxFlipFlop)},
                      {"dsps", countCells(*fpga, prefixed("DSP48"))},
                      {"bram_18k", ramb18 + 2 * ramb36},
                      {"lutram", countCells(*fpga, isLutRam)},
                      {"carry", countCells(*fpga, prefixed("CARRY"))}};
  if (byType) {
    auto types = [](const json::Object &stat) {
      const json::Object *found = stat.getObject("num_cells_by_type");
      return found ? *found : json::Object();
    };
    generic["cells_by_type"] = types(*cells);
    xilinx["cells_by_type"] = types(*fpga);
  }
  return json::Object{{"generic", std::move(generic)},
                      {"xilinx", std::move(xilinx)}};
}

std::string synthesis::yosysErrorLine(StringRef message) {
  SmallVector<StringRef> lines;
  message.split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef line : lines)
    if (line.contains("ERROR:"))
      return line.trim().str();
  return lines.empty() ? std::string() : lines.back().trim().str();
}

Expected<json::Object> synthesis::synthesizeDesign(StringRef directory,
                                                   bool byType) {
  SmallString<256> absolute(directory);
  if (std::error_code error = sys::fs::make_absolute(absolute))
    return makeFileError(directory, error.message());
  SmallString<256> fileList(absolute);
  sys::path::append(fileList, "filelist.f");
  Expected<SmallVector<std::string>> files = synthesis::readFileList(fileList);
  if (!files)
    return files.takeError();
  std::string read = "read_verilog -defer -sv " + join(*files, " ") + "; ";

  SmallString<256> work;
  if (std::error_code error = sys::fs::createUniqueDirectory("mav-synth", work))
    return makeFileError("mav-synth", error.message());
  auto path = [&](StringRef name) {
    SmallString<256> result(work);
    sys::path::append(result, name);
    return std::string(result);
  };
  StatFiles stats{path("memory.json"), path("generic.json"),
                  path("xilinx.json")};
  std::string log = path("yosys.log");
  auto [generic, xilinx] = synthesisScripts(read, "top", stats, 0);
  auto cleanup = make_scope_exit([&] { sys::fs::remove_directories(work); });
  for (const std::string &script : {generic, xilinx})
    if (Error error = runTool("yosys", {"-q", "-p", script}, absolute, log))
      return makeFileError(fileList,
                           "yosys failed on the whole design: " +
                               yosysErrorLine(toString(std::move(error))));
  return readFigures(stats, byType);
}

Expected<json::Object> mav::reportResources(StringRef directory) {
  Expected<json::Object> figures = synthesizeDesign(directory, false);
  if (!figures)
    return figures.takeError();
  json::Object report{{"tool", "Yosys"}};
  for (auto &[key, value] : *figures)
    report[key] = std::move(value);
  return report;
}

namespace {

void summarizeFigures(raw_ostream &os, const json::Object &report) {
  auto get = [&](StringRef section, StringRef key) {
    const json::Object *object = report.getObject(section);
    return object ? object->getInteger(key).value_or(0) : 0;
  };
  const json::Object *generic = report.getObject("generic");
  if (generic && !generic->get("cells"))
    os << "generic: not synthesised (--synth-generic=false), "
       << get("generic", "memory_bits") << " memory bits\n";
  else
    os << "generic (yosys synth): " << get("generic", "cells") << " cells, "
       << get("generic", "flip_flops") << " flip-flops, "
       << get("generic", "memory_bits") << " memory bits\n";
  os << "xilinx (yosys synth_xilinx): " << get("xilinx", "luts") << " LUTs, "
     << get("xilinx", "flip_flops") << " flip-flops, " << get("xilinx", "dsps")
     << " DSP48E1, " << get("xilinx", "bram_18k") << " BRAM18 ("
     << get("xilinx", "lutram") << " LUT RAM cells)";
  if (int64_t estimated = get("xilinx", "bram_18k_estimated"))
    os << " + " << estimated << " BRAM18 estimated for the memories left out";
  os << "\n";
}

/// "cells +3 (+0.1%)": a difference and its share of the whole design's.
void summarizeDifference(raw_ostream &os, const json::Object &difference,
                         const json::Object &whole) {
  bool first = true;
  for (StringRef section : {"generic", "xilinx"}) {
    const json::Object *delta = difference.getObject(section);
    const json::Object *base = whole.getObject(section);
    if (!delta || !base)
      continue;
    for (StringRef key : {"cells", "flip_flops", "memory_bits", "luts", "dsps",
                          "bram_18k", "lutram", "carry"}) {
      std::optional<int64_t> value = delta->getInteger(key);
      if (!value)
        continue;
      int64_t reference = base->getInteger(key).value_or(0);
      auto sign = [](double number) { return number > 0 ? "+" : ""; };
      os << (first ? "" : ", ") << section << " " << key << " " << sign(*value)
         << *value;
      if (reference != 0) {
        double percent = 100.0 * *value / reference;
        os << " (" << sign(percent) << formatv("{0:f1}", percent) << "%)";
      }
      first = false;
    }
  }
  os << "\n";
}

} // namespace

std::string mav::summarizeResources(const json::Object &report) {
  std::string text;
  raw_string_ostream os(text);
  const json::Array *configurations = report.getArray("configurations");
  if (!configurations) {
    summarizeFigures(os, report);
    return text;
  }
  for (const json::Value &value : *configurations) {
    const json::Object *entry = value.getAsObject();
    const json::Object *generic = entry->getObject("generic");
    const json::Object *xilinx = entry->getObject("xilinx");
    const json::Array *instances = entry->getArray("instances");
    int64_t estimated = xilinx->getInteger("bram_18k_estimated").value_or(0);
    os << formatv(
        "  {0} {1} x{2}: {3} cells, {4} LUTs, {5} DSP48E1, {6} "
        "BRAM18{8} ({7})\n",
        entry->getString("module").value_or(""),
        instances->front().getAsString().value_or(""),
        entry->getInteger("count").value_or(0),
        generic->getInteger("cells").value_or(0),
        xilinx->getInteger("luts").value_or(0),
        xilinx->getInteger("dsps").value_or(0),
        xilinx->getInteger("bram_18k").value_or(0),
        entry->getBoolean("cached").value_or(false)
            ? std::string("cached")
            : formatv("{0:f1} s", entry->getNumber("seconds").value_or(0))
                  .str(),
        estimated ? formatv(" + {0} estimated", estimated).str()
                  : std::string());
  }
  os << "by instance: " << configurations->size() << " configurations, "
     << report.getInteger("instances").value_or(0) << " instances ("
     << report.getInteger("synthesised").value_or(0) << " synthesised, "
     << report.getInteger("cached").value_or(0) << " from the cache)\n";
  summarizeFigures(os, report);
  const json::Object *whole = report.getObject("whole_design");
  const json::Object *difference = report.getObject("difference");
  if (whole && difference) {
    os << "whole design:\n";
    summarizeFigures(os, *whole);
    os << "difference (sum - whole design): ";
    summarizeDifference(os, *difference, *whole);
  }
  return text;
}
