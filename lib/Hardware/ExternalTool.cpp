//===- ExternalTool.cpp - Run verilator, iverilog, yosys ------------------===//

#include "mav/Hardware/ExternalTool.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

Error mav::makeFileError(const Twine &path, const Twine &message) {
  return createStringError(inconvertibleErrorCode(), path + ": " + message);
}

Error mav::writeTextFile(StringRef path, StringRef text) {
  std::error_code error;
  raw_fd_ostream os(path, error);
  if (!error) {
    os << text;
    os.close();
    error = os.error();
    os.clear_error(); // reported below, not by the destructor
  }
  return error ? makeFileError(path, "cannot write: " + error.message())
               : Error::success();
}

Error mav::runTool(StringRef program, ArrayRef<std::string> args,
                   StringRef directory, StringRef logPath) {
  ErrorOr<std::string> path = sys::findProgramByName(program);
  if (!path)
    return makeFileError(program, "not found on PATH (scripts/install-deps.sh "
                                  "installs verilator and iverilog)");
  SmallVector<StringRef> argv = {*path};
  for (const std::string &arg : args)
    argv.push_back(arg);
  SmallString<256> previous;
  if (std::error_code error = sys::fs::current_path(previous))
    return makeFileError(directory, error.message());
  if (std::error_code error = sys::fs::set_current_path(directory))
    return makeFileError(directory, "cannot enter: " + error.message());
  std::optional<StringRef> redirects[] = {StringRef(""), logPath, logPath};
  std::string message;
  int status =
      sys::ExecuteAndWait(*path, argv, std::nullopt, redirects, 0, 0, &message);
  (void)sys::fs::set_current_path(previous);
  if (status == 0)
    return Error::success();
  std::string log;
  if (auto buffer = MemoryBuffer::getFile(logPath))
    log = (*buffer)->getBuffer().take_back(3000).str();
  return createStringError(inconvertibleErrorCode(),
                           program + " failed (exit " + Twine(status) +
                               (message.empty() ? "" : ", " + message) +
                               "):\n" + log);
}
