//===- TorchScriptFuzzer.cpp - libFuzzer target for TorchScript archives --===//
//
// Hands the input to what mav does with a `.pt` file before and at
// torch::jit::load, as `mav-translate --import-torchscript` and
// `mav-run --reference` do: the zip reader and the CRC-32 check
// (ZipChecksums.h) first; libtorch loads only what they accept, from the same
// bytes. A refusal must be one line; libtorch's own refusals are c10::Error.
// libtorch is not instrumented, and a well-formed archive whose CRC-32s match
// can still crash it (docs/KnownLimits.md): mutated inputs almost never get
// past the CRC-32 check, so what this target fuzzes is mav's side.
//
//===----------------------------------------------------------------------===//

#include "mav/Checkpoint/ZipChecksums.h"
#include "mav/Runtime/MemoryReader.h"

#include <torch/script.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  if (llvm::Error error = mav::checkTorchScriptArchive(bytes)) {
    std::string message = llvm::toString(std::move(error));
    if (message.empty() || message.find('\n') != std::string::npos) {
      std::fprintf(stderr, "not a one-line error: '%s'\n", message.c_str());
      std::abort();
    }
    return 0;
  }
  try {
    torch::jit::Module module = torch::jit::load(
        std::make_shared<mav::BoundedMemoryReader>(bytes), at::kCPU);
    (void)module.named_modules().size();
  } catch (const c10::Error &) {
  } catch (const std::exception &) {
  }
  return 0;
}
