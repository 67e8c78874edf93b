//===- CheckpointReader.cpp - Read and check a mav checkpoint -------------===//

#include "mav/Checkpoint/Checkpoint.h"
#include "mav/Runtime/MemoryReader.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/xxhash.h"

#include <caffe2/serialize/inline_container.h>

using namespace mlir;
using namespace mav;

/// Fails with "PATH: message".
static std::unique_ptr<llvm::MemoryBuffer>
fail(std::string &error, StringRef path, const llvm::Twine &message) {
  error = (path + ": " + message).str();
  return nullptr;
}

std::unique_ptr<llvm::MemoryBuffer>
mav::readCheckpoint(StringRef path, StringRef data, std::string &error) {
  try {
    caffe2::serialize::PyTorchStreamReader archive(
        std::make_shared<BoundedMemoryReader>(data));
    if (!archive.hasRecord("mav/manifest.json"))
      return fail(error, path,
                  "a zip archive but not a mav checkpoint (no "
                  "mav/manifest.json)");
    auto [manifestData, manifestSize] = archive.getRecord("mav/manifest.json");
    llvm::Expected<llvm::json::Value> manifest = llvm::json::parse(
        StringRef(static_cast<const char *>(manifestData.get()), manifestSize));
    if (!manifest)
      return fail(error, path,
                  "checkpoint is corrupted: unreadable manifest: " +
                      llvm::toString(manifest.takeError()));
    const llvm::json::Object *object = manifest->getAsObject();
    std::optional<int64_t> version =
        object ? object->getInteger("version") : std::nullopt;
    const llvm::json::Object *records =
        object ? object->getObject("records") : nullptr;
    std::optional<StringRef> graph =
        object ? object->getString("graph") : std::nullopt;
    if (!object || object->getString("format") != "mav-checkpoint" ||
        !version || !records || !graph)
      return fail(error, path,
                  "checkpoint is corrupted: the manifest lacks format, "
                  "version, graph or records");
    if (*version != kCheckpointVersion)
      return fail(error, path,
                  "checkpoint format version " + llvm::Twine(*version) +
                      ", this mav reads version " +
                      llvm::Twine(kCheckpointVersion));

    std::unique_ptr<llvm::MemoryBuffer> module;
    for (const auto &[name, hash] : *records) {
      std::string record = name.str();
      if (!archive.hasRecord(record))
        return fail(error, path,
                    "checkpoint is incomplete: record '" + record +
                        "' is missing");
      auto [recordData, size] = archive.getRecord(record);
      StringRef bytes(static_cast<const char *>(recordData.get()), size);
      if (hash.getAsString() !=
          llvm::utohexstr(llvm::xxHash64(bytes), /*LowerCase=*/true))
        return fail(error, path,
                    "checkpoint is corrupted: record '" + record +
                        "' does not match its checksum");
      if (record == *graph)
        module = llvm::MemoryBuffer::getMemBufferCopy(bytes, path);
    }
    if (!module)
      return fail(error, path,
                  "checkpoint is corrupted: no graph record '" + *graph + "'");
    return module;
  } catch (const std::exception &exception) {
    return fail(error, path,
                "not a readable checkpoint (truncated or damaged): " +
                    StringRef(exception.what()).split('\n').first);
  }
}
