//===- StreamWidthParams.h - Stream widths in verilog_param -----*- C++ -*-===//
//
// How a node's stream widths are recorded in its hardware metadata: the words
// per beat of a port are the product of its `*_PARALLELISM_DIM_d`, with the
// width on the one dimension the component streams in parallel
// (getParallelDim) and 1 on the others. lowerToHardware reads them back
// (getPortWidth); -mav-add-hardware-metadata and -mav-fold-parallelism write
// them here.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_HARDWARE_STREAMWIDTHPARAMS_H
#define MAV_HARDWARE_STREAMWIDTHPARAMS_H

#include "mav/Hardware/HardwareGraph.h"

#include "mlir/IR/OperationSupport.h"

namespace mav {

/// Sets `DATA_IN_k_PARALLELISM_DIM_d` for each stream input of `node` and
/// `DATA_OUT_0_PARALLELISM_DIM_d` in `params` (a node's `verilog_param`) to
/// `widths`: the width on the port's parallel dimension, 1 on the others.
/// A port's rank is the number of its `*_TENSOR_SIZE_DIM_d` entries; a port
/// without them (a tensor of a list argument) gets none, and streams at the
/// result's width.
void writeStreamWidths(const HardwareNode &node, const StreamWidths &widths,
                       mlir::NamedAttrList &params, mlir::MLIRContext *context);

} // namespace mav

#endif // MAV_HARDWARE_STREAMWIDTHPARAMS_H
