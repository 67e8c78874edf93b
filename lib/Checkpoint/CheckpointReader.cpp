//===- CheckpointReader.cpp - Read and check a mav checkpoint -------------===//
//
// libtorch-free: the zip archive is read in place, the header is three lines
// of text, the manifest is JSON, the module is bytecode, and the weights are
// raw tensor records. Nothing from the file is used before it is checked:
// the header authenticates the manifest and the graph, the manifest the
// weight records, and every field is read within a bound.
//
//===----------------------------------------------------------------------===//

#include "mav/Checkpoint/Checkpoint.h"
#include "mav/Checkpoint/ZipArchive.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Alignment.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Parallel.h"

using namespace mlir;
using namespace mav;

/// Fuzzers cannot forge a 64-bit hash, so a fuzzing build (only) accepts
/// any well-formed checksum, to reach the checks behind them; except where
/// `evenWhenFuzzing`: the graph's bytes go to MLIR 16's bytecode reader,
/// which is not hardened against hostile input (fuzz/checkpoint/README.md).
static bool matchesChecksum(StringRef bytes, StringRef checksum,
                            bool evenWhenFuzzing = false) {
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  if (!evenWhenFuzzing)
    return true;
#endif
  return checksum == getRecordChecksum(bytes);
}

static bool isChecksum(StringRef text) {
  return text.size() == 16 && llvm::all_of(text, [](char c) {
           return llvm::isDigit(c) || (c >= 'a' && c <= 'f');
         });
}

/// `bytes` in place when aligned as torch aligns records (the bytecode reader
/// checks its own padding against absolute addresses), else a copy that is.
static std::unique_ptr<llvm::MemoryBuffer> getAlignedBuffer(StringRef bytes,
                                                            StringRef path) {
  const llvm::Align recordAlignment(64);
  if (llvm::isAddrAligned(recordAlignment, bytes.data()))
    return llvm::MemoryBuffer::getMemBuffer(bytes, path,
                                            /*RequiresNullTerminator=*/false);
  std::unique_ptr<llvm::WritableMemoryBuffer> copy =
      llvm::WritableMemoryBuffer::getNewUninitMemBuffer(bytes.size(), path,
                                                        recordAlignment);
  llvm::copy(bytes, copy->getBufferStart());
  return copy;
}

/// How deeply `text` nests arrays and objects, counted no further than
/// `limit + 1`: llvm::json::parse recurses once per level.
static unsigned getJsonDepth(StringRef text, unsigned limit) {
  unsigned depth = 0, deepest = 0;
  bool inString = false, escaped = false;
  for (char c : text) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit)
        break;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

namespace {
/// What the header says of the manifest and the graph.
struct Header {
  uint64_t manifestSize, graphSize;
  StringRef manifestChecksum, graphChecksum;
};

/// Reads one checkpoint, failing with "PATH: message".
class CheckpointReader {
public:
  CheckpointReader(StringRef path, std::shared_ptr<llvm::MemoryBuffer> file,
                   std::string &error)
      : path(path), file(std::move(file)), error(error) {}

  std::optional<ModuleFile> read();
  /// The manifest's checksum, from the header, the manifest authenticated.
  std::optional<std::string> readChecksum();

private:
  std::nullopt_t fail(const llvm::Twine &message) {
    error = (path + ": " + message).str();
    return std::nullopt;
  }
  std::nullopt_t corrupted(const llvm::Twine &message) {
    return fail("checkpoint is corrupted: " + message);
  }

  /// The refusal of an archive without a header: an older checkpoint, or
  /// another zip.
  std::nullopt_t refuseWithoutHeader();
  /// Opens the archive and reads its header.
  std::optional<Header> openAndReadHeader();
  std::optional<Header> readHeader(StringRef text);
  /// The record `name`, of the size and checksum the header gives it.
  std::optional<StringRef> readAuthenticated(StringRef name, uint64_t size,
                                             StringRef checksum, StringRef what,
                                             bool evenWhenFuzzing);
  std::optional<llvm::json::Value> parseJson(StringRef text, StringRef what);
  /// Checks every record the manifest lists against its size and checksum.
  bool checkRecords(const llvm::json::Object &records);
  /// The manifest's weight table: weight name to record and alignment.
  /// Only checked records may hold weights.
  bool readWeights(const llvm::json::Object &table,
                   const llvm::json::Object &records,
                   CheckpointWeights &weights);

