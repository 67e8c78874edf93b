//===- CheckpointWriter.cpp - Write a mav checkpoint ----------------------===//
//
// Layout of the zip archive (PyTorch's format, so torch.load reads it):
//   mav/header         version; size and xxHash64 of the manifest and graph
//   mav/manifest.json  size and xxHash64 of every other record; the weights
//   mav/graph.mlirbc   the module as MLIR bytecode, its weight blobs empty
//   data.pkl, data/N   the weights as torch.save writes a dict of tensors
// The manifest's weight table says which data/N record holds each weight's
// blob, so that weight data is stored once and read in place.
//
//===----------------------------------------------------------------------===//

#include "CheckpointServices.h"
#include "mav/IR/MavOps.h"
#include "mav/Runtime/TorchTypes.h"
#include "mav/Support/AtomicOutput.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/serialization/pickler.h>

#include <optional>

using namespace mlir;
using namespace mav;

namespace {
struct Record {
  std::string name;
  const char *data;
  size_t size;
  std::optional<std::string> checksum;

  /// Computed once: a weight's record is in both tables.
  StringRef getChecksum() {
    if (!checksum)
      checksum = getRecordChecksum(StringRef(data, size));
    return *checksum;
  }
};
} // namespace

namespace {
/// Empties weight blobs for as long as it lives, so that the bytecode does not
/// hold weight data twice; restores them after.
class DetachedBlobs {
public:
  using BlobEntry = DialectResourceBlobManager::BlobEntry;
  DetachedBlobs() = default;
  DetachedBlobs(const DetachedBlobs &) = delete;
  DetachedBlobs &operator=(const DetachedBlobs &) = delete;
  ~DetachedBlobs() {
    for (auto &[entry, blob] : saved)
      entry->setBlob(std::move(blob));
  }

  bool isDetached(BlobEntry *entry) const { return seen.contains(entry); }

  void detach(BlobEntry *entry) {
    AsmResourceBlob *blob = entry->getBlob();
    if (!blob || !seen.insert(entry).second)
      return;
    size_t alignment = blob->getDataAlignment();
    saved.emplace_back(entry, std::move(*blob));
    entry->setBlob(AsmResourceBlob(ArrayRef<char>(), alignment,
                                   /*deleter=*/nullptr,
                                   /*dataIsMutable=*/false));
  }

private:
  llvm::DenseSet<BlobEntry *> seen;
  std::vector<std::pair<BlobEntry *, AsmResourceBlob>> saved;
};

/// A weight whose blob is stored as a tensor record.
struct BlobWeight {
  StringRef name;
  Type elementType;
  DialectResourceBlobManager::BlobEntry *entry;
  size_t storageIndex;
};
} // namespace

