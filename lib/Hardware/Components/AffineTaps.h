//===- AffineTaps.h - The products a linear or conv2d node sums -*- C++ -*-===//
//
// A linear or conv2d node computes, for every output element o,
// y[o] = bias[channel(o)] + sum over its taps of weight[w] * x[i]. The
// components' fixed-point rules and error bounds walk the same taps and
// windows, so that both describe one computation.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_HARDWARE_COMPONENTS_AFFINETAPS_H
#define MAV_LIB_HARDWARE_COMPONENTS_AFFINETAPS_H

#include "mav/Hardware/HardwareGraph.h"

namespace mav {

/// Calls `output(o, channel)` once per output element o of a linear node,
/// in row-major order, then `tap(o, w, i)` for each product weight[w] * x[i]
/// it sums.
template <typename OutputFn, typename TapFn>
void forEachLinearTap(const HardwareNode &node, OutputFn &&output,
                      TapFn &&tap) {
  int64_t inFeatures = node.inShape.back(), outFeatures = node.outShape.back();
  int64_t vectors = node.inNumel() / inFeatures;
  for (int64_t v = 0, o = 0; v < vectors; ++v)
    for (int64_t f = 0; f < outFeatures; ++f, ++o) {
      output(o, f);
      for (int64_t i = 0; i < inFeatures; ++i)
        tap(o, f * inFeatures + i, v * inFeatures + i);
    }
}

/// The same for a conv2d node: output channel oc of group g = oc / (OC / G)
/// reads input channels g * (IC / G) ... (g + 1) * (IC / G) - 1; zero
/// padding contributes no tap.
template <typename OutputFn, typename TapFn>
void forEachConvTap(const HardwareNode &node, OutputFn &&output, TapFn &&tap) {
  int64_t batch = node.inShape[0], channels = node.inShape[1],
          height = node.inShape[2], width = node.inShape[3];
  int64_t outChannels = node.outShape[1], oh = node.outShape[2],
          ow = node.outShape[3];
  int64_t kh = node.kernelH, kw = node.kernelW;
  int64_t groupIn = channels / node.groups,
          groupOut = outChannels / node.groups;
  int64_t o = 0;
  for (int64_t n = 0; n < batch; ++n) {
    int64_t image = n * channels * height * width;
    for (int64_t oc = 0; oc < outChannels; ++oc) {
      int64_t firstChannel = (oc / groupOut) * groupIn;
      for (int64_t oy = 0; oy < oh; ++oy)
        for (int64_t ox = 0; ox < ow; ++ox, ++o) {
          output(o, oc);
          for (int64_t ic = 0; ic < groupIn; ++ic)
            for (int64_t ky = 0; ky < kh; ++ky)
              for (int64_t kx = 0; kx < kw; ++kx) {
                int64_t iy = oy * node.stride + ky - node.padding;
                int64_t ix = ox * node.stride + kx - node.padding;
                if (iy < 0 || iy >= height || ix < 0 || ix >= width)
                  continue;
                tap(o, ((oc * groupIn + ic) * kh + ky) * kw + kx,
                    image + ((firstChannel + ic) * height + iy) * width + ix);
              }
        }
    }
  }
}

} // namespace mav

#endif // MAV_LIB_HARDWARE_COMPONENTS_AFFINETAPS_H