  /// Field `key` of `object`, an integer in [min, max]; `owner` names the
  /// object in the error.
  std::optional<uint64_t> getBounded(const llvm::json::Object &object,
                                     StringRef key, uint64_t min, uint64_t max,
                                     const llvm::Twine &owner);
  std::optional<StringRef> getChecksum(const llvm::json::Object &object,
                                       const llvm::Twine &owner);

  StringRef path;
  std::shared_ptr<llvm::MemoryBuffer> file;
  std::string &error;
  std::optional<ZipArchive> archive;
};
} // namespace

std::optional<std::string> CheckpointReader::readChecksum() {
  std::optional<Header> header = openAndReadHeader();
  if (!header || !readAuthenticated(kManifestRecord, header->manifestSize,
                                    header->manifestChecksum, "the manifest",
                                    /*evenWhenFuzzing=*/false))
    return std::nullopt;
  return header->manifestChecksum.str();
}

std::optional<Header> CheckpointReader::openAndReadHeader() {
  llvm::Expected<ZipArchive> opened = ZipArchive::open(file->getBuffer());
  if (!opened) {
    fail("not a readable checkpoint (truncated or damaged): " +
         llvm::toString(opened.takeError()));
    return std::nullopt;
  }
  archive = std::move(*opened);
  std::optional<StringRef> headerText = archive->getRecord(kHeaderRecord);
  if (!headerText) {
    refuseWithoutHeader();
    return std::nullopt;
  }
  return readHeader(*headerText);
}

std::optional<ModuleFile> CheckpointReader::read() {
  std::optional<Header> header = openAndReadHeader();
  if (!header)
    return std::nullopt;
  std::optional<StringRef> manifestText =
      readAuthenticated(kManifestRecord, header->manifestSize,
                        header->manifestChecksum, "the manifest",
                        /*evenWhenFuzzing=*/false);
  if (!manifestText)
    return std::nullopt;
  std::optional<StringRef> bytecode = readAuthenticated(
      kGraphRecord, header->graphSize, header->graphChecksum, "the graph",
      /*evenWhenFuzzing=*/true);
  if (!bytecode)
    return std::nullopt;
  if (!bytecode->starts_with("ML\xefR"))
    return corrupted("record '" + kGraphRecord + "' is not MLIR bytecode");

  std::optional<llvm::json::Value> manifest =
      parseJson(*manifestText, "manifest");
  if (!manifest)
    return std::nullopt;
  const llvm::json::Object *object = manifest->getAsObject();
  const llvm::json::Object *records =
      object ? object->getObject("records") : nullptr;
  const llvm::json::Object *weightTable =
      object ? object->getObject("weights") : nullptr;
  if (!records || !weightTable)
    return corrupted("the manifest lacks its record or weight table");
  if (!checkRecords(*records))
    return std::nullopt;

  auto weights = std::make_shared<CheckpointWeights>();
  weights->file = file;
  weights->path = path.str();
  weights->manifestChecksum = header->manifestChecksum.str();
  if (!readWeights(*weightTable, *records, *weights))
    return std::nullopt;
  return ModuleFile{getAlignedBuffer(*bytecode, path), std::move(weights)};
}

std::nullopt_t CheckpointReader::refuseWithoutHeader() {
  std::optional<StringRef> oldManifest = archive->getRecord(kManifestRecord);
  if (!oldManifest)
    return fail("a zip archive but not a mav checkpoint (no " + kHeaderRecord +
                ")");
  // Versions 1 and 2 kept their version in the manifest, and nothing else.
  std::optional<int64_t> version;
  if (getJsonDepth(*oldManifest, kMaxManifestDepth) <= kMaxManifestDepth) {
    llvm::Expected<llvm::json::Value> manifest =
        llvm::json::parse(*oldManifest);
    if (!manifest)
      llvm::consumeError(manifest.takeError());
    else if (const llvm::json::Object *object = manifest->getAsObject())
      version = object->getInteger("version");
  }
  if (version)
    return fail("checkpoint format version " + llvm::Twine(*version) +
                ", this mav reads version " + llvm::Twine(kCheckpointVersion) +
                "; re-export it from its IR");
  return fail("checkpoint without a header (" + kHeaderRecord +
              "): format version 1 or 2, or damaged; this mav reads version " +
              llvm::Twine(kCheckpointVersion));
}

