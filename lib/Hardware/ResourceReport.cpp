//===- ResourceReport.cpp - Synthesise an exported design -----------------===//

#include "mav/Hardware/ResourceReport.h"
#include "mav/Hardware/ExternalTool.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mav;

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

} // namespace

Expected<json::Object> mav::reportResources(StringRef directory) {
  SmallString<256> absolute(directory);
  if (std::error_code error = sys::fs::make_absolute(absolute))
    return makeFileError(directory, error.message());
  SmallString<256> fileList(absolute);
  sys::path::append(fileList, "filelist.f");
  auto list = MemoryBuffer::getFile(fileList);
  if (!list)
    return makeFileError(fileList,
                         "cannot read (" + list.getError().message() +
                             "): export the design with mav-translate "
                             "--export-verilog");
  SmallVector<StringRef> files;
  (*list)->getBuffer().split(files, '\n', -1, /*KeepEmpty=*/false);
  std::string read = "read_verilog -defer -sv " + join(files, " ") + "; ";

  SmallString<256> work;
  if (std::error_code error = sys::fs::createUniqueDirectory("mav-synth", work))
    return makeFileError("mav-synth", error.message());
  auto path = [&](StringRef name) {
    SmallString<256> result(work);
    sys::path::append(result, name);
    return std::string(result);
  };
  std::string memoryStat = path("memory.json"),
              genericStat = path("generic.json"),
              xilinxStat = path("xilinx.json"), log = path("yosys.log");
  std::string generic = read + "hierarchy -top top; proc; flatten; tee -q -o " +
                        memoryStat +
                        " stat -json; synth -flatten -top top; tee -q -o " +
                        genericStat + " stat -json";
  std::string xilinx = read + "synth_xilinx -flatten -top top; tee -q -o " +
                       xilinxStat + " stat -json";
  auto cleanup = make_scope_exit([&] { sys::fs::remove_directories(work); });
  for (const std::string &script : {generic, xilinx})
    if (Error error = runTool("yosys", {"-q", "-p", script}, absolute, log))
      return std::move(error);

  Expected<json::Object> memory = readStat(memoryStat);
  if (!memory)
    return memory.takeError();
  Expected<json::Object> cells = readStat(genericStat);
  if (!cells)
    return cells.takeError();
  Expected<json::Object> fpga = readStat(xilinxStat);
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
  return json::Object{
      {"tool", "Yosys"},
      {"generic",
       json::Object{
           {"cells", cells->getInteger("num_cells").value_or(0)},
           {"flip_flops", countCells(*cells, isGenericFlipFlop)},
           {"memory_bits", memory->getInteger("num_memory_bits").value_or(0)}}},
      {"xilinx",
       json::Object{{"luts", countCells(*fpga, prefixed("LUT"))},
                    {"flip_flops", countCells(*fpga, isXilinxFlipFlop)},
                    {"dsps", countCells(*fpga, prefixed("DSP48"))},
                    {"bram_18k", ramb18 + 2 * ramb36},
                    {"lutram", countCells(*fpga, prefixed("RAM"))},
                    {"carry", countCells(*fpga, prefixed("CARRY"))}}}};
}

std::string mav::summarizeResources(const json::Object &report) {
  std::string text;
  raw_string_ostream os(text);
  auto get = [&](StringRef section, StringRef key) {
    const json::Object *object = report.getObject(section);
    return object ? object->getInteger(key).value_or(0) : 0;
  };
  os << "generic (yosys synth): " << get("generic", "cells") << " cells, "
     << get("generic", "flip_flops") << " flip-flops, "
     << get("generic", "memory_bits") << " memory bits\n"
     << "xilinx (yosys synth_xilinx): " << get("xilinx", "luts") << " LUTs, "
     << get("xilinx", "flip_flops") << " flip-flops, " << get("xilinx", "dsps")
     << " DSP48E1, " << get("xilinx", "bram_18k") << " BRAM18 ("
     << get("xilinx", "lutram") << " LUT RAM cells)\n";
  return text;
}
