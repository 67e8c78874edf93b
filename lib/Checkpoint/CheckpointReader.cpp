//===- CheckpointReader.cpp - Read and check a mav checkpoint -------------===//
//
// libtorch-free: the zip archive is read in place, the manifest is JSON, the
// module is bytecode, and the weights are raw tensor records.
//
//===----------------------------------------------------------------------===//

#include "mav/Checkpoint/Checkpoint.h"
#include "mav/Checkpoint/ZipArchive.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Alignment.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mav;

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

namespace {
/// Reads one checkpoint, failing with "PATH: message".
class CheckpointReader {
public:
  CheckpointReader(StringRef path, std::shared_ptr<llvm::MemoryBuffer> file,
                   std::string &error)
      : path(path), file(std::move(file)), error(error) {}

  std::optional<ModuleFile> read();

private:
  std::nullopt_t fail(const llvm::Twine &message) {
    error = (path + ": " + message).str();
    return std::nullopt;
  }
  std::nullopt_t corrupted(const llvm::Twine &message) {
    return fail("checkpoint is corrupted: " + message);
  }

  /// Checks every record the manifest lists against its checksum.
  bool checkRecords(const ZipArchive &archive,
                    const llvm::json::Object &records);
  /// The manifest's weight table: weight name to record and alignment.
  /// Only checked records may hold weights.
  bool readWeights(const ZipArchive &archive, const llvm::json::Object &table,
                   const llvm::json::Object &records,
                   CheckpointWeights &weights);

  StringRef path;
  std::shared_ptr<llvm::MemoryBuffer> file;
  std::string &error;
};
} // namespace

std::optional<ModuleFile> CheckpointReader::read() {
  std::string zipError;
  std::optional<ZipArchive> archive =
      ZipArchive::open(file->getBuffer(), zipError);
  if (!archive)
    return fail("not a readable checkpoint (truncated or damaged): " +
                zipError);
  std::optional<StringRef> manifestText =
      archive->getRecord("mav/manifest.json");
  if (!manifestText)
    return fail("a zip archive but not a mav checkpoint (no "
                "mav/manifest.json)");
  llvm::Expected<llvm::json::Value> manifest = llvm::json::parse(*manifestText);
  if (!manifest)
    return corrupted("unreadable manifest: " +
                     llvm::toString(manifest.takeError()));
  const llvm::json::Object *object = manifest->getAsObject();
  std::optional<int64_t> version =
      object ? object->getInteger("version") : std::nullopt;
  const llvm::json::Object *records =
      object ? object->getObject("records") : nullptr;
  std::optional<StringRef> graph =
      object ? object->getString("graph") : std::nullopt;
  if (!object || object->getString("format") != "mav-checkpoint" || !version ||
      !records || !graph)
    return corrupted("the manifest lacks format, version, graph or records");
  if (*version != kCheckpointVersion)
    return fail("checkpoint format version " + llvm::Twine(*version) +
                ", this mav reads version " + llvm::Twine(kCheckpointVersion));
  const llvm::json::Object *weightTable = object->getObject("weights");
  if (!weightTable)
    return corrupted("the manifest lacks its weight table");

  if (!checkRecords(*archive, *records))
    return std::nullopt;
  std::optional<StringRef> bytecode = archive->getRecord(*graph);
  if (!bytecode || !records->get(*graph))
    return corrupted("no graph record '" + *graph + "'");

  auto weights = std::make_shared<CheckpointWeights>();
  weights->file = file;
  weights->path = path.str();
  if (!readWeights(*archive, *weightTable, *records, *weights))
    return std::nullopt;
  return ModuleFile{getAlignedBuffer(*bytecode, path), std::move(weights)};
}

bool CheckpointReader::checkRecords(const ZipArchive &archive,
                                    const llvm::json::Object &records) {
  for (const auto &[key, hash] : records) {
    StringRef name = key;
    if (archive.isCompressed(name)) {
      fail("record '" + name + "' is compressed; checkpoints store records");
      return false;
    }
    std::optional<StringRef> bytes = archive.getRecord(name);
    if (!bytes) {
      fail("checkpoint is incomplete: record '" + name + "' is missing");
      return false;
    }
    std::optional<StringRef> expected = hash.getAsString();
    if (!expected || *expected != getRecordChecksum(*bytes)) {
      corrupted("record '" + name + "' does not match its checksum");
      return false;
    }
  }
  return true;
}

bool CheckpointReader::readWeights(const ZipArchive &archive,
                                   const llvm::json::Object &table,
                                   const llvm::json::Object &records,
                                   CheckpointWeights &weights) {
  for (const auto &[key, entry] : table) {
    StringRef name = key;
    const llvm::json::Object *fields = entry.getAsObject();
    std::optional<StringRef> record =
        fields ? fields->getString("record") : std::nullopt;
    std::optional<int64_t> alignment =
        fields ? fields->getInteger("alignment") : std::nullopt;
    if (!record || !alignment || *alignment <= 0 ||
        !llvm::isPowerOf2_64(*alignment)) {
      corrupted("weight '" + name +
                "' has no record or no power-of-two alignment");
      return false;
    }
    std::optional<StringRef> bytes = archive.getRecord(*record);
    if (!bytes) {
      fail("checkpoint is incomplete: record '" + *record + "' of weight '" +
           name + "' is missing");
      return false;
    }
    if (!records.get(*record)) {
      corrupted("record '" + *record + "' of weight '" + name +
                "' has no checksum");
      return false;
    }
    weights.byWeight[name] = {*bytes, static_cast<uint64_t>(*alignment)};
  }
  return true;
}

std::optional<ModuleFile>
mav::readCheckpoint(StringRef path, std::shared_ptr<llvm::MemoryBuffer> data,
                    std::string &error) {
  return CheckpointReader(path, std::move(data), error).read();
}
