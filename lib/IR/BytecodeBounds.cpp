//===- BytecodeBounds.cpp - Bound bytecode lengths and counts -------------===//
//
// Walks MLIR 19's bytecode format (mlir/Bytecode/Encoding.h and MLIR's
// docs/BytecodeFormat.md): magic, version, producer, then sections of
// id(+alignment flag), length, [alignment, padding], data. The string,
// dialect, properties and attribute/type offset sections open with counts;
// the IR section nests regions, blocks and operations, and an operation's
// isolated regions are a nested IR section. The walk is iterative, so a
// deeply nested file cannot overflow the stack.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/BytecodeBounds.h"

#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/Bytecode/Encoding.h"
#include "mlir/IR/AsmState.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace mlir;
namespace encoding = mlir::bytecode;

namespace {

/// A failed check: what is wrong, at which offset of the file.
struct Malformed {
  uint64_t offset;
  std::string message;
};

/// Reads the primitives of the encoding from [begin, end) of the file; every
/// read is bounds-checked and records the first failure.
class Reader {
public:
  Reader(const uint8_t *file, uint64_t begin, uint64_t end,
         std::optional<Malformed> &error)
      : file(file), position(begin), end(end), error(error) {}

  bool failed() const { return error.has_value(); }
  bool empty() const { return position >= end; }
  uint64_t remaining() const { return end - position; }
  uint64_t offset() const { return position; }

  bool fail(uint64_t at, const llvm::Twine &message) {
    if (!error)
      error = Malformed{at, message.str()};
    return false;
  }

  bool readByte(uint8_t &value) {
    if (empty())
      return fail(position, "unexpected end of data");
    value = file[position++];
    return true;
  }

  bool skip(uint64_t length, llvm::StringRef what) {
    if (length > remaining())
      return fail(position, llvm::Twine(what) + " of " + llvm::Twine(length) +
                                " bytes, but only " + llvm::Twine(remaining()) +
                                " remain");
    position += length;
    return true;
  }

  /// MLIR's prefix varint: the first byte's trailing zeros count the bytes
  /// that follow; a zero first byte is followed by eight.
  bool readVarInt(uint64_t &value) {
    uint64_t start = position;
    uint8_t first;
    if (!readByte(first))
      return false;
    unsigned extra = first == 0 ? 8 : llvm::countr_zero(first);
    if (extra > remaining())
      return fail(start, "varint runs past the end of data");
    uint64_t result = 0;
    for (unsigned i = 0; i < extra; ++i)
      result |= uint64_t(file[position + i]) << (8 * i);
    position += extra;
    value = first == 0 ? result : ((result << 8) | first) >> (extra + 1);
    return true;
  }

  bool readVarIntWithFlag(uint64_t &value, bool &flag) {
    if (!readVarInt(value))
      return false;
    flag = value & 1;
    value >>= 1;
    return true;
  }

  /// A count of elements that take at least `minBytes` bytes each.
  bool readCount(uint64_t &count, llvm::StringRef what, uint64_t minBytes = 1) {
    uint64_t start = position;
    if (!readVarInt(count))
      return false;
    if (count > remaining() / minBytes)
      return fail(start, llvm::Twine(what) + " " + llvm::Twine(count) +
                             " exceeds the " + llvm::Twine(remaining()) +
                             " bytes left");
    return true;
  }

  /// A section header; returns the section's data as [begin, end).
  bool readSection(uint8_t &id, uint64_t &begin, uint64_t &sectionEnd) {
    uint64_t start = position;
    uint8_t idAndAlignment;
    uint64_t length;
    if (!readByte(idAndAlignment))
      return false;
    uint64_t lengthAt = position;
    if (!readVarInt(length))
      return false;
    id = idAndAlignment & 0x7f;
    if (id >= encoding::Section::kNumSections)
      return fail(start, "invalid section id " + llvm::Twine(unsigned(id)));
    if (idAndAlignment & 0x80) {
      uint64_t alignment;
      uint64_t at = position;
      if (!readVarInt(alignment))
        return false;
      if (alignment == 0 || (alignment & (alignment - 1)) ||
          alignment > (uint64_t(1) << 32))
        return fail(at, "section alignment " + llvm::Twine(alignment) +
                            " is not a power of two");
      // MLIR aligns against the buffer's address; padding bytes are 0xCB.
      while (!empty() && file[position] == encoding::kAlignmentByte &&
             ((uintptr_t)(file + position) & (alignment - 1)))
        ++position;
    }
    if (length > remaining())
      return fail(lengthAt, "section length " + llvm::Twine(length) +
                                " exceeds the " + llvm::Twine(remaining()) +
                                " bytes left");
    begin = position;
    sectionEnd = position + length;
    position = sectionEnd;
    return true;
  }

