//===- ZipArchiveTest.cpp - Reading PyTorch zip archives in place ---------===//
//
// The archives are written by ZipWriter.h. MAV_ZIP_ARCHIVE names an archive
// written by torch.save; without it the test of a real archive is skipped.
//
//===----------------------------------------------------------------------===//

#include "mav/Checkpoint/ZipArchive.h"
#include "ZipWriter.h"

#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace mav;
using namespace mav::ziptest;
using llvm::StringRef;

namespace {

/// A copy of some bytes in a heap block of exactly their size, so that a
/// sanitizer or valgrind sees any read past their end.
class ExactBuffer {
public:
  explicit ExactBuffer(StringRef bytes)
      : storage(new char[bytes.size()]), size(bytes.size()) {
    if (size)
      std::memcpy(storage.get(), bytes.data(), size);
  }
  StringRef get() const { return StringRef(storage.get(), size); }

private:
  std::unique_ptr<char[]> storage;
  size_t size;
};

/// ZipArchive::open, with its error as a string.
std::optional<ZipArchive> openArchive(StringRef data, std::string &error) {
  llvm::Expected<ZipArchive> archive = ZipArchive::open(data);
  if (archive)
    return std::move(*archive);
  error = llvm::toString(archive.takeError());
  return std::nullopt;
}

/// The error of opening `bytes`, or "opened" if they open.
std::string openError(StringRef bytes) {
  ExactBuffer buffer(bytes);
  std::string error;
  if (openArchive(buffer.get(), error))
    return "opened";
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  return error;
}

bool contains(StringRef outer, StringRef inner) {
  return inner.begin() >= outer.begin() && inner.end() <= outer.end();
}

/// Opens `bytes`, expecting either an error or records within `bytes`.
void expectErrorOrRecordsInside(StringRef bytes) {
  ExactBuffer buffer(bytes);
  std::string error;
  std::optional<ZipArchive> archive = openArchive(buffer.get(), error);
  if (!archive) {
    EXPECT_FALSE(error.empty());
    return;
  }
  for (StringRef name : archive->getRecordNames()) {
    if (archive->isCompressed(name))
      continue;
    std::optional<StringRef> record = archive->getRecord(name);
    ASSERT_TRUE(record);
    EXPECT_TRUE(contains(buffer.get(), *record));
  }
}

std::vector<Entry> sampleEntries() {
  std::vector<Entry> entries(5);
  entries[0].name = "archive/data.pkl";
  entries[0].data = std::string("\x80\x02}q\x00.", 6);
  entries[1].name = "archive/data/0";
  entries[1].data = std::string(100, '\x11');
  entries[2].name = "archive/data/1";
  entries[2].data = "x";
  entries[3].name = "archive/version";
  entries[3].data = "3\n";
  entries[3].flags = 0x0800; // UTF-8 names, which miniz sets.
  entries[4].name = "archive/.data/serialization_id";
  entries[4].data = "1234567890";
  return entries;
}

void expectSampleRecords(const std::vector<Entry> &entries,
                         const ZipArchive &archive, StringRef buffer,
                         unsigned alignment) {
  EXPECT_EQ(archive.getArchiveName(), "archive");
  ASSERT_EQ(archive.getRecordNames().size(), entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    StringRef name = archive.getRecordNames()[i];
    EXPECT_EQ("archive/" + name.str(), entries[i].name);
    EXPECT_TRUE(contains(buffer, name));
    EXPECT_TRUE(archive.hasRecord(name));
    std::optional<StringRef> record = archive.getRecord(name);
    ASSERT_TRUE(record) << name.str();
    EXPECT_EQ(*record, entries[i].data);
    EXPECT_TRUE(contains(buffer, *record));
    if (alignment) {
      EXPECT_EQ((record->data() - buffer.data()) % alignment, 0) << name.str();
    }
  }
}

TEST(ZipArchive, ReadsRecordsInPlace) {
  std::vector<Entry> entries = sampleEntries();
  ExactBuffer buffer(writeZip(entries));
  std::string error;
  std::optional<ZipArchive> archive = openArchive(buffer.get(), error);
  ASSERT_TRUE(archive) << error;
  expectSampleRecords(entries, *archive, buffer.get(), 64);
}

TEST(ZipArchive, MissingRecords) {
  ExactBuffer buffer(writeZip(sampleEntries()));
  std::string error;
  std::optional<ZipArchive> archive = openArchive(buffer.get(), error);
  ASSERT_TRUE(archive) << error;
  for (StringRef name : {"missing", "", "data", "data/", "archive/data/0",
                         "data/00", "DATA.PKL"}) {
    EXPECT_FALSE(archive->getRecord(name)) << name.str();
    EXPECT_FALSE(archive->hasRecord(name)) << name.str();
  }
}

TEST(ZipArchive, UnalignedRecordsAndComment) {
  std::vector<Entry> entries = sampleEntries();
  Layout layout;
  layout.alignment = 0;
  // A comment that holds a false end of central directory signature.
  layout.comment = "PK\x05\x06" + std::string(30, 'c');
  ExactBuffer buffer(writeZip(entries, layout));
  std::string error;
  std::optional<ZipArchive> archive = openArchive(buffer.get(), error);
  ASSERT_TRUE(archive) << error;
  expectSampleRecords(entries, *archive, buffer.get(), 0);
}

TEST(ZipArchive, EmptyRecords) {
  std::vector<Entry> entries(3);
  entries[0].name = "model/empty";
  entries[1].name = "model/full";
  entries[1].data = "abc";
  entries[2].name = "model/last";
  for (unsigned alignment : {0u, 64u}) {
    Layout layout;
    layout.alignment = alignment;
    ExactBuffer buffer(writeZip(entries, layout));
    std::string error;
    std::optional<ZipArchive> archive = openArchive(buffer.get(), error);
    ASSERT_TRUE(archive) << error;
    EXPECT_EQ(archive->getArchiveName(), "model");
    std::optional<StringRef> empty = archive->getRecord("empty");
    ASSERT_TRUE(empty);
    EXPECT_TRUE(empty->empty());
    EXPECT_EQ(archive->getRecord("full"), StringRef("abc"));
    std::optional<StringRef> last = archive->getRecord("last");
    ASSERT_TRUE(last);
    EXPECT_TRUE(last->empty());
  }
}

TEST(ZipArchive, Zip64) {
  std::vector<Entry> entries = sampleEntries();
  entries[0].zip64Sizes = true;
  entries[0].zip64Offset = true;
  entries[1].zip64Sizes = true;
  entries[2].zip64Offset = true;
  Layout layout;
  layout.zip64 = true;
  ExactBuffer buffer(writeZip(entries, layout));
  std::string error;
  std::optional<ZipArchive> archive = openArchive(buffer.get(), error);
  ASSERT_TRUE(archive) << error;
  expectSampleRecords(entries, *archive, buffer.get(), 64);
}

TEST(ZipArchive, ManyRecords) {
  // More than a 16-bit count, as ZIP64 end records allow.
  constexpr unsigned kNumRecords = 70000;
  std::vector<Entry> entries(kNumRecords);
  for (unsigned i = 0; i < kNumRecords; ++i) {
    entries[i].name = "archive/data/" + std::to_string(i);
    entries[i].data = std::to_string(i * 7);
  }
  Layout layout;
  layout.alignment = 0;
  layout.zip64 = true;
  std::string zip = writeZip(entries, layout);
  std::string error;
  std::optional<ZipArchive> archive = openArchive(zip, error);
  ASSERT_TRUE(archive) << error;
  ASSERT_EQ(archive->getRecordNames().size(), kNumRecords);
  EXPECT_EQ(archive->getRecordNames()[kNumRecords - 1], "data/69999");
  for (unsigned i = 0; i < kNumRecords; i += 997)
    EXPECT_EQ(archive->getRecord("data/" + std::to_string(i)),
              StringRef(std::to_string(i * 7)));
}

TEST(ZipArchive, NotAZip) {
  const char *expected =
      "not a zip archive (no end of central directory record)";
  EXPECT_EQ(openError(""), expected);
  EXPECT_EQ(openError("PK"), expected);
  EXPECT_EQ(openError("PK\x05\x06"), expected);
  EXPECT_EQ(openError("module {\n}\n"), expected);
  std::mt19937 random(4096);
  std::string noise;
  for (int i = 0; i < 100000; ++i)
    noise.push_back(static_cast<char>(random()));
  EXPECT_EQ(openError(noise), expected);
}

TEST(ZipArchive, EveryTruncationFails) {
  for (bool zip64 : {false, true}) {
    std::vector<Entry> entries = sampleEntries();
    entries[1].zip64Sizes = zip64;
    entries[2].zip64Offset = zip64;
    Layout layout;
    layout.zip64 = zip64;
    std::string zip = writeZip(entries, layout);
    ASSERT_EQ(openError(zip), "opened");
    for (size_t size = 0; size < zip.size(); ++size) {
      EXPECT_NE(openError(StringRef(zip).take_front(size)), "opened")
          << "first " << size << " bytes";
      EXPECT_NE(openError(StringRef(zip).take_back(size)), "opened")
          << "last " << size << " bytes";
    }
  }
}

TEST(ZipArchive, CorruptBytesNeverReadOutside) {
  for (bool zip64 : {false, true}) {
    std::vector<Entry> entries = sampleEntries();
    entries[1].zip64Sizes = zip64;
    entries[2].zip64Offset = zip64;
    Layout layout;
    layout.zip64 = zip64;
    std::string zip = writeZip(entries, layout);
    for (size_t i = 0; i < zip.size(); ++i) {
      for (char value : {'\x00', '\x01', '\x7f', '\x80', '\xff'}) {
        std::string corrupt = zip;
        corrupt[i] = value;
        expectErrorOrRecordsInside(corrupt);
      }
    }
  }
}

TEST(ZipArchive, CompressedRecordIsListedButNotRead) {
  std::vector<Entry> entries = sampleEntries();
  entries[2].method = 8;
  entries[2].uncompressedSize = entries[2].data.size() * 3;
  std::string zip = writeZip(entries);
  std::string error;
  std::optional<ZipArchive> archive = openArchive(zip, error);
  ASSERT_TRUE(archive) << error;
  EXPECT_TRUE(archive->hasRecord("data/1"));
  EXPECT_TRUE(archive->isCompressed("data/1"));
  EXPECT_FALSE(archive->getRecord("data/1"));
  EXPECT_FALSE(archive->isCompressed("data/0"));
  EXPECT_TRUE(archive->getRecord("data/0"));
}

TEST(ZipArchive, EncryptedRecord) {
  std::vector<Entry> entries = sampleEntries();
  entries[3].flags = 1;
  EXPECT_EQ(openError(writeZip(entries)),
            "record 'archive/version' is encrypted; encrypted records are "
            "not supported");
}

TEST(ZipArchive, SizesDiffer) {
  std::vector<Entry> entries = sampleEntries();
  entries[1].compressedSize = 50;
  EXPECT_EQ(openError(writeZip(entries)),
            "record 'archive/data/0' has different compressed and "
            "uncompressed sizes");
}

TEST(ZipArchive, BadLocalHeader) {
  std::string zip = writeZip(sampleEntries());
  std::string badSignature = zip;
  badSignature[3] = '\x07';
  EXPECT_EQ(openError(badSignature),
            "local header of record 'archive/data.pkl' has a bad signature");
  std::string otherName = zip;
  otherName[30 + 8] = 'X';
  EXPECT_EQ(openError(otherName),
            "local header of record 'archive/data.pkl' names another record");
}

TEST(ZipArchive, OutOfBounds) {
  std::vector<Entry> entries = sampleEntries();
  entries[4].compressedSize = entries[4].uncompressedSize = 1 << 30;
  EXPECT_EQ(openError(writeZip(entries)),
            "data of record 'archive/.data/serialization_id' is out of bounds");

  entries = sampleEntries();
  entries[1].localOffset = 0xfffffff0;
  EXPECT_EQ(openError(writeZip(entries)),
            "local header of record 'archive/data/0' is out of bounds");

  // Sizes and offsets that overflow 64-bit sums.
  entries = sampleEntries();
  entries[2].zip64Sizes = true;
  entries[2].compressedSize = entries[2].uncompressedSize = ~uint64_t(0);
  EXPECT_EQ(openError(writeZip(entries)),
            "data of record 'archive/data/1' is out of bounds");
  entries = sampleEntries();
  entries[2].zip64Offset = true;
  entries[2].localOffset = ~uint64_t(0) - 10;
  EXPECT_EQ(openError(writeZip(entries)),
            "local header of record 'archive/data/1' is out of bounds");

  std::string zip = writeZip(sampleEntries());
  std::string directory = zip;
  directory[zip.size() - 3] = '\x7f'; // Central directory offset.
  EXPECT_EQ(openError(directory), "central directory is out of bounds");
}

TEST(ZipArchive, MissingZip64Fields) {
  std::vector<Entry> entries = sampleEntries();
  entries[1].zip64Sizes = true;
  std::string zip = writeZip(entries);
  // The ZIP64 extra field's id, in the central directory.
  size_t id = zip.find(StringRef("\x01\x00\x10\x00", 4));
  ASSERT_NE(id, std::string::npos);
  zip[id] = '\x02';
  EXPECT_EQ(openError(zip), "record 'archive/data/0' has a missing or "
                            "truncated zip64 extra field");

  Layout layout;
  layout.zip64 = true;
  zip = writeZip(sampleEntries(), layout);
  size_t locator = zip.size() - 22 - 20;
  std::string outside = zip;
  outside[locator + 8 + 7] = '\x01';
  EXPECT_EQ(openError(outside),
            "zip64 end of central directory record is out of bounds");
  std::string badSignature = zip;
  badSignature[locator + 8] = 0;
  badSignature[locator + 9] = 0;
  EXPECT_EQ(openError(badSignature),
            "zip64 end of central directory record has a bad signature");
}

TEST(ZipArchive, SeveralDisks) {
  std::string zip = writeZip(sampleEntries());
  zip[zip.size() - 22 + 4] = 1;
  EXPECT_EQ(openError(zip), "zip archive spans several disks; only "
                            "single-disk archives are supported");
}

TEST(ZipArchive, TopDirectories) {
  auto errorFor = [](std::vector<std::string> names) {
    std::vector<Entry> entries(names.size());
    for (size_t i = 0; i < names.size(); ++i)
      entries[i].name = names[i];
    return openError(writeZip(entries));
  };
  EXPECT_EQ(errorFor({"archive/a", "other/b"}),
            "record 'other/b' is not under the top directory 'archive'");
  EXPECT_EQ(errorFor({"archive/a", "archive2/b"}),
            "record 'archive2/b' is not under the top directory 'archive'");
  EXPECT_EQ(errorFor({"archive/a", "archive"}),
            "record 'archive' is not under the top directory 'archive'");
  EXPECT_EQ(errorFor({"data.pkl"}),
            "record 'data.pkl' is not under a top directory");
  EXPECT_EQ(errorFor({"/data.pkl"}),
            "record '/data.pkl' is not under a top directory");
  EXPECT_EQ(errorFor({"archive/a", "archive/"}),
            "record 'archive/' has no name under the top directory");
  EXPECT_EQ(errorFor({"archive/a", "arch\nive/b\\"}),
            "record 'arch\\0Aive/b\\\\' is not under the top directory "
            "'archive'");
  EXPECT_EQ(errorFor({"archive/a/b", "archive/a/c"}), "opened");
}

TEST(ZipArchive, DuplicateRecords) {
  std::vector<Entry> entries = sampleEntries();
  entries.push_back(entries[2]);
  EXPECT_EQ(openError(writeZip(entries)), "duplicate record 'archive/data/1'");
}

TEST(ZipArchive, NoRecords) {
  EXPECT_EQ(openError(writeZip({})), "zip archive has no records");
  Layout layout;
  layout.zip64 = true;
  EXPECT_EQ(openError(writeZip({}, layout)), "zip archive has no records");
}

TEST(ZipArchive, RealArchive) {
  const char *path = std::getenv("MAV_ZIP_ARCHIVE");
  if (!path)
    GTEST_SKIP() << "MAV_ZIP_ARCHIVE is not set";
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  ASSERT_TRUE(buffer) << "cannot read " << path << ": "
                      << buffer.getError().message();
  std::string error;
  std::optional<ZipArchive> archive =
      openArchive((*buffer)->getBuffer(), error);
  ASSERT_TRUE(archive) << path << ": " << error;
  EXPECT_FALSE(archive->getArchiveName().empty());
  // torch.save's pickle, which ends with the STOP opcode.
  std::optional<StringRef> pickle = archive->getRecord("data.pkl");
  ASSERT_TRUE(pickle);
  EXPECT_TRUE(pickle->ends_with("."));
  EXPECT_TRUE(archive->hasRecord("version"));
  for (StringRef name : archive->getRecordNames()) {
    std::optional<StringRef> record = archive->getRecord(name);
    ASSERT_TRUE(record) << name.str();
    EXPECT_EQ((record->data() - (*buffer)->getBufferStart()) % 64, 0)
        << name.str();
  }
}

} // namespace
