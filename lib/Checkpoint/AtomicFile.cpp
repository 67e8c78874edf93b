//===- AtomicFile.cpp - Replace a file only with a complete one -----------===//

#include "mav/Checkpoint/AtomicFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Errno.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

using namespace mav;
using llvm::StringRef;

static std::error_code lastError() {
  return std::error_code(errno, std::generic_category());
}

static llvm::Error failure(const llvm::Twine &what, std::error_code error) {
  return llvm::createStringError(error, what + ": " + error.message());
}

llvm::Expected<AtomicFile> AtomicFile::create(StringRef path) {
  int fd;
  llvm::SmallString<128> tempPath;
  if (std::error_code error =
          llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%", fd, tempPath))
    return failure("cannot create a temporary file beside it", error);
  llvm::sys::RemoveFileOnSignal(tempPath);
  return AtomicFile(path.str(), tempPath.str().str(), fd);
}

AtomicFile::AtomicFile(AtomicFile &&other)
    : path(std::move(other.path)), tempPath(std::move(other.tempPath)),
      fd(other.fd), writeError(other.writeError), done(other.done) {
  other.fd = -1;
  other.done = true;
}

AtomicFile::~AtomicFile() {
  if (!done)
    discard();
}

void AtomicFile::discard() {
  done = true;
  if (fd >= 0)
    ::close(fd);
  fd = -1;
  llvm::sys::fs::remove(tempPath);
  llvm::sys::DontRemoveFileOnSignal(tempPath);
}

void AtomicFile::write(StringRef bytes) {
  while (!writeError && !bytes.empty()) {
    ssize_t written = llvm::sys::RetryAfterSignal(-1, ::write, fd, bytes.data(),
                                                  bytes.size());
    if (written < 0)
      writeError = lastError();
    else
      bytes = bytes.drop_front(written);
  }
}

llvm::Error AtomicFile::commit() {
  auto fail = [&](const llvm::Twine &what, std::error_code error) {
    discard();
    return failure(what, error);
  };
  if (writeError)
    return fail("write failed", writeError);
  if (::fsync(fd) != 0)
    return fail("fsync failed", lastError());
  int closed = ::close(fd);
  fd = -1;
  if (closed != 0)
    return fail("close failed", lastError());
  if (std::error_code error = llvm::sys::fs::rename(tempPath, path))
    return fail("cannot rename the temporary file over it", error);
  done = true;
  llvm::sys::DontRemoveFileOnSignal(tempPath);
  // The rename itself is durable only once the directory is; the file is in
  // place by now either way, so a failure here is not the export's.
  StringRef directory = llvm::sys::path::parent_path(path);
  int directoryFd = ::open(directory.empty() ? "." : directory.str().c_str(),
                           O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directoryFd >= 0) {
    ::fsync(directoryFd);
    ::close(directoryFd);
  }
  return llvm::Error::success();
}
