//===- ZipWriter.h - Zip archives for tests, written by hand ----*- C++ -*-===//
//
// Writes zip archives as PyTorchStreamWriter does (records stored, data
// aligned through padding in the local header's extra field), and damaged
// ones on request, for the tests of the zip and checkpoint readers.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_TEST_UNIT_ZIPWRITER_H
#define MAV_TEST_UNIT_ZIPWRITER_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mav::ziptest {

struct Entry {
  std::string name;
  std::string data;
  uint16_t method = 0;
  uint16_t flags = 0;
  /// Whether the central directory holds the sizes, or the local header
  /// offset, in a ZIP64 extra field.
  bool zip64Sizes = false;
  bool zip64Offset = false;
  /// Central directory values other than the true ones.
  std::optional<uint64_t> compressedSize;
  std::optional<uint64_t> uncompressedSize;
  std::optional<uint64_t> localOffset;
};

struct Layout {
  /// The alignment of record data, through padding in the local header's
  /// extra field as PyTorchStreamWriter writes it; 0 for none.
  unsigned alignment = 64;
  /// Whether the end of central directory record defers to ZIP64 records.
  bool zip64 = false;
  std::string comment;
};

inline void put(std::string &out, uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i)
    out.push_back(static_cast<char>(value >> (8 * i)));
}
inline void put16(std::string &out, uint64_t value) { put(out, value, 2); }
inline void put32(std::string &out, uint64_t value) { put(out, value, 4); }
inline void put64(std::string &out, uint64_t value) { put(out, value, 8); }

inline std::string writeZip(const std::vector<Entry> &entries,
                            const Layout &layout = {}) {
  std::string out;
  std::vector<uint64_t> localOffsets;
  for (const Entry &entry : entries) {
    localOffsets.push_back(out.size());
    put32(out, 0x04034b50);
    put16(out, 20);
    put16(out, entry.flags);
    put16(out, entry.method);
    put32(out, 0); // Time and date.
    put32(out, 0); // CRC-32, which the reader does not check.
    put32(out, entry.data.size());
    put32(out, entry.data.size());
    std::string extra;
    if (layout.alignment) {
      uint64_t start = out.size() + 4 + entry.name.size() + 4;
      uint64_t padding =
          (layout.alignment - start % layout.alignment) % layout.alignment;
      extra = "FB";
      put16(extra, padding);
      extra.append(padding, 'Z');
    }
    put16(out, entry.name.size());
    put16(out, extra.size());
    out += entry.name;
    out += extra;
    out += entry.data;
  }

  uint64_t directoryOffset = out.size();
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry &entry = entries[i];
    uint64_t compressedSize = entry.compressedSize.value_or(entry.data.size());
    uint64_t uncompressedSize =
        entry.uncompressedSize.value_or(entry.data.size());
    uint64_t localOffset = entry.localOffset.value_or(localOffsets[i]);
    std::string extra;
    if (entry.zip64Sizes || entry.zip64Offset) {
      // Another extra field first, which the reader must skip.
      put16(extra, 0x5455);
      put16(extra, 5);
      extra.append(5, '\0');
      std::string zip64;
      if (entry.zip64Sizes) {
        put64(zip64, uncompressedSize);
        put64(zip64, compressedSize);
        compressedSize = uncompressedSize = 0xffffffff;
      }
      if (entry.zip64Offset) {
        put64(zip64, localOffset);
        localOffset = 0xffffffff;
      }
      put16(extra, 0x0001);
      put16(extra, zip64.size());
      extra += zip64;
    }
    put32(out, 0x02014b50);
    put16(out, 45);
    put16(out, 20);
    put16(out, entry.flags);
    put16(out, entry.method);
    put32(out, 0); // Time and date.
    put32(out, 0); // CRC-32.
    put32(out, compressedSize);
    put32(out, uncompressedSize);
    put16(out, entry.name.size());
    put16(out, extra.size());
    put16(out, 0); // Comment size.
    put16(out, 0); // Disk.
    put16(out, 0); // Internal attributes.
    put32(out, 0); // External attributes.
    put32(out, localOffset);
    out += entry.name;
    out += extra;
  }
  uint64_t directorySize = out.size() - directoryOffset;

  if (layout.zip64) {
    uint64_t zip64EndOffset = out.size();
    put32(out, 0x06064b50);
    put64(out, 44);
    put16(out, 45);
    put16(out, 45);
    put32(out, 0);
    put32(out, 0);
    put64(out, entries.size());
    put64(out, entries.size());
    put64(out, directorySize);
    put64(out, directoryOffset);
    put32(out, 0x07064b50);
    put32(out, 0);
    put64(out, zip64EndOffset);
    put32(out, 1);
  }
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, layout.zip64 ? 0xffff : entries.size());
  put16(out, layout.zip64 ? 0xffff : entries.size());
  put32(out, layout.zip64 ? 0xffffffff : directorySize);
  put32(out, layout.zip64 ? 0xffffffff : directoryOffset);
  put16(out, layout.comment.size());
  out += layout.comment;
  return out;
}

} // namespace mav::ziptest

#endif // MAV_TEST_UNIT_ZIPWRITER_H
