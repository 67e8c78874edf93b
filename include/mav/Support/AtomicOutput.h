//===- AtomicOutput.h - Never leave half-written output ---------*- C++ -*-===//
//
// Every mav tool replaces an output file or directory only with a complete
// one: it is written into a temporary beside the destination, and renamed
// over it at the end. A failed write (a full disk, a file-size limit),
// fsync, close or rename, or an early destruction, removes the temporary and
// leaves the destination as it was. The one implementation, for files
// (AtomicFile, writeFileAtomically) and directories
// (writeDirectoryAtomically). LLVM-only.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_SUPPORT_ATOMICOUTPUT_H
#define MAV_SUPPORT_ATOMICOUTPUT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <system_error>

namespace mav {

/// A file that replaces its destination only once complete.
class AtomicFile {
public:
  /// Creates the temporary file beside `path`, readable as the umask allows.
  static llvm::Expected<AtomicFile> create(llvm::StringRef path);

  AtomicFile(AtomicFile &&other);
  AtomicFile(const AtomicFile &) = delete;
  AtomicFile &operator=(const AtomicFile &) = delete;
  AtomicFile &operator=(AtomicFile &&) = delete;
  /// Removes the temporary file unless committed.
  ~AtomicFile();

  /// Appends `bytes`. The first failure is kept for commit(), and later
  /// writes are skipped.
  void write(llvm::StringRef bytes);

  /// Flushes, closes, and renames the temporary over the destination. On
  /// failure, says which step failed, and removes the temporary.
  llvm::Error commit();

  llvm::StringRef getTempPath() const { return tempPath; }

private:
  AtomicFile(std::string path, std::string tempPath, int fd)
      : path(std::move(path)), tempPath(std::move(tempPath)), fd(fd) {}
  void discard();

  std::string path;
  std::string tempPath;
  /// -1 once closed.
  int fd;
  std::error_code writeError;
  bool done = false;
};

/// Writes what `produce` streams (buffered, not held in memory) to `path`,
/// through an AtomicFile: `path` is replaced only when `produce` succeeds
/// and the file is complete. The error is `produce`'s, else says which step
/// failed.
llvm::Error writeFileAtomically(
    llvm::StringRef path,
    llvm::function_ref<llvm::Error(llvm::raw_ostream &)> produce);

/// Replaces the directory `path` (created if absent) with the one `fill`
/// writes its files into, a temporary directory beside `path`; the old one
/// is removed only once the new one is in place. On failure `path` is as it
/// was and no temporary is left. Errors name `path`.
llvm::Error writeDirectoryAtomically(
    llvm::StringRef path,
    llvm::function_ref<llvm::Error(llvm::StringRef directory)> fill);

} // namespace mav

#endif // MAV_SUPPORT_ATOMICOUTPUT_H
