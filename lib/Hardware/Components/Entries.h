//===- Entries.h - The component entries, one per component -----*- C++ -*-===//
//
// Each entry is defined in the file of its component family; Registry.cpp
// lists them in dependency order.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_HARDWARE_COMPONENTS_ENTRIES_H
#define MAV_LIB_HARDWARE_COMPONENTS_ENTRIES_H

#include "mav/Hardware/Component.h"

namespace mav::components {

// Glue.cpp: helpers and the glue between nodes.
extern const Component fixedRoundSat, fixedSkidBuffer, fixedFifo, fixedFork,
    fixedJoin2, fixedWindowScan, fixedCast, fixedWidthConvert;
// Elementwise.cpp
extern const Component fixedRelu, fixedFlatten, fixedAdd, fixedMul;
// Activations.cpp
extern const Component fixedClamp, fixedHardswish, fixedHardsigmoid;
// Channels.cpp
extern const Component fixedConcat2, fixedChannelMul;
// Linear.cpp, Conv2d.cpp, Pools.cpp
extern const Component fixedLinear, fixedConv2d, fixedMaxPool2d, fixedAvgPool2d;
// The transformer's: Scale.cpp, Gelu.cpp, Reorder.cpp, Matmul.cpp,
// Softmax.cpp, LayerNorm.cpp
extern const Component fixedScale, fixedGelu, fixedReorder, fixedMatmul,
    fixedSoftmax, fixedLayerNorm;
// Tokens.cpp
extern const Component fixedPrepend, fixedAddConst;

} // namespace mav::components

#endif // MAV_LIB_HARDWARE_COMPONENTS_ENTRIES_H
