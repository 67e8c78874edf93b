//===- AtomicFile.h - Replace a file only with a complete one ---*- C++ -*-===//
//
// Writes go to a temporary file in the destination's directory; commit()
// flushes it to disk and renames it over the destination. A failed write
// (a full disk, a file-size limit), fsync, close or rename, or an early
// destruction, removes the temporary and leaves the destination as it was.
// libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_CHECKPOINT_ATOMICFILE_H
#define MAV_CHECKPOINT_ATOMICFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <system_error>

namespace mav {

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

} // namespace mav

#endif // MAV_CHECKPOINT_ATOMICFILE_H
