//===- CheckpointFormat.h - What writer and reader agree on -----*- C++ -*-===//
//
// The layout of a checkpoint (docs/Checkpoints.md), shared by the writer and
// the reader: record names, the header record, the checksum and the bounds
// every field is read within. Header-only: the writer lives in the libtorch
// plugin, which must not depend on reader objects. libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_CHECKPOINT_CHECKPOINTFORMAT_H
#define MAV_CHECKPOINT_CHECKPOINTFORMAT_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/xxhash.h"

#include <cstdint>
#include <string>

namespace mav {

/// The checkpoint format version this mav writes and reads. Version 1 kept
/// the weights inside the bytecode as well; version 2 had no header, so its
/// manifest was not authenticated.
constexpr int64_t kCheckpointVersion = 3;

/// Records mav reads, under the archive's top directory.
constexpr llvm::StringLiteral kHeaderRecord = "mav/header";
constexpr llvm::StringLiteral kManifestRecord = "mav/manifest.json";
constexpr llvm::StringLiteral kGraphRecord = "mav/graph.mlirbc";

/// The first line of the header, before the version.
constexpr llvm::StringLiteral kHeaderMagic = "mav-checkpoint ";

/// Bounds on untrusted fields. The header is three short lines; the manifest
/// nests three levels (top, table, entry); weight blobs need the alignment of
/// their element type, and torch aligns records to 64 bytes.
constexpr uint64_t kMaxHeaderSize = 256;
constexpr unsigned kMaxManifestDepth = 8;
constexpr uint64_t kMaxWeightAlignment = 4096;
constexpr uint64_t kMaxDtypeSize = 64;

/// The checksum of a record: its xxHash64, as 16 lower-case hexadecimal
/// digits.
inline std::string getRecordChecksum(llvm::StringRef bytes) {
  std::string hex = llvm::utohexstr(llvm::xxHash64(bytes), /*LowerCase=*/true);
  return std::string(16 - hex.size(), '0') + hex;
}

/// The header record: the version, then the size and checksum of the
/// manifest and of the graph, which authenticates both before either is
/// parsed. For example:
///   mav-checkpoint 3
///   manifest 1234 0123456789abcdef
///   graph 56789 fedcba9876543210
inline std::string formatCheckpointHeader(llvm::StringRef manifest,
                                          llvm::StringRef graph) {
  return (kHeaderMagic + llvm::Twine(kCheckpointVersion) + "\nmanifest " +
          llvm::Twine(manifest.size()) + " " + getRecordChecksum(manifest) +
          "\ngraph " + llvm::Twine(graph.size()) + " " +
          getRecordChecksum(graph) + "\n")
      .str();
}

} // namespace mav

#endif // MAV_CHECKPOINT_CHECKPOINTFORMAT_H