LogicalResult mav::torch_runtime::writeCheckpoint(ModuleOp module,
                                                  StringRef path) {
  auto fail = [&](const llvm::Twine &why) {
    return module.emitError()
           << "cannot write checkpoint '" << path << "': " << why.str();
  };
  try {
    c10::impl::GenericDict state(c10::StringType::get(),
                                 c10::TensorType::get());
    // torch's pickler names storages data/0, data/1, ... in the order it
    // first meets them; the state dict is pickled in insertion order.
    llvm::DenseMap<const void *, size_t> storageIndices;
    std::vector<BlobWeight> blobWeights;
    for (WeightOp weight : module.getOps<WeightOp>()) {
      FailureOr<at::Tensor> tensor = viewWeight(weight);
      if (failed(tensor))
        return fail("weight '" + weight.getSymName() + "' has no data");
      state.insert(weight.getSymName().str(), *tensor);
      const void *storage = tensor->storage().unsafeGetStorageImpl();
      size_t index = storageIndices.try_emplace(storage, storageIndices.size())
                         .first->second;
      if (auto value = weight.getValue().dyn_cast<DenseResourceElementsAttr>())
        blobWeights.push_back({weight.getSymName(),
                               value.getType().getElementType(),
                               value.getRawHandle().getResource(), index});
    }
    // torch.save's records (as torch::jit::pickle_save makes them: data/N,
    // then data.pkl), each tensor's read in place from its blob.
    std::vector<char> pickled;
    torch::jit::Pickler pickler([&](const char *data, size_t size) {
      pickled.insert(pickled.end(), data, data + size);
    });
    pickler.protocol();
    pickler.pushIValue(state);
    pickler.stop();
    std::vector<Record> records;
    std::vector<torch::jit::WriteableTensorData> tensorData;
    for (const at::Tensor &tensor : pickler.tensorData())
      tensorData.push_back(torch::jit::getWriteableTensorData(tensor));
    for (size_t index = 0; index < tensorData.size(); ++index)
      records.push_back({"data/" + std::to_string(index),
                         tensorData[index].data(),
                         tensorData[index].sizeInBytes(), std::nullopt});
    records.push_back(
        {"data.pkl", pickled.data(), pickled.size(), std::nullopt});

    llvm::json::Object weightTable;
    DetachedBlobs detached;
    for (const BlobWeight &weight : blobWeights) {
      // A tied weight shares its blob with the weight it is tied to.
      if (detached.isDetached(weight.entry))
        continue;
      // Record N is data/N, the pickler's N-th storage.
      ArrayRef<char> blob = weight.entry->getBlob()->getData();
      if (weight.storageIndex >= tensorData.size() ||
          records[weight.storageIndex].data != blob.data() ||
          records[weight.storageIndex].size != blob.size()) {
        return fail("weight '" + weight.name +
                    "' is not where torch's pickler was expected to put it "
                    "(data/" +
                    llvm::Twine(weight.storageIndex) + ")");
      }
      Record &stored = records[weight.storageIndex];
      uint64_t alignment = weight.entry->getBlob()->getDataAlignment();
      if (alignment > kMaxWeightAlignment) {
        return fail("weight '" + weight.name + "' is aligned to " +
                    llvm::Twine(alignment) +
                    " bytes; checkpoints allow at most " +
                    llvm::Twine(kMaxWeightAlignment));
      }
      std::string dtype;
      llvm::raw_string_ostream(dtype) << weight.elementType;
      weightTable[weight.name] =
          llvm::json::Object{{"record", stored.name},
                             {"size", static_cast<int64_t>(blob.size())},
                             {"dtype", dtype},
                             {"alignment", static_cast<int64_t>(alignment)},
                             {"checksum", stored.getChecksum()}};
      detached.detach(weight.entry);
    }
    std::string graph;
    llvm::raw_string_ostream graphStream(graph);
    {
      // A checkpoint holds its weights itself: it names no weights file.
      Attribute weightsFile =
          module->removeAttr(MavDialect::getWeightsFileAttrName());
      writeBytecodeToFile(module, graphStream);
      if (weightsFile)
        module->setAttr(MavDialect::getWeightsFileAttrName(), weightsFile);
    }
    graphStream.flush();

    llvm::json::Object recordTable;
    for (Record &record : records)
      recordTable[record.name] =
          llvm::json::Object{{"size", static_cast<int64_t>(record.size)},
                             {"checksum", record.getChecksum()}};
    recordTable[kGraphRecord] =
        llvm::json::Object{{"size", static_cast<int64_t>(graph.size())},
                           {"checksum", getRecordChecksum(graph)}};
    std::string manifest;
    llvm::raw_string_ostream manifestStream(manifest);
    manifestStream << llvm::formatv(
        "{0:2}", llvm::json::Value(
                     llvm::json::Object{{"records", std::move(recordTable)},
                                        {"weights", std::move(weightTable)}}));
    manifestStream.flush();
    std::string header = formatCheckpointHeader(manifest, graph);

    llvm::Expected<AtomicFile> file = AtomicFile::create(path);
    if (!file)
      return fail(llvm::toString(file.takeError()));
    {
      // Writes never fail as torch sees them: a failure is kept by the file
      // for commit(), as torch's writer cannot unwind through its C zip
      // code.
      caffe2::serialize::PyTorchStreamWriter writer(
          [&](const void *data, size_t size) {
            file->write(StringRef(static_cast<const char *>(data), size));
            return size;
          });
      writer.writeRecord(kHeaderRecord.str(), header.data(), header.size());
      writer.writeRecord(kManifestRecord.str(), manifest.data(),
                         manifest.size());
      writer.writeRecord(kGraphRecord.str(), graph.data(), graph.size());
      for (const Record &record : records)
        writer.writeRecord(record.name, record.data, record.size);
      writer.writeEndOfFile();
    }
    if (llvm::Error committed = file->commit())
      return fail(llvm::toString(std::move(committed)));
  } catch (const std::exception &exception) {
    return fail(llvm::StringRef(exception.what()).split('\n').first);
  }
  return success();
}

void mav::registerCheckpointTorchServices() {
  checkpoint_services::writeCheckpoint.provide(torch_runtime::writeCheckpoint);
}
