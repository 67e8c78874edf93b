//===- PoolWindows.h - The windows a pooling node reduces -------*- C++ -*-===//
//
// The fixed-point rules and error bounds of the pools walk the same windows.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_HARDWARE_COMPONENTS_POOLWINDOWS_H
#define MAV_LIB_HARDWARE_COMPONENTS_POOLWINDOWS_H

#include "mav/Hardware/HardwareGraph.h"

namespace mav {

/// Calls `window(o, indices)` for each output element o of a pooling node,
/// in row-major order, with the input indices of its window's taps inside
/// the image (padding, and in ceil mode the part past the edge, has none).
template <typename WindowFn>
void forEachPoolWindow(const HardwareNode &node, WindowFn &&window) {
  int64_t planes = node.inShape[0] * node.inShape[1];
  int64_t height = node.inShape[2], width = node.inShape[3];
  int64_t oh = node.outShape[2], ow = node.outShape[3];
  llvm::SmallVector<int64_t, 16> indices;
  int64_t o = 0;
  for (int64_t plane = 0; plane < planes; ++plane)
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox, ++o) {
        indices.clear();
        for (int64_t ky = 0; ky < node.kernelH; ++ky)
          for (int64_t kx = 0; kx < node.kernelW; ++kx) {
            int64_t iy = oy * node.stride + ky - node.padding;
            int64_t ix = ox * node.stride + kx - node.padding;
            if (iy >= 0 && iy < height && ix >= 0 && ix < width)
              indices.push_back(plane * height * width + iy * width + ix);
          }
        window(o, llvm::ArrayRef<int64_t>(indices));
      }
}

} // namespace mav

#endif // MAV_LIB_HARDWARE_COMPONENTS_POOLWINDOWS_H
