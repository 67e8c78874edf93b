//===- TorchScriptImporter.cpp - Entry of the TorchScript importer --------===//
//
// Loads the archive with libtorch, imports weights and the forward graph,
// verifies the result, and turns every libtorch failure into one diagnostic
// naming the file.
//
//===----------------------------------------------------------------------===//

#include "ImporterInternals.h"

#include "mlir/IR/Verifier.h"

#include <caffe2/serialize/read_adapter_interface.h>

using namespace mlir;
using namespace mav;
using namespace mav::detail;

InFlightDiagnostic ImportContext::emitError() {
  return mlir::emitError(FileLineColLoc::get(context, fileName, 0, 0));
}

namespace {
/// Reads the archive from memory. Unlike caffe2's MemoryReadAdapter it never
/// reads past the end, which a truncated archive would make it do.
class BoundedMemoryReader final
    : public caffe2::serialize::ReadAdapterInterface {
public:
  explicit BoundedMemoryReader(StringRef data) : data(data) {}
  size_t size() const override { return data.size(); }
  size_t read(uint64_t pos, void *buf, size_t n,
              const char *what = "") const override {
    if (pos >= data.size())
      return 0;
    size_t available = std::min<uint64_t>(n, data.size() - pos);
    std::memcpy(buf, data.data() + pos, available);
    return available;
  }

private:
  StringRef data;
};
} // namespace

/// libtorch messages carry a C++ backtrace after the first line.
static StringRef firstLine(StringRef message) {
  return message.split('\n').first.trim();
}

OwningOpRef<ModuleOp>
mav::importTorchScript(StringRef buffer, StringRef fileName,
                       const TorchScriptImportOptions &options,
                       MLIRContext *context) {
  context->loadDialect<MavDialect>();
  OwningOpRef<ModuleOp> module =
      ModuleOp::create(FileLineColLoc::get(context, fileName, 0, 0));
  ImportContext ctx(*module, fileName, options);
  try {
    auto reader = std::make_shared<BoundedMemoryReader>(buffer);
    torch::jit::Module root;
    try {
      root = torch::jit::load(reader, at::kCPU);
    } catch (const c10::Error &error) {
      ctx.emitError() << "not a readable TorchScript archive: "
                      << firstLine(error.what_without_backtrace());
      return nullptr;
    }
    if (failed(importWeights(ctx, root)) || failed(importForward(ctx, root)))
      return nullptr;
  } catch (const c10::Error &error) {
    ctx.emitError() << "import failed: "
                    << firstLine(error.what_without_backtrace());
    return nullptr;
  } catch (const std::exception &error) {
    ctx.emitError() << "import failed: " << firstLine(error.what());
    return nullptr;
  }
  if (failed(verify(*module)))
    return nullptr;
  return module;
}