  Reader sub(uint64_t begin, uint64_t subEnd) const {
    return Reader(file, begin, subEnd, error);
  }

private:
  const uint8_t *file;
  uint64_t position;
  uint64_t end;
  std::optional<Malformed> &error;
};

/// The first varint of the string section counts strings, each at least one
/// byte (its size).
bool checkStrings(Reader reader) {
  uint64_t count;
  return reader.readCount(count, "string count");
}

bool checkDialects(Reader reader, uint64_t version) {
  uint64_t numDialects;
  if (!reader.readCount(numDialects, "dialect count"))
    return false;
  for (uint64_t i = 0; i < numDialects; ++i) {
    uint64_t name;
    bool hasVersion = false;
    if (version < encoding::kDialectVersioning) {
      if (!reader.readVarInt(name))
        return false;
      continue;
    }
    if (!reader.readVarIntWithFlag(name, hasVersion))
      return false;
    uint8_t id;
    uint64_t begin, end;
    if (hasVersion && !reader.readSection(id, begin, end))
      return false;
  }
  uint64_t numOps;
  if (version >= encoding::kElideUnknownBlockArgLocation &&
      !reader.readCount(numOps, "operation name count"))
    return false;
  // The groups: dialect, count, names.
  while (!reader.empty()) {
    uint64_t dialect, count, name;
    if (!reader.readVarInt(dialect) ||
        !reader.readCount(count, "operation name count"))
      return false;
    for (uint64_t i = 0; i < count; ++i)
      if (!reader.readVarInt(name))
        return false;
  }
  return true;
}

bool checkProperties(Reader reader) {
  if (reader.empty())
    return true;
  uint64_t count;
  return reader.readCount(count, "properties count");
}

/// The attribute/type offset section: the two counts, then the entries of
/// each table in groups (dialect, count, entry sizes). MLIR 19 stores each
/// entry at the next index without checking it against the count it read
/// first (AttrTypeReader::initialize), so a group that runs past the table
/// writes past the end of the heap block ("malloc(): corrupted top size").
bool checkAttrTypeOffsets(Reader reader) {
  uint64_t numAttributes, numTypes;
  if (!reader.readCount(numAttributes, "attribute count") ||
      !reader.readCount(numTypes, "type count"))
    return false;
  // Both are checked above, so the sum cannot overflow.
  if (numAttributes + numTypes > reader.remaining())
    return reader.fail(reader.offset(),
                       "attribute and type counts " +
                           llvm::Twine(numAttributes) + " + " +
                           llvm::Twine(numTypes) + " exceed the " +
                           llvm::Twine(reader.remaining()) + " bytes left");
  auto checkTable = [&](uint64_t entries, llvm::StringRef what) {
    while (entries > 0) {
      uint64_t dialect, count, size;
      if (!reader.readVarInt(dialect))
        return false;
      uint64_t at = reader.offset();
      if (!reader.readVarInt(count))
        return false;
      if (count > entries)
        return reader.fail(at,
                           llvm::Twine(what) + " group of " +
                               llvm::Twine(count) + " entries overruns the " +
                               llvm::Twine(entries) + " " + what + "s left");
      entries -= count;
      for (uint64_t i = 0; i < count; ++i)
        if (!reader.readVarInt(size))
          return false;
    }
    return true;
  };
  return checkTable(numAttributes, "attribute") && checkTable(numTypes, "type");
}

/// One group of resources in the resource offset section: a count, then per
/// resource its key, its size in the resource section and its kind. MLIR 19
/// prints an unknown kind through an llvm_unreachable switch, which in a
/// release build reads a garbage string ("LLVM ERROR: out of memory").
bool checkResourceGroup(Reader &offsets, uint64_t &resourceBytes) {
  uint64_t count, value, size;
  if (!offsets.readCount(count, "resource count"))
    return false;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t at = offsets.offset();
    uint8_t kind;
    if (!offsets.readVarInt(value) || !offsets.readVarInt(size))
      return false;
    if (size > resourceBytes)
      return offsets.fail(at, "resource size " + llvm::Twine(size) +
                                  " exceeds the " + llvm::Twine(resourceBytes) +
                                  " bytes left in the resource section");
    resourceBytes -= size;
    at = offsets.offset();
    if (!offsets.readByte(kind))
      return false;
    if (kind > uint8_t(AsmResourceEntryKind::String))
      return offsets.fail(at, "unknown resource kind " +
                                  llvm::Twine(unsigned(kind)));
  }
  return true;
}

/// The resource offset section: external groups (key, group), then dialect
/// groups (dialect, group) to its end.
bool checkResources(Reader offsets, uint64_t resourceBytes) {
  uint64_t numExternal, key;
  if (!offsets.readCount(numExternal, "external resource group count"))
    return false;
  for (uint64_t i = 0; i < numExternal; ++i)
    if (!offsets.readVarInt(key) || !checkResourceGroup(offsets, resourceBytes))
      return false;
  while (!offsets.empty())
    if (!offsets.readVarInt(key) || !checkResourceGroup(offsets, resourceBytes))
      return false;
  return true;
}

