//===- TensorStrides.cpp - A tensor type's default strides ----------------===//

#include "mav/IR/TensorStrides.h"

#include <algorithm>

using namespace mav;

llvm::SmallVector<int64_t>
layout::contiguousStrides(llvm::ArrayRef<int64_t> sizes) {
  llvm::SmallVector<int64_t> strides(sizes.size(), 1);
  int64_t next = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = next;
    next *= std::max<int64_t>(sizes[i], 1);
  }
  return strides;
}
