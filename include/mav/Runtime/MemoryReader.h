//===- MemoryReader.h - A bounded in-memory archive reader ------*- C++ -*-===//
//
// Feeds an in-memory archive to libtorch's readers. Unlike caffe2's
// MemoryReadAdapter it never reads past the end, which a truncated archive
// would make it do. Includes libtorch.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_RUNTIME_MEMORYREADER_H
#define MAV_RUNTIME_MEMORYREADER_H

#include "llvm/ADT/StringRef.h"

#include <caffe2/serialize/read_adapter_interface.h>

#include <algorithm>
#include <cstring>

namespace mav {

class BoundedMemoryReader final
    : public caffe2::serialize::ReadAdapterInterface {
public:
  explicit BoundedMemoryReader(llvm::StringRef data) : data(data) {}
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
  llvm::StringRef data;
};

} // namespace mav

#endif // MAV_RUNTIME_MEMORYREADER_H
