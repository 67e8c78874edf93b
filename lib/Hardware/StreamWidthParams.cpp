//===- StreamWidthParams.cpp - Stream widths in verilog_param -------------===//

#include "mav/Hardware/StreamWidthParams.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mav;

/// Writes `width` on the parallel dimension of the port `prefix` and 1 on
/// its other dimensions.
static void writePort(StringRef prefix, int64_t width, NamedAttrList &params,
                      Builder &builder) {
  unsigned rank = 0;
  while (params.get((prefix + "_TENSOR_SIZE_DIM_" + Twine(rank)).str()))
    ++rank;
  for (unsigned dim = 0; dim < rank; ++dim)
    params.set(
        (prefix + "_PARALLELISM_DIM_" + Twine(dim)).str(),
        builder.getI64IntegerAttr(dim == getParallelDim(rank) ? width : 1));
}

void mav::writeStreamWidths(const HardwareNode &node,
                            const StreamWidths &widths, NamedAttrList &params,
                            MLIRContext *context) {
  Builder builder(context);
  for (auto [port, width] : llvm::enumerate(widths.in))
    writePort(getStreamPortName(node, port), width, params, builder);
  writePort("DATA_OUT_0", widths.out, params, builder);
}