/// The IR section: regions of blocks of operations, walked with an explicit
/// stack of readers (one per isolated region section) and of pending
/// region/block/operation counts.
class IRWalker {
public:
  IRWalker(uint64_t version) : version(version) {}

  bool walk(Reader top) {
    // The top level is one block, without a region header.
    readers.push_back(top);
    Frame frame;
    frame.reader = 0;
    frame.regionsLeft = 0;
    frame.blocksLeft = 0;
    if (!readBlockHeader(frame))
      return false;
    frames.push_back(frame);
    while (!frames.empty()) {
      Frame &current = frames.back();
      Reader &reader = readers[current.reader];
      if (reader.failed())
        return false;
      if (current.opsLeft > 0) {
        --current.opsLeft;
        if (!readOperation(current.reader))
          return false;
        continue;
      }
      if (current.blocksLeft > 0) {
        --current.blocksLeft;
        if (!readBlockHeader(current))
          return false;
        continue;
      }
      if (current.regionsLeft > 0) {
        --current.regionsLeft;
        if (!readRegionHeader(current))
          return false;
        continue;
      }
      frames.pop_back();
    }
    return !readers.front().failed();
  }

private:
  struct Frame {
    /// Index into `readers`.
    size_t reader;
    uint64_t regionsLeft = 0, blocksLeft = 0, opsLeft = 0;
  };

  bool readRegionHeader(Frame &frame) {
    Reader &reader = readers[frame.reader];
    uint64_t numBlocks, numValues;
    if (!reader.readCount(numBlocks, "block count"))
      return false;
    if (numBlocks == 0)
      return true;
    if (!reader.readCount(numValues, "value count"))
      return false;
    frame.blocksLeft = numBlocks - 1;
    return readBlockHeader(frame);
  }

  bool readBlockHeader(Frame &frame) {
    Reader &reader = readers[frame.reader];
    bool hasArgs;
    uint64_t start = reader.offset();
    if (!reader.readVarIntWithFlag(frame.opsLeft, hasArgs))
      return false;
    if (frame.opsLeft > reader.remaining())
      return reader.fail(start,
                         "operation count " + llvm::Twine(frame.opsLeft) +
                             " exceeds the " + llvm::Twine(reader.remaining()) +
                             " bytes left");
    if (!hasArgs)
      return true;
    uint64_t numArgs, value;
    if (!reader.readCount(numArgs, "block argument count"))
      return false;
    for (uint64_t i = 0; i < numArgs; ++i) {
      if (version >= encoding::kElideUnknownBlockArgLocation) {
        bool hasLoc;
        if (!reader.readVarIntWithFlag(value, hasLoc) ||
            (hasLoc && !reader.readVarInt(value)))
          return false;
      } else if (!reader.readVarInt(value) || !reader.readVarInt(value)) {
        return false;
      }
    }
    if (version < encoding::kUseListOrdering)
      return true;
    uint8_t hasUseListOrders;
    if (!reader.readByte(hasUseListOrders))
      return false;
    return !hasUseListOrders || readUseListOrders(reader, numArgs);
  }

  bool readUseListOrders(Reader &reader, uint64_t rangeSize) {
    uint64_t numToRead = 1, value;
    if (rangeSize > 1 && !reader.readCount(numToRead, "use-list order count"))
      return false;
    for (uint64_t i = 0; i < numToRead; ++i) {
      uint64_t numValues;
      bool pairs;
      if (rangeSize > 1 && !reader.readVarInt(value))
        return false;
      uint64_t start = reader.offset();
      if (!reader.readVarIntWithFlag(numValues, pairs))
        return false;
      if (numValues > reader.remaining())
        return reader.fail(start, "use-list length " + llvm::Twine(numValues) +
                                      " exceeds the " +
                                      llvm::Twine(reader.remaining()) +
                                      " bytes left");
      for (uint64_t j = 0; j < numValues; ++j)
        if (!reader.readVarInt(value))
          return false;
    }
    return true;
  }

