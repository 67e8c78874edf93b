//===- ZipChecksums.h - Check a zip archive's CRC-32s -----------*- C++ -*-===//
//
// libtorch trusts the TorchScript archives it loads: one flipped byte in a
// `code/` record makes torch::jit::load crash. mav checks every record's
// CRC-32 first, so that a damaged archive is an error that names the record.
// A well-formed but hostile archive, whose CRC-32s match, can still crash
// libtorch (docs/KnownLimits.md). libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_CHECKPOINT_ZIPCHECKSUMS_H
#define MAV_CHECKPOINT_ZIPCHECKSUMS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mav {

class ZipArchive;

/// Checks every record of `archive` against the CRC-32 and the uncompressed
/// size of its central directory entry. Stored records are checked in place;
/// deflated records are inflated piece by piece, never whole, so a record
/// that claims a huge size allocates nothing. Records compressed otherwise
/// are refused: libtorch reads only stored and deflated ones. The error is one
/// line naming the record, e.g. "record 'code/__torch__.py' does not match its
/// CRC-32".
llvm::Error checkZipChecksums(const ZipArchive &archive);

/// What every mav tool does before libtorch sees a TorchScript file: reads
/// `data` as a zip archive and checks its CRC-32s. The error is one line,
/// without the file name (the caller prefixes it).
llvm::Error checkTorchScriptArchive(llvm::StringRef data);

} // namespace mav

#endif // MAV_CHECKPOINT_ZIPCHECKSUMS_H