std::optional<Header> CheckpointReader::readHeader(StringRef text) {
  auto malformed = [&](const llvm::Twine &what) {
    return corrupted("malformed header (" + kHeaderRecord + "): " + what);
  };
  if (archive->isCompressed(kHeaderRecord))
    return fail("record '" + kHeaderRecord +
                "' is compressed; checkpoints store records");
  if (text.size() > kMaxHeaderSize)
    return malformed("larger than " + llvm::Twine(kMaxHeaderSize) + " bytes");
  if (!text.consume_front(kHeaderMagic))
    return malformed("it does not start with '" + kHeaderMagic + "'");
  // At most 9 digits, so that any version parses and is named.
  size_t digits = std::min<size_t>(text.find_first_not_of("0123456789"), 10);
  uint64_t version;
  if (digits == 0 || digits > 9 ||
      text.take_front(digits).getAsInteger(10, version))
    return malformed("the version is not a number of up to 9 digits");
  text = text.drop_front(digits);
  if (version != kCheckpointVersion)
    return fail("checkpoint format version " + llvm::Twine(version) +
                ", this mav reads version " + llvm::Twine(kCheckpointVersion));

  // "\n" KEY " " SIZE " " CHECKSUM, for the manifest then the graph.
  auto readLine = [&](StringRef key, uint64_t &size, StringRef &checksum) {
    if (!text.consume_front("\n") || !text.consume_front(key) ||
        !text.consume_front(" ") || text.consumeInteger(10, size) ||
        !text.consume_front(" "))
      return false;
    checksum = text.take_front(16);
    text = text.drop_front(checksum.size());
    return isChecksum(checksum);
  };
  Header header;
  if (!readLine("manifest", header.manifestSize, header.manifestChecksum))
    return malformed("line 2 is not 'manifest SIZE CHECKSUM'");
  if (!readLine("graph", header.graphSize, header.graphChecksum))
    return malformed("line 3 is not 'graph SIZE CHECKSUM'");
  if (text != "\n")
    return malformed("it does not end after line 3");
  return header;
}

std::optional<StringRef>
CheckpointReader::readAuthenticated(StringRef name, uint64_t size,
                                    StringRef checksum, StringRef what,
                                    bool evenWhenFuzzing) {
  if (archive->isCompressed(name))
    return fail("record '" + name +
                "' is compressed; checkpoints store "
                "records");
  std::optional<StringRef> bytes = archive->getRecord(name);
  if (!bytes)
    return fail("checkpoint is incomplete: record '" + name + "' is missing");
  if (bytes->size() != size ||
      !matchesChecksum(*bytes, checksum, evenWhenFuzzing))
    return corrupted(what + " (record '" + name +
                     "') does not match its checksum in " + kHeaderRecord);
  return bytes;
}

std::optional<llvm::json::Value> CheckpointReader::parseJson(StringRef text,
                                                             StringRef what) {
  if (getJsonDepth(text, kMaxManifestDepth) > kMaxManifestDepth)
    return corrupted("the " + what + " nests deeper than " +
                     llvm::Twine(kMaxManifestDepth) + " levels");
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value)
    return corrupted("unreadable " + what + ": " +
                     llvm::toString(value.takeError()));
  return std::move(*value);
}

std::optional<uint64_t>
CheckpointReader::getBounded(const llvm::json::Object &object, StringRef key,
                             uint64_t min, uint64_t max,
                             const llvm::Twine &owner) {
  std::optional<int64_t> value = object.getInteger(key);
  if (!value || *value < 0 || static_cast<uint64_t>(*value) < min ||
      static_cast<uint64_t>(*value) > max) {
    corrupted(owner + ": field '" + key + "' is not an integer from " +
              llvm::Twine(min) + " to " + llvm::Twine(max));
    return std::nullopt;
  }
  return *value;
}

std::optional<StringRef>
CheckpointReader::getChecksum(const llvm::json::Object &object,
                              const llvm::Twine &owner) {
  std::optional<StringRef> checksum = object.getString("checksum");
  if (!checksum || !isChecksum(*checksum)) {
    corrupted(owner + ": field 'checksum' is not 16 hexadecimal digits");
    return std::nullopt;
  }
  return checksum;
}

