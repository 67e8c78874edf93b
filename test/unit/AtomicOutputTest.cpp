//===- AtomicOutputTest.cpp - Outputs are replaced only when complete -----===//

#include "mav/Support/AtomicOutput.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <string>

using namespace mav;
namespace fs = llvm::sys::fs;
using llvm::StringRef;

namespace {

/// A fresh directory, removed with everything in it at the end of the test.
class ScratchDirectory {
public:
  ScratchDirectory() {
    EXPECT_FALSE(fs::createUniqueDirectory("mav-atomic-output", path));
  }
  ~ScratchDirectory() { fs::remove_directories(path); }
  std::string file(StringRef name) const {
    llvm::SmallString<256> result(path);
    llvm::sys::path::append(result, name);
    return std::string(result);
  }
  /// The names of the entries, sorted, joined by spaces.
  std::string listing() const {
    std::vector<std::string> names;
    std::error_code error;
    for (fs::directory_iterator it(path, error), end; it != end && !error;
         it.increment(error))
      names.push_back(llvm::sys::path::filename(it->path()).str());
    llvm::sort(names);
    return llvm::join(names, " ");
  }

private:
  llvm::SmallString<256> path;
};

std::string readFile(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : "<missing>";
}

void writeFile(StringRef path, StringRef text) {
  ASSERT_FALSE(writeFileAtomically(path, [&](llvm::raw_ostream &os) {
    os << text;
    return llvm::Error::success();
  }));
}

llvm::Error failWith(StringRef message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

TEST(AtomicOutput, FileIsReplacedWhenComplete) {
  ScratchDirectory scratch;
  std::string out = scratch.file("out.txt");
  writeFile(out, "old\n");
  writeFile(out, "new\n");
  EXPECT_EQ(readFile(out), "new\n");
  EXPECT_EQ(scratch.listing(), "out.txt");
}

TEST(AtomicOutput, FailedProducerLeavesFileAndNoTemporary) {
  ScratchDirectory scratch;
  std::string out = scratch.file("out.txt");
  writeFile(out, "old\n");
  llvm::Error error = writeFileAtomically(out, [&](llvm::raw_ostream &os) {
    os << std::string(1 << 20, 'x'); // more than a buffer's worth
    return failWith("the producer failed");
  });
  EXPECT_EQ(llvm::toString(std::move(error)), "the producer failed");
  EXPECT_EQ(readFile(out), "old\n");
  EXPECT_EQ(scratch.listing(), "out.txt");
}

TEST(AtomicOutput, MissingDirectoryIsAnError) {
  ScratchDirectory scratch;
  std::string out = scratch.file("no/such/out.txt");
  bool produced = false;
  llvm::Error error = writeFileAtomically(out, [&](llvm::raw_ostream &) {
    produced = true;
    return llvm::Error::success();
  });
  EXPECT_TRUE(StringRef(llvm::toString(std::move(error)))
                  .starts_with("cannot create a temporary file beside it"));
  EXPECT_FALSE(produced);
  EXPECT_EQ(scratch.listing(), "");
}

TEST(AtomicOutput, UncommittedFileIsDiscarded) {
  ScratchDirectory scratch;
  std::string out = scratch.file("out.txt");
  {
    llvm::Expected<AtomicFile> file = AtomicFile::create(out);
    ASSERT_TRUE(bool(file));
    file->write("partial");
  }
  EXPECT_EQ(scratch.listing(), "");
}

TEST(AtomicOutput, DirectoryIsSwappedWhole) {
  ScratchDirectory scratch;
  std::string design = scratch.file("design");
  auto fillWith = [](StringRef name) {
    return [name](StringRef directory) -> llvm::Error {
      llvm::SmallString<256> path(directory);
      llvm::sys::path::append(path, name);
      writeFile(path, name);
      return llvm::Error::success();
    };
  };
  ASSERT_FALSE(writeDirectoryAtomically(design, fillWith("a.sv")));
  ASSERT_FALSE(writeDirectoryAtomically(design, fillWith("b.sv")));
  EXPECT_EQ(readFile(design + "/b.sv"), "b.sv");
  EXPECT_FALSE(fs::exists(design + "/a.sv"));
  EXPECT_EQ(scratch.listing(), "design");
}

TEST(AtomicOutput, FailedFillKeepsOldDirectory) {
  ScratchDirectory scratch;
  std::string design = scratch.file("design");
  ASSERT_FALSE(writeDirectoryAtomically(design, [](StringRef directory) {
    writeFile((directory + "/top.sv").str(), "old");
    return llvm::Error::success();
  }));
  llvm::Error error = writeDirectoryAtomically(design, [](StringRef directory) {
    writeFile((directory + "/top.sv").str(), "half");
    return failWith("cannot write top.sv: File too large");
  });
  EXPECT_EQ(llvm::toString(std::move(error)),
            design + ": cannot write top.sv: File too large");
  EXPECT_EQ(readFile(design + "/top.sv"), "old");
  EXPECT_EQ(scratch.listing(), "design");
}

TEST(AtomicOutput, FileInTheWayOfADirectoryIsAnError) {
  ScratchDirectory scratch;
  std::string design = scratch.file("design");
  writeFile(design, "a file");
  llvm::Error error = writeDirectoryAtomically(
      design, [](StringRef) { return llvm::Error::success(); });
  EXPECT_EQ(llvm::toString(std::move(error)),
            design + ": exists and is not a directory");
  EXPECT_EQ(readFile(design), "a file");
}

} // namespace
