//===- AtomicOutput.cpp - Never leave half-written output -----------------===//

#include "mav/Support/AtomicOutput.h"

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

namespace {
/// A buffered stream into an AtomicFile.
class AtomicFileStream : public llvm::raw_ostream {
public:
  explicit AtomicFileStream(AtomicFile &file) : file(file) {}
  ~AtomicFileStream() override { flush(); }

private:
  void write_impl(const char *data, size_t size) override {
    file.write(StringRef(data, size));
    position += size;
  }
  uint64_t current_pos() const override { return position; }

  AtomicFile &file;
  uint64_t position = 0;
};
} // namespace

llvm::Error mav::writeFileAtomically(
    StringRef path,
    llvm::function_ref<llvm::Error(llvm::raw_ostream &)> produce) {
  llvm::Expected<AtomicFile> file = AtomicFile::create(path);
  if (!file)
    return file.takeError();
  {
    AtomicFileStream stream(*file);
    if (llvm::Error error = produce(stream))
      return error; // the file's destructor removes the temporary
  }
  return file->commit();
}

llvm::Error
mav::writeDirectoryAtomically(StringRef path,
                              llvm::function_ref<llvm::Error(StringRef)> fill) {
  namespace fs = llvm::sys::fs;
  auto fail = [&](const llvm::Twine &what, std::error_code error) {
    return llvm::createStringError(error,
                                   path + ": " + what + ": " + error.message());
  };
  llvm::SmallString<256> parent(path);
  // Relative prefixes of createUniqueDirectory land in the temp directory.
  if (std::error_code error = fs::make_absolute(parent))
    return fail("cannot resolve the path", error);
  llvm::sys::path::remove_dots(parent, /*remove_dot_dot=*/true);
  llvm::SmallString<256> target = parent;
  llvm::sys::path::remove_filename(parent);
  if (parent.empty())
    parent = ".";
  if (fs::exists(target) && !fs::is_directory(target))
    return llvm::createStringError(
        std::make_error_code(std::errc::not_a_directory),
        path + ": exists and is not a directory");

  llvm::SmallString<256> temporary;
  if (std::error_code error = fs::createUniqueDirectory(
          parent + "/" + llvm::sys::path::filename(target) + ".tmp", temporary))
    return fail("cannot create a temporary directory", error);
  auto removeTemporary = [&] { fs::remove_directories(temporary); };
  if (llvm::Error error = fill(temporary)) {
    removeTemporary();
    std::error_code code;
    std::string message;
    llvm::handleAllErrors(std::move(error),
                          [&](const llvm::ErrorInfoBase &info) {
                            code = info.convertToErrorCode();
                            message = info.message();
                          });
    return llvm::createStringError(code, path + ": " + message);
  }
  // Swap the new directory in; the old one goes only once that succeeded.
  llvm::SmallString<256> old;
  if (fs::exists(target)) {
    old = temporary;
    old += ".old";
    if (std::error_code error = fs::rename(target, old)) {
      removeTemporary();
      return fail("cannot replace the existing directory", error);
    }
  }
  if (std::error_code error = fs::rename(temporary, target)) {
    if (!old.empty())
      (void)fs::rename(old, target);
    removeTemporary();
    return fail("cannot move the new directory into place", error);
  }
  if (!old.empty())
    fs::remove_directories(old);
  return llvm::Error::success();
}
