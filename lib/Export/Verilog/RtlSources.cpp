//===- RtlSources.cpp - The embedded component library --------------------===//

#include "mav/Export/Verilog.h"

using namespace llvm;

ArrayRef<std::pair<StringRef, StringRef>> mav::getRtlSources() {
  static const std::pair<StringRef, StringRef> sources[] = {
#include "RtlSources.inc"
  };
  return sources;
}
