//===- CheckpointWriter.cpp - Write a mav checkpoint ----------------------===//
//
// Layout of the zip archive (PyTorch's format, so torch.load reads it):
//   mav/manifest.json  format, version, and the xxHash64 of every record
//   mav/graph.mlirbc   the module as MLIR bytecode, weights included
//   data.pkl, data/N   the weights as torch.save writes a dict of tensors
//
//===----------------------------------------------------------------------===//

#include "mav/Checkpoint/Checkpoint.h"
#include "mav/IR/MavOps.h"
#include "mav/Runtime/MemoryReader.h"
#include "mav/Runtime/TorchTypes.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/serialization/pickle.h>

using namespace mlir;
using namespace mav;

namespace {
struct Record {
  std::string name;
  const char *data;
  size_t size;
};
} // namespace

static std::string hashOf(const char *data, size_t size) {
  return llvm::utohexstr(llvm::xxHash64(llvm::StringRef(data, size)),
                         /*LowerCase=*/true);
}

LogicalResult mav::writeCheckpoint(ModuleOp module, StringRef path,
                                   std::string &error) {
  try {
    c10::impl::GenericDict state(c10::StringType::get(),
                                 c10::TensorType::get());
    for (WeightOp weight : module.getOps<WeightOp>()) {
      FailureOr<at::Tensor> tensor = materializeWeight(weight, c10::kCPU);
      if (failed(tensor)) {
        error = ("weight '" + weight.getSymName() + "' has no data").str();
        return failure();
      }
      state.insert(weight.getSymName().str(), *tensor);
    }
    std::vector<char> weights = torch::jit::pickle_save(state);

    std::string graph;
    llvm::raw_string_ostream graphStream(graph);
    writeBytecodeToFile(module, graphStream);
    graphStream.flush();

    // torch.save's records, copied beside ours; the writer adds "version".
    caffe2::serialize::PyTorchStreamReader torchArchive(
        std::make_shared<BoundedMemoryReader>(
            llvm::StringRef(weights.data(), weights.size())));
    std::vector<at::DataPtr> keepAlive;
    std::vector<Record> records = {
        {"mav/graph.mlirbc", graph.data(), graph.size()}};
    for (const std::string &name : torchArchive.getAllRecords()) {
      if (name == "version")
        continue;
      auto [data, size] = torchArchive.getRecord(name);
      records.push_back({name, static_cast<const char *>(data.get()), size});
      keepAlive.push_back(std::move(data));
    }

    llvm::json::Object hashes;
    for (const Record &record : records)
      hashes[record.name] = hashOf(record.data, record.size);
    std::string manifest;
    llvm::raw_string_ostream manifestStream(manifest);
    manifestStream << llvm::formatv(
        "{0:2}",
        llvm::json::Value(llvm::json::Object{{"format", "mav-checkpoint"},
                                             {"version", kCheckpointVersion},
                                             {"graph", "mav/graph.mlirbc"},
                                             {"records", std::move(hashes)}}));
    manifestStream.flush();

    llvm::Error written =
        llvm::writeToOutput(path, [&](llvm::raw_ostream &out) -> llvm::Error {
          caffe2::serialize::PyTorchStreamWriter writer(
              [&](const void *data, size_t size) {
                out.write(static_cast<const char *>(data), size);
                return size;
              });
          writer.writeRecord("mav/manifest.json", manifest.data(),
                             manifest.size());
          for (const Record &record : records)
            writer.writeRecord(record.name, record.data, record.size);
          writer.writeEndOfFile();
          return llvm::Error::success();
        });
    if (written) {
      error = llvm::toString(std::move(written));
      return failure();
    }
    // The temporary file was created private; a checkpoint is a data file.
    llvm::sys::fs::setPermissions(path, llvm::sys::fs::all_read |
                                            llvm::sys::fs::owner_write);
  } catch (const std::exception &exception) {
    error = llvm::StringRef(exception.what()).split('\n').first.str();
    return failure();
  }
  return success();
}