  /// Reads one operation; pushes a frame for its regions, if any.
  bool readOperation(size_t readerIndex) {
    Reader &reader = readers[readerIndex];
    uint64_t value, count = 0;
    uint8_t mask;
    // Name, mask, location.
    if (!reader.readVarInt(value) || !reader.readByte(mask) ||
        !reader.readVarInt(value))
      return false;
    // The attribute dictionary, and the properties' index or attribute.
    if ((mask & encoding::OpEncodingMask::kHasAttrs) &&
        !reader.readVarInt(value))
      return false;
    if ((mask & encoding::OpEncodingMask::kHasProperties) &&
        !reader.readVarInt(value))
      return false;
    uint64_t numResults = 0;
    if (mask & encoding::OpEncodingMask::kHasResults) {
      if (!reader.readCount(numResults, "result count"))
        return false;
      for (uint64_t i = 0; i < numResults; ++i)
        if (!reader.readVarInt(value))
          return false;
    }
    if (mask & encoding::OpEncodingMask::kHasOperands) {
      if (!reader.readCount(count, "operand count"))
        return false;
      for (uint64_t i = 0; i < count; ++i)
        if (!reader.readVarInt(value))
          return false;
    }
    if (mask & encoding::OpEncodingMask::kHasSuccessors) {
      if (!reader.readCount(count, "successor count"))
        return false;
      for (uint64_t i = 0; i < count; ++i)
        if (!reader.readVarInt(value))
          return false;
    }
    if (version >= encoding::kUseListOrdering &&
        (mask & encoding::OpEncodingMask::kHasUseListOrders) &&
        !readUseListOrders(reader, numResults))
      return false;
    if (!(mask & encoding::OpEncodingMask::kHasInlineRegions))
      return true;
    uint64_t numRegions;
    bool isolated;
    uint64_t start = reader.offset();
    if (!reader.readVarIntWithFlag(numRegions, isolated))
      return false;
    if (numRegions > reader.remaining())
      return reader.fail(
          start, "region count " + llvm::Twine(numRegions) + " exceeds the " +
                     llvm::Twine(reader.remaining()) + " bytes left");
    if (numRegions == 0)
      return true;
    Frame frame;
    frame.reader = readerIndex;
    if (isolated && version >= encoding::kLazyLoading) {
      uint8_t id;
      uint64_t begin, end;
      if (!reader.readSection(id, begin, end))
        return false;
      if (id != encoding::Section::kIR)
        return reader.fail(start, "expected an IR section for a region");
      readers.push_back(reader.sub(begin, end));
      frame.reader = readers.size() - 1;
    }
    frame.regionsLeft = numRegions - 1;
    frames.push_back(frame);
    return readRegionHeader(frames.back());
  }

  uint64_t version;
  /// Readers live here, not in frames, so that a frame's reader stays put
  /// while nested frames are pushed; std::deque would do as well.
  llvm::SmallVector<Reader, 8> readers;
  llvm::SmallVector<Frame, 8> frames;
};

std::optional<Malformed> checkBytecode(llvm::StringRef bytes) {
  std::optional<Malformed> error;
  const uint8_t *file = reinterpret_cast<const uint8_t *>(bytes.data());
  Reader reader(file, 0, bytes.size(), error);
  uint64_t version;
  if (!reader.skip(4, "magic number") || !reader.readVarInt(version))
    return error;
  if (version > encoding::kVersion)
    return error; // MLIR refuses it itself.
  // The producer: a NUL-terminated string.
  uint8_t byte = 1;
  while (byte != 0)
    if (!reader.readByte(byte))
      return error;

  struct Range {
    uint64_t begin, end;
  };
  std::optional<Range> sections[encoding::Section::kNumSections];
  while (!reader.empty()) {
    uint8_t id;
    Range range;
    if (!reader.readSection(id, range.begin, range.end))
      return error;
    sections[id] = range;
  }
  auto section = [&](encoding::Section::ID id) -> std::optional<Reader> {
    if (!sections[id])
      return std::nullopt;
    return reader.sub(sections[id]->begin, sections[id]->end);
  };
  if (auto strings = section(encoding::Section::kString))
    if (!checkStrings(*strings))
      return error;
  if (auto dialects = section(encoding::Section::kDialect))
    if (!checkDialects(*dialects, version))
      return error;
  if (auto properties = section(encoding::Section::kProperties))
    if (!checkProperties(*properties))
      return error;
  if (auto offsets = section(encoding::Section::kAttrTypeOffset))
    if (!checkAttrTypeOffsets(*offsets))
      return error;
  if (auto offsets = section(encoding::Section::kResourceOffset))
    if (!checkResources(*offsets,
                        sections[encoding::Section::kResource]
                            ? sections[encoding::Section::kResource]->end -
                                  sections[encoding::Section::kResource]->begin
                            : 0))
      return error;
  if (auto ir = section(encoding::Section::kIR))
    IRWalker(version).walk(*ir);
  return error;
}

} // namespace

LogicalResult mav::checkBytecodeBounds(const llvm::SourceMgr &sourceMgr,
                                       unsigned bufferId) {
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
  if (!isBytecode(buffer->getMemBufferRef()))
    return success();
  std::optional<Malformed> error = checkBytecode(buffer->getBuffer());
  if (!error)
    return success();
  llvm::errs() << buffer->getBufferIdentifier()
               << ": error: malformed bytecode at offset " << error->offset
               << ": " << error->message << "\n";
  return failure();
}
