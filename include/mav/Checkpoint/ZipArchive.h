//===- ZipArchive.h - Read PyTorch zip archives in place --------*- C++ -*-===//
//
// Reads zip archives in the format PyTorch's serialization writes
// (torch.save, caffe2::serialize::PyTorchStreamWriter): records stored
// uncompressed, all names under one top directory such as `archive/`, ZIP64
// for large archives. Compressed records (TorchScript archives deflate their
// code) are listed but not read. Nothing is copied: records are views of the
// caller's buffer, so a record written 64-byte aligned is aligned in memory
// when the buffer is (a mapped file is). Every offset and size is checked
// against the buffer, so a damaged or hostile archive is an error, never a
// crash. CRC-32s are not checked here: checkpoints checksum their records
// themselves, and checkZipChecksums (ZipChecksums.h) checks the CRC-32s of
// archives that go to libtorch. libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_CHECKPOINT_ZIPARCHIVE_H
#define MAV_CHECKPOINT_ZIPARCHIVE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mav {

/// The records of a zip archive in PyTorch's format, read in place.
class ZipArchive {
public:
  /// Reads the central directory of `data`, which must outlive the archive.
  /// On failure the error is one line, lower case, no trailing period, no
  /// file name (the caller prefixes it), e.g.
  /// "not a zip archive (no end of central directory record)" or
  /// "record 'archive/data/3' is encrypted; encrypted records are not
  /// supported".
  static llvm::Expected<ZipArchive> open(llvm::StringRef data);

  /// The record's bytes, by its name without the archive's top directory
  /// (PyTorchStreamReader's convention: "archive/data/0" is "data/0").
  /// Nullopt when there is no such record or it is compressed.
  std::optional<llvm::StringRef> getRecord(llvm::StringRef name) const;
  bool hasRecord(llvm::StringRef name) const;
  bool isCompressed(llvm::StringRef name) const;
  /// Record names (without the top directory), in central-directory order.
  /// They point into the archive's buffer.
  llvm::ArrayRef<llvm::StringRef> getRecordNames() const { return names; }
  /// The top directory, e.g. "archive".
  llvm::StringRef getArchiveName() const { return archiveName; }

  /// A record as its central directory entry describes it.
  struct Record {
    /// The bytes in the archive, compressed or not.
    llvm::StringRef bytes;
    bool compressed;
    /// The zip compression method: 0 stored, 8 deflated.
    uint16_t method;
    uint32_t crc32;
    uint64_t uncompressedSize;
  };
  /// The record `name` (without the top directory), or null.
  const Record *getRecordEntry(llvm::StringRef name) const;

private:
  /// open(), failing with std::nullopt and `error`.
  static std::optional<ZipArchive> openArchive(llvm::StringRef data,
                                               std::string &error);
  ZipArchive() = default;

  llvm::StringRef archiveName;
  std::vector<llvm::StringRef> names;
  /// From record name to contents; keys are `names`, so entries allocate
  /// nothing of their own.
  llvm::DenseMap<llvm::StringRef, Record> records;
};

/// A record name quoted for an error message, on one line whatever its bytes.
std::string quoteRecordName(llvm::StringRef name);

} // namespace mav

#endif // MAV_CHECKPOINT_ZIPARCHIVE_H