bool CheckpointReader::checkRecords(const llvm::json::Object &records) {
  struct Hashed {
    std::string owner;
    StringRef bytes, checksum;
    bool matches = false;
  };
  std::vector<Hashed> toHash;
  for (const auto &[key, entry] : records) {
    StringRef name = key;
    std::string owner = ("record '" + name + "'").str();
    const llvm::json::Object *fields = entry.getAsObject();
    if (!fields) {
      corrupted(owner + " has no size and checksum");
      return false;
    }
    if (archive->isCompressed(name)) {
      fail(owner + " is compressed; checkpoints store records");
      return false;
    }
    std::optional<StringRef> bytes = archive->getRecord(name);
    if (!bytes) {
      fail("checkpoint is incomplete: " + owner + " is missing");
      return false;
    }
    std::optional<uint64_t> size =
        getBounded(*fields, "size", 0, file->getBufferSize(), owner);
    std::optional<StringRef> checksum =
        size ? getChecksum(*fields, owner) : std::nullopt;
    if (!checksum)
      return false;
    if (*size != bytes->size()) {
      corrupted(owner + " does not match its checksum");
      return false;
    }
    toHash.push_back({std::move(owner), *bytes, *checksum});
  }
  // Hashing is most of the time a weights file takes to open: it runs on
  // every core, and the first mismatch in manifest order is reported.
  llvm::parallelFor(0, toHash.size(), [&](size_t index) {
    toHash[index].matches =
        matchesChecksum(toHash[index].bytes, toHash[index].checksum);
  });
  for (const Hashed &record : toHash) {
    if (!record.matches) {
      corrupted(record.owner + " does not match its checksum");
      return false;
    }
  }
  return true;
}

bool CheckpointReader::readWeights(const llvm::json::Object &table,
                                   const llvm::json::Object &records,
                                   CheckpointWeights &weights) {
  for (const auto &[key, entry] : table) {
    StringRef name = key;
    std::string owner = ("weight '" + name + "'").str();
    const llvm::json::Object *fields = entry.getAsObject();
    std::optional<StringRef> record =
        fields ? fields->getString("record") : std::nullopt;
    if (!record) {
      corrupted(owner + " has no record");
      return false;
    }
    std::optional<StringRef> bytes = archive->getRecord(*record);
    if (!bytes) {
      fail("checkpoint is incomplete: record '" + *record + "' of " + owner +
           " is missing");
      return false;
    }
    const llvm::json::Object *checked = records.getObject(*record);
    if (!checked) {
      corrupted("record '" + *record + "' of " + owner + " has no checksum");
      return false;
    }
    std::optional<uint64_t> size =
        getBounded(*fields, "size", 0, file->getBufferSize(), owner);
    std::optional<uint64_t> alignment =
        size ? getBounded(*fields, "alignment", 1, kMaxWeightAlignment, owner)
             : std::nullopt;
    std::optional<StringRef> checksum =
        alignment ? getChecksum(*fields, owner) : std::nullopt;
    if (!checksum)
      return false;
    if (!llvm::isPowerOf2_64(*alignment)) {
      corrupted(owner + ": field 'alignment' is not a power of two");
      return false;
    }
    std::optional<StringRef> dtype = fields->getString("dtype");
    if (!dtype || dtype->empty() || dtype->size() > kMaxDtypeSize) {
      corrupted(owner + ": field 'dtype' is not a type name of up to " +
                llvm::Twine(kMaxDtypeSize) + " characters");
      return false;
    }
    // The record was checked against the record table; the entry must name
    // that record's contents, so that no entry can borrow another's data.
    if (*size != bytes->size() || checked->getString("checksum") != *checksum) {
      corrupted(owner + " does not match its record '" + *record + "'");
      return false;
    }
    weights.byWeight[name] = {*bytes, *alignment, dtype->str()};
  }
  return true;
}

llvm::Expected<ModuleFile>
mav::readCheckpoint(StringRef path, std::shared_ptr<llvm::MemoryBuffer> data) {
  std::string error;
  std::optional<ModuleFile> file =
      CheckpointReader(path, std::move(data), error).read();
  if (!file)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), error);
  return std::move(*file);
}

llvm::Expected<std::string> mav::readCheckpointChecksum(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return llvm::createStringError(
        file.getError(), path + ": cannot open: " + file.getError().message());
  std::string error;
  std::optional<std::string> checksum =
      CheckpointReader(path, std::move(*file), error).readChecksum();
  if (!checksum)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), error);
  return *checksum;
}
