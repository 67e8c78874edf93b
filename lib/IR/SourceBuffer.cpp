//===- SourceBuffer.cpp - Prepare IR input for MLIR's parsers -------------===//

#include "mav/IR/SourceBuffer.h"

#include "mlir/Bytecode/BytecodeReader.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

std::unique_ptr<llvm::MemoryBuffer>
mav::makeParsable(std::unique_ptr<llvm::MemoryBuffer> buffer) {
  if (isBytecode(buffer->getMemBufferRef()))
    return buffer;
  return llvm::MemoryBuffer::getMemBufferCopy(buffer->getBuffer(),
                                              buffer->getBufferIdentifier());
}

/// The alignment a blob's hex string encodes in its first four bytes, little
/// endian, or std::nullopt when the string is no blob MLIR would decode.
static std::optional<uint32_t> blobAlignment(StringRef literal) {
  if (!literal.consume_front("0x") || literal.size() % 2 != 0 ||
      literal.size() < 8 || !llvm::all_of(literal, llvm::isHexDigit))
    return std::nullopt;
  uint32_t alignment = 0;
  for (int byte = 3; byte >= 0; --byte)
    alignment = (alignment << 8) |
                llvm::hexFromNibbles(literal[2 * byte], literal[2 * byte + 1]);
  return alignment;
}

LogicalResult mav::checkResourceBlobs(const llvm::SourceMgr &sourceMgr,
                                      unsigned bufferId) {
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
  // Bytecode is binary: its weights may hold any byte sequence.
  if (isBytecode(buffer->getMemBufferRef()))
    return success();
  StringRef text = buffer->getBuffer();
  bool inMetadata = false, valid = true;
  for (size_t i = 0; i < text.size(); ++i) {
    StringRef rest = text.drop_front(i);
    if (rest.starts_with("//")) {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        break;
    } else if (rest.starts_with("{-#")) {
      inMetadata = true;
    } else if (rest.starts_with("#-}")) {
      inMetadata = false;
    } else if (text[i] == '"') {
      size_t end = i + 1;
      while (end < text.size() && text[end] != '"' && text[end] != '\n')
        end += text[end] == '\\' ? 2 : 1;
      if (inMetadata && end >= text.size()) {
        // MLIR's lexer (19 as 16) reads past the end of the buffer after
        // this error.
        sourceMgr.PrintMessage(
            llvm::SMLoc::getFromPointer(text.data() + text.size()),
            llvm::SourceMgr::DK_Error, "expected '\"' in string literal");
        return failure();
      }
      std::optional<uint32_t> alignment =
          inMetadata ? blobAlignment(text.slice(i + 1, end)) : std::nullopt;
      if (alignment && !llvm::isPowerOf2_32(*alignment)) {
        sourceMgr.PrintMessage(llvm::SMLoc::getFromPointer(text.data() + i),
                               llvm::SourceMgr::DK_Error,
                               "hex blob alignment " + llvm::Twine(*alignment) +
                                   " is not a power of two");
        valid = false;
      }
      i = end;
    }
  }
  return success(valid);
}
