//===- SourceBuffer.h - Prepare IR input for MLIR's parsers -----*- C++ -*-===//
//
// MLIR's readers need help with some inputs (docs/KnownLimits.md): the text
// lexer reads up to a NUL that a memory-mapped file whose size is a multiple
// of the page size does not have, and past the end of a file that ends inside
// a string of the `{-# ... #-}` section; a resource blob of alignment 0 aborts
// with std::bad_alloc (MLIR 19 rejects the other non-powers of two itself;
// MLIR 16 aborted on them all).
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_SOURCEBUFFER_H
#define MAV_IR_SOURCEBUFFER_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>

namespace mav {

/// Returns `buffer` ready for MLIR's parsers: text is copied into a
/// NUL-terminated buffer; bytecode is returned unchanged (its reader checks
/// alignment against absolute addresses, and needs no terminator).
std::unique_ptr<llvm::MemoryBuffer>
makeParsable(std::unique_ptr<llvm::MemoryBuffer> buffer);

/// Rejects, with an error at its position, every hex blob in the file's
/// `{-# ... #-}` metadata whose alignment is not a power of two, and a string
/// in that metadata that the end of the file cuts off. Bytecode passes.
mlir::LogicalResult checkResourceBlobs(const llvm::SourceMgr &sourceMgr,
                                       unsigned bufferId);

} // namespace mav

#endif // MAV_IR_SOURCEBUFFER_H
