//===- ZipArchive.cpp - Read PyTorch zip archives in place ----------------===//
//
// Offsets and sizes from the archive are untrusted 64-bit values; every range
// is checked with `fits` before it is read, which cannot overflow.
//
//===----------------------------------------------------------------------===//

#include "mav/Checkpoint/ZipArchive.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/raw_ostream.h"

using namespace mav;
using llvm::StringRef;
using llvm::Twine;
using llvm::support::endian::read16le;
using llvm::support::endian::read32le;
using llvm::support::endian::read64le;

namespace {

constexpr uint32_t kLocalHeaderSignature = 0x04034b50;
constexpr uint32_t kCentralHeaderSignature = 0x02014b50;
constexpr uint32_t kEndSignature = 0x06054b50;
constexpr uint32_t kZip64EndSignature = 0x06064b50;
constexpr uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr uint16_t kZip64ExtraId = 0x0001;

constexpr uint64_t kLocalHeaderSize = 30;
constexpr uint64_t kCentralHeaderSize = 46;
constexpr uint64_t kEndSize = 22;
constexpr uint64_t kZip64EndSize = 56;
constexpr uint64_t kZip64LocatorSize = 20;
constexpr uint64_t kMaxCommentSize = 0xffff;

/// The value of a 32-bit field whose real value is in a ZIP64 record.
constexpr uint64_t kZip64Field = 0xffffffff;

/// Whether `size` bytes at `offset` lie within `bufferSize` bytes.
bool fits(uint64_t offset, uint64_t size, uint64_t bufferSize) {
  return offset <= bufferSize && size <= bufferSize - offset;
}

std::nullopt_t fail(std::string &error, const Twine &message) {
  error = message.str();
  return std::nullopt;
}

struct CentralDirectory {
  uint64_t offset;
  uint64_t size;
  uint64_t numEntries;
};

/// Reads the end of central directory record at `endOffset` and, when a
/// ZIP64 locator precedes it, the ZIP64 end of central directory record,
/// whose fields replace it.
std::optional<CentralDirectory> readEndOfCentralDirectory(StringRef data,
                                                          uint64_t endOffset,
                                                          std::string &error) {
  const char *end = data.data() + endOffset;
  uint64_t disk = read16le(end + 4);
  uint64_t directoryDisk = read16le(end + 6);
  uint64_t diskEntries = read16le(end + 8);
  CentralDirectory directory;
  directory.numEntries = read16le(end + 10);
  directory.size = read32le(end + 12);
  directory.offset = read32le(end + 16);

  if (endOffset >= kZip64LocatorSize &&
      read32le(end - kZip64LocatorSize) == kZip64LocatorSignature) {
    const char *locator = end - kZip64LocatorSize;
    uint64_t zip64EndOffset = read64le(locator + 8);
    if (!fits(zip64EndOffset, kZip64EndSize, endOffset - kZip64LocatorSize))
      return fail(error,
                  "zip64 end of central directory record is out of bounds");
    const char *zip64End = data.data() + zip64EndOffset;
    if (read32le(zip64End) != kZip64EndSignature)
      return fail(error, "zip64 end of central directory record has a bad "
                         "signature");
    disk = read32le(locator + 4) | read32le(zip64End + 16);
    directoryDisk = read32le(zip64End + 20);
    diskEntries = read64le(zip64End + 24);
    directory.numEntries = read64le(zip64End + 32);
    directory.size = read64le(zip64End + 40);
    directory.offset = read64le(zip64End + 48);
  }

  if (disk != 0 || directoryDisk != 0 || diskEntries != directory.numEntries)
    return fail(error, "zip archive spans several disks; only single-disk "
                       "archives are supported");
  return directory;
}

/// Finds the end of central directory record, which a comment of up to
/// 64 KiB may follow, and reads it.
std::optional<CentralDirectory> findCentralDirectory(StringRef data,
                                                     std::string &error) {
  if (data.size() >= kEndSize) {
    uint64_t last = data.size() - kEndSize;
    uint64_t first = last > kMaxCommentSize ? last - kMaxCommentSize : 0;
    for (uint64_t offset = last + 1; offset-- > first;) {
      const char *end = data.data() + offset;
      if (read32le(end) == kEndSignature && read16le(end + 20) <= last - offset)
        return readEndOfCentralDirectory(data, offset, error);
    }
  }
  return fail(error, "not a zip archive (no end of central directory record)");
}

/// Replaces the fields among `uncompressedSize`, `compressedSize` and
/// `localOffset` that hold kZip64Field with their values in the ZIP64
/// extended information extra field of `extra`. False if it lacks one.
bool readZip64Extra(StringRef extra, uint64_t &uncompressedSize,
                    uint64_t &compressedSize, uint64_t &localOffset) {
  uint64_t *fields[] = {&uncompressedSize, &compressedSize, &localOffset};
  if (llvm::none_of(fields,
                    [](uint64_t *field) { return *field == kZip64Field; }))
    return true;
  while (extra.size() >= 4) {
    uint16_t id = read16le(extra.data());
    uint16_t size = read16le(extra.data() + 2);
    if (size > extra.size() - 4)
      return false;
    StringRef body = extra.substr(4, size);
    extra = extra.drop_front(4 + size);
    if (id != kZip64ExtraId)
      continue;
    for (uint64_t *field : fields) {
      if (*field != kZip64Field)
        continue;
      if (body.size() < 8)
        return false;
      *field = read64le(body.data());
      body = body.drop_front(8);
    }
    return true;
  }
  return false;
}

} // namespace

llvm::Expected<ZipArchive> ZipArchive::open(StringRef data) {
  std::string error;
  std::optional<ZipArchive> archive = openArchive(data, error);
  if (!archive)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), error);
  return std::move(*archive);
}

