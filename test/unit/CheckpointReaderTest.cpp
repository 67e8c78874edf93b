//===- CheckpointReaderTest.cpp - Checkpoints read from memory ------------===//
//
// Checkpoints assembled here, record by record (ZipWriter.h), around a small
// module, and read from memory: every byte of the header, the manifest and
// the graph is authenticated, and each refusal is one line naming the file.
//
//===----------------------------------------------------------------------===//

#include "ZipWriter.h"
#include "mav/Checkpoint/Checkpoint.h"
#include "mav/IR/MavDialect.h"
#include "mav/IR/MavOps.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace mav;
using namespace mav::ziptest;
using llvm::StringRef;

namespace {

/// readCheckpoint, with its error as a string.
std::optional<ModuleFile>
readCheckpointOr(StringRef path, std::shared_ptr<llvm::MemoryBuffer> data,
                 std::string &error) {
  llvm::Expected<ModuleFile> file = readCheckpoint(path, std::move(data));
  if (file)
    return std::move(*file);
  error = llvm::toString(file.takeError());
  return std::nullopt;
}

constexpr StringRef kModule = R"mlir(
mav.weight @w parameter = dense_resource<w> : tensor<2xf32>
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00000040"
    }
  }
#-}
)mlir";

/// The weight's data: 1.0f and 2.0f.
constexpr StringRef kWeight("\x00\x00\x80\x3f\x00\x00\x00\x40", 8);

struct Records {
  std::string header, manifest, graph;
};

class CheckpointReaderTest : public ::testing::Test {
protected:
  void SetUp() override {
    context.loadDialect<MavDialect>();
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(kModule, &context);
    ASSERT_TRUE(module);
    llvm::raw_string_ostream os(records.graph);
    mlir::writeBytecodeToFile(*module, os);
    os.flush();
    records.manifest =
        (R"({"records": {"data/0": {"size": 8, "checksum": ")" +
         getRecordChecksum(kWeight) + R"("}, "mav/graph.mlirbc": {"size": )" +
         std::to_string(records.graph.size()) + R"(, "checksum": ")" +
         getRecordChecksum(records.graph) +
         R"("}}, "weights": {"w": {"record": "data/0", "size": 8, )"
         R"("dtype": "f32", "alignment": 4, "checksum": ")" +
         getRecordChecksum(kWeight) + R"("}}})");
    records.header = formatCheckpointHeader(records.manifest, records.graph);
  }

  static std::string write(const Records &records) {
    std::vector<Entry> entries(4);
    entries[0].name = "archive/mav/header";
    entries[0].data = records.header;
    entries[1].name = "archive/mav/manifest.json";
    entries[1].data = records.manifest;
    entries[2].name = "archive/mav/graph.mlirbc";
    entries[2].data = records.graph;
    entries[3].name = "archive/data/0";
    entries[3].data = kWeight.str();
    return writeZip(entries);
  }

  /// The error reading `bytes`, or "read" if they read.
  static std::string readError(const std::string &bytes) {
    std::string error;
    std::shared_ptr<llvm::MemoryBuffer> buffer =
        llvm::MemoryBuffer::getMemBufferCopy(bytes, "mem.ckpt");
    if (readCheckpointOr("mem.ckpt", buffer, error))
      return "read";
    EXPECT_EQ(StringRef(error).find('\n'), StringRef::npos) << error;
    EXPECT_TRUE(StringRef(error).starts_with("mem.ckpt: ")) << error;
    return error;
  }

  /// Every one-byte change of `record` fails to read.
  void expectEveryChangeRefused(std::string Records::*record) {
    for (size_t i = 0; i < (records.*record).size(); ++i) {
      for (char mask : {'\x01', '\x20', '\x80'}) {
        Records changed = records;
        (changed.*record)[i] ^= mask;
        EXPECT_NE(readError(write(changed)), "read")
            << "byte " << i << " ^ " << int(mask);
      }
    }
  }

  mlir::MLIRContext context;
  Records records;
};

TEST_F(CheckpointReaderTest, ReadsFromMemory) {
  std::string error;
  std::shared_ptr<llvm::MemoryBuffer> buffer =
      llvm::MemoryBuffer::getMemBufferCopy(write(records), "mem.ckpt");
  std::optional<ModuleFile> file = readCheckpointOr("mem.ckpt", buffer, error);
  ASSERT_TRUE(file) << error;
  ASSERT_TRUE(file->weights);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file->ir), llvm::SMLoc());
  mlir::MLIRContext fresh;
  fresh.loadDialect<MavDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &fresh);
  ASSERT_TRUE(module);
  ASSERT_TRUE(
      mlir::succeeded(attachCheckpointWeights(*module, *file->weights)));
  auto weight = *module->getOps<WeightOp>().begin();
  auto value = weight.getValue().cast<mlir::DenseResourceElementsAttr>();
  mlir::AsmResourceBlob *blob = value.getRawHandle().getBlob();
  ASSERT_TRUE(blob);
  EXPECT_EQ(StringRef(blob->getData().data(), blob->getData().size()), kWeight);
}

TEST_F(CheckpointReaderTest, EveryHeaderByteIsChecked) {
  expectEveryChangeRefused(&Records::header);
}

TEST_F(CheckpointReaderTest, EveryManifestByteIsAuthenticated) {
  expectEveryChangeRefused(&Records::manifest);
}

TEST_F(CheckpointReaderTest, EveryGraphByteIsAuthenticated) {
  expectEveryChangeRefused(&Records::graph);
}

TEST_F(CheckpointReaderTest, EveryTruncatedHeaderIsRefused) {
  for (size_t size = 0; size < records.header.size(); ++size) {
    Records truncated = records;
    truncated.header.resize(size);
    EXPECT_NE(readError(write(truncated)), "read") << size << " bytes";
  }
}

TEST_F(CheckpointReaderTest, DeepManifestIsRefused) {
  Records deep = records;
  deep.manifest = std::string(1 << 20, '[') + std::string(1 << 20, ']');
  deep.header = formatCheckpointHeader(deep.manifest, deep.graph);
  EXPECT_EQ(readError(write(deep)), "mem.ckpt: checkpoint is corrupted: the "
                                    "manifest nests deeper than 8 levels");
}

} // namespace
