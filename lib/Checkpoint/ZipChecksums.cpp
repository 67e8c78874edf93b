//===- ZipChecksums.cpp - Check a zip archive's CRC-32s -------------------===//
//
// Deflated records are raw deflate streams (no zlib header); they are
// inflated into a fixed scratch buffer, and their size is bounded by the
// central directory's, so that neither a hostile size field nor a deflate
// bomb makes the check allocate or run for long.
//
//===----------------------------------------------------------------------===//

#include "mav/Checkpoint/ZipChecksums.h"
#include "mav/Checkpoint/ZipArchive.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <zlib.h>

#include <algorithm>
#include <limits>

using namespace mav;
using llvm::StringRef;
using llvm::Twine;

namespace {

constexpr uint16_t kStored = 0;
constexpr uint16_t kDeflated = 8;

/// zlib takes sizes as uInt; larger buffers are fed in pieces.
constexpr uint64_t kMaxPiece = std::numeric_limits<uInt>::max();

llvm::Error fail(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

uLong crcOf(StringRef bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  while (!bytes.empty()) {
    uint64_t piece = std::min<uint64_t>(bytes.size(), kMaxPiece);
    crc = crc32(crc, reinterpret_cast<const Bytef *>(bytes.data()),
                static_cast<uInt>(piece));
    bytes = bytes.drop_front(piece);
  }
  return crc;
}

/// Inflates the raw deflate stream `bytes` and returns its CRC-32 and size,
/// or fails once the output exceeds `maxSize` or the stream is invalid.
llvm::Error inflateCrc(StringRef bytes, uint64_t maxSize, uLong &crc,
                       uint64_t &size, StringRef name) {
  z_stream stream = {};
  if (inflateInit2(&stream, -MAX_WBITS) != Z_OK)
    return fail("cannot start inflating record " + quoteRecordName(name));
  char scratch[1 << 16];
  crc = crc32(0L, Z_NULL, 0);
  size = 0;
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    if (stream.avail_in == 0 && !bytes.empty()) {
      uint64_t piece = std::min<uint64_t>(bytes.size(), kMaxPiece);
      stream.next_in =
          reinterpret_cast<Bytef *>(const_cast<char *>(bytes.data()));
      stream.avail_in = static_cast<uInt>(piece);
      bytes = bytes.drop_front(piece);
    }
    stream.next_out = reinterpret_cast<Bytef *>(scratch);
    stream.avail_out = sizeof(scratch);
    status = inflate(&stream, Z_NO_FLUSH);
    uint64_t produced = sizeof(scratch) - stream.avail_out;
    crc = crc32(crc, reinterpret_cast<const Bytef *>(scratch),
                static_cast<uInt>(produced));
    size += produced;
    if (size > maxSize)
      break;
    // Z_BUF_ERROR with no input left: the stream is cut short.
    if (status != Z_OK && status != Z_STREAM_END)
      break;
  }
  inflateEnd(&stream);
  if (size > maxSize)
    return fail("record " + quoteRecordName(name) +
                " inflates to more than its uncompressed size of " +
                Twine(maxSize) + " bytes");
  if (status != Z_STREAM_END)
    return fail("record " + quoteRecordName(name) +
                " is not a valid deflate stream");
  return llvm::Error::success();
}

} // namespace

llvm::Error mav::checkZipChecksums(const ZipArchive &archive) {
  for (StringRef name : archive.getRecordNames()) {
    const ZipArchive::Record *record = archive.getRecordEntry(name);
    std::string fullName = (archive.getArchiveName() + "/" + name).str();
    uLong crc;
    uint64_t size;
    if (record->method == kStored) {
      crc = crcOf(record->bytes);
      size = record->bytes.size();
    } else if (record->method == kDeflated) {
      if (llvm::Error error = inflateCrc(
              record->bytes, record->uncompressedSize, crc, size, fullName))
        return error;
    } else {
      return fail("record " + quoteRecordName(fullName) +
                  " is compressed with method " + Twine(record->method) +
                  "; only stored and deflated records are supported");
    }
    if (size != record->uncompressedSize)
      return fail("record " + quoteRecordName(fullName) + " inflates to " +
                  Twine(size) + " bytes, not the " +
                  Twine(record->uncompressedSize) + " its zip entry gives");
    if (crc != record->crc32)
      return fail("record " + quoteRecordName(fullName) +
                  " does not match its CRC-32 (the archive is corrupt)");
  }
  return llvm::Error::success();
}

llvm::Error mav::checkTorchScriptArchive(StringRef data) {
  llvm::Expected<ZipArchive> archive = ZipArchive::open(data);
  if (!archive)
    return archive.takeError();
  return checkZipChecksums(*archive);
}
