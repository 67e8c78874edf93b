//===- BytecodeBounds.h - Bound bytecode lengths and counts -----*- C++ -*-===//
//
// MLIR 19's bytecode reader allocates what a length or count field asks for
// before it reads the elements: a string, dialect, operation-name,
// properties, attribute or type count, or an operation's result, operand,
// successor, region, block, value or block-argument count. A corrupt field
// aborts the tool ("LLVM ERROR: out of memory", "SmallVector unable to
// grow"). This pre-check walks the file's structure and refuses every such
// field that asks for more elements than the bytes left could encode (each
// takes at least one byte), before MLIR reads the file.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_BYTECODEBOUNDS_H
#define MAV_IR_BYTECODEBOUNDS_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/SourceMgr.h"

namespace mav {

/// Checks the lengths and counts of the bytecode in buffer `bufferId`;
/// prints "FILE: error: malformed bytecode at offset N: ..." to stderr and
/// fails on the first that exceeds the bytes left. Text passes. The counts
/// inside dialect-specific attribute and type encodings are not checked
/// (docs/KnownLimits.md).
mlir::LogicalResult checkBytecodeBounds(const llvm::SourceMgr &sourceMgr,
                                        unsigned bufferId);

} // namespace mav

#endif // MAV_IR_BYTECODEBOUNDS_H