std::optional<ZipArchive> ZipArchive::openArchive(StringRef data,
                                                  std::string &error) {
  std::optional<CentralDirectory> directory = findCentralDirectory(data, error);
  if (!directory)
    return std::nullopt;
  if (directory->numEntries == 0)
    return fail(error, "zip archive has no records");
  if (!fits(directory->offset, directory->size, data.size()))
    return fail(error, "central directory is out of bounds");
  if (directory->numEntries > directory->size / kCentralHeaderSize)
    return fail(error, "central directory is too small for its " +
                           Twine(directory->numEntries) + " records");

  ZipArchive archive;
  archive.names.reserve(directory->numEntries);
  archive.records.reserve(directory->numEntries);
  StringRef entries = data.substr(directory->offset, directory->size);
  uint64_t position = 0;
  for (uint64_t i = 0; i < directory->numEntries; ++i) {
    if (!fits(position, kCentralHeaderSize, entries.size()))
      return fail(error,
                  "central directory entry " + Twine(i) + " is out of bounds");
    const char *entry = entries.data() + position;
    if (read32le(entry) != kCentralHeaderSignature)
      return fail(error, "central directory entry " + Twine(i) +
                             " has a bad signature");
    uint16_t flags = read16le(entry + 8);
    uint16_t method = read16le(entry + 10);
    uint32_t crc32 = read32le(entry + 16);
    uint64_t compressedSize = read32le(entry + 20);
    uint64_t uncompressedSize = read32le(entry + 24);
    uint64_t nameSize = read16le(entry + 28);
    uint64_t extraSize = read16le(entry + 30);
    uint64_t commentSize = read16le(entry + 32);
    uint64_t localOffset = read32le(entry + 42);
    uint64_t entrySize =
        kCentralHeaderSize + nameSize + extraSize + commentSize;
    if (!fits(position, entrySize, entries.size()))
      return fail(error,
                  "central directory entry " + Twine(i) + " is out of bounds");
    StringRef name = entries.substr(position + kCentralHeaderSize, nameSize);
    StringRef extra =
        entries.substr(position + kCentralHeaderSize + nameSize, extraSize);
    position += entrySize;

    if (i == 0) {
      size_t slash = name.find('/');
      if (slash == StringRef::npos || slash == 0)
        return fail(error, "record " + quoteRecordName(name) +
                               " is not under a top directory");
      archive.archiveName = name.take_front(slash);
    }
    StringRef top = archive.archiveName;
    if (name.size() <= top.size() || name[top.size()] != '/' ||
        !name.starts_with(top))
      return fail(error, "record " + quoteRecordName(name) +
                             " is not under the top directory " +
                             quoteRecordName(top));
    StringRef recordName = name.drop_front(top.size() + 1);
    if (recordName.empty())
      return fail(error, "record " + quoteRecordName(name) +
                             " has no name under the top directory");

    if (flags & 1)
      return fail(error, "record " + quoteRecordName(name) +
                             " is encrypted; encrypted records are not "
                             "supported");
    if (!readZip64Extra(extra, uncompressedSize, compressedSize, localOffset))
      return fail(error, "record " + quoteRecordName(name) +
                             " has a missing or truncated zip64 extra field");
    bool stored = method == 0;
    if (stored && compressedSize != uncompressedSize)
      return fail(error, "record " + quoteRecordName(name) +
                             " has different compressed and uncompressed "
                             "sizes");

    if (!fits(localOffset, kLocalHeaderSize, data.size()))
      return fail(error, "local header of record " + quoteRecordName(name) +
                             " is out of bounds");
    const char *local = data.data() + localOffset;
    if (read32le(local) != kLocalHeaderSignature)
      return fail(error, "local header of record " + quoteRecordName(name) +
                             " has a bad signature");
    uint64_t localNameSize = read16le(local + 26);
    uint64_t localExtraSize = read16le(local + 28);
    uint64_t dataOffset =
        localOffset + kLocalHeaderSize + localNameSize + localExtraSize;
    if (dataOffset > data.size())
      return fail(error, "local header of record " + quoteRecordName(name) +
                             " is out of bounds");
    if (StringRef(local + kLocalHeaderSize, localNameSize) != name)
      return fail(error, "local header of record " + quoteRecordName(name) +
                             " names another record");
    if (!fits(dataOffset, compressedSize, data.size()))
      return fail(error, "data of record " + quoteRecordName(name) +
                             " is out of bounds");

    if (!archive.records
             .try_emplace(recordName,
                          Record{data.substr(dataOffset, compressedSize),
                                 /*compressed=*/!stored, method, crc32,
                                 uncompressedSize})
             .second)
      return fail(error, "duplicate record " + quoteRecordName(name));
    archive.names.push_back(recordName);
  }
  return archive;
}

std::optional<StringRef> ZipArchive::getRecord(StringRef name) const {
  auto it = records.find(name);
  if (it == records.end() || it->second.compressed)
    return std::nullopt;
  return it->second.bytes;
}

const ZipArchive::Record *ZipArchive::getRecordEntry(StringRef name) const {
  auto it = records.find(name);
  return it == records.end() ? nullptr : &it->second;
}

bool ZipArchive::isCompressed(StringRef name) const {
  auto it = records.find(name);
  return it != records.end() && it->second.compressed;
}

bool ZipArchive::hasRecord(StringRef name) const { return records.count(name); }

std::string mav::quoteRecordName(StringRef name) {
  std::string quoted = "'";
  llvm::raw_string_ostream os(quoted);
  llvm::printEscapedString(name, os);
  os << '\'';
  return quoted;
}
