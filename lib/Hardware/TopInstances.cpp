//===- TopInstances.cpp - The instances of an exported top.sv -------------===//
//
// Reads back the format lib/Export/Verilog/TopLevel.cpp writes:
//   MODULE #(
//     .P(v),
//     ...
//   ) u_name (
//     .port(signal),
//     ...
//   );
// design.json lists files, not instances, so top.sv is the one place that
// names them.
//
//===----------------------------------------------------------------------===//

#include "mav/Hardware/ExternalTool.h"
#include "mav/Hardware/ResourceReport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace mav;

namespace {

bool isIdentifier(StringRef text) {
  return !text.empty() && !isDigit(text.front()) &&
         llvm::all_of(text, [](char c) { return isAlnum(c) || c == '_'; });
}

/// Lines top.sv may hold outside instances: no logic of its own.
bool isGlueLine(StringRef line) {
  StringRef text = line.trim();
  return text.empty() || text.starts_with("//") || text.starts_with("logic ") ||
         text.starts_with("assign ") || text.starts_with("input ") ||
         text.starts_with("output ") || text == "module top (" ||
         text == ");" || text == "endmodule";
}

} // namespace

Expected<std::vector<TopInstance>> mav::parseTopInstances(StringRef path) {
  auto buffer = MemoryBuffer::getFile(path);
  if (!buffer)
    return makeFileError(path, "cannot read (" + buffer.getError().message() +
                                   "): export the design with mav-translate "
                                   "--export-verilog");
  SmallVector<StringRef> lines;
  StringRef text = (*buffer)->getBuffer();
  text.consume_back("\n");
  text.split(lines, '\n');
  std::vector<TopInstance> instances;
  enum { Glue, Parameters, Ports } state = Glue;
  auto fail = [&](unsigned line, const Twine &message) {
    return makeFileError(path + ":" + Twine(line), message);
  };
  for (auto [index, line] : llvm::enumerate(lines)) {
    unsigned number = index + 1;
    line = line.rtrim();
    switch (state) {
    case Glue:
      if (line.starts_with("  ") && line.ends_with(" #(")) {
        StringRef module = line.drop_back(3).trim();
        if (!isIdentifier(module))
          return fail(number, "not a module name: '" + module + "'");
        instances.push_back({module.str(), "", {}, number});
        state = Parameters;
      } else if (!isGlueLine(line)) {
        return fail(number, "not an instance, a declaration or an assign "
                            "(the format --export-verilog writes): '" +
                                line.trim() + "'");
      }
      break;
    case Parameters: {
      StringRef text = line.trim();
      if (text.consume_front(") ") && text.consume_back(" (")) {
        if (!isIdentifier(text))
          return fail(number, "not an instance name: '" + text + "'");
        instances.back().name = text.str();
        state = Ports;
        break;
      }
      text.consume_back(",");
      StringRef name, value;
      if (text.consume_front(".") && text.consume_back(")"))
        std::tie(name, value) = text.split('(');
      if (!isIdentifier(name) || value.empty())
        return fail(number, "expected '.PARAMETER(value)' or ') u_name (' in "
                            "the parameters of " +
                                instances.back().module + ": '" + line.trim() +
                                "'");
      instances.back().parameters.push_back({name.str(), value.str()});
      break;
    }
    case Ports:
      if (line == "  );")
        state = Glue;
      else if (!line.trim().starts_with("."))
        return fail(number, "expected '.port(signal)' or ');' in instance " +
                                instances.back().name + ": '" + line.trim() +
                                "'");
      break;
    }
  }
  if (state != Glue)
    return fail(instances.back().line,
                "instance of " + instances.back().module + " never ends");
  if (instances.empty())
    return makeFileError(path, "no instances: not a design --export-verilog "
                               "wrote");
  return instances;
}
