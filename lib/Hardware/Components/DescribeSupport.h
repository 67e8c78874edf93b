//===- DescribeSupport.h - What the components' rules share -----*- C++ -*-===//
//
// Reading a node's call (constants, weights, shapes) and the windows of the
// image components, for the describe rules of lib/Hardware/Components.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_HARDWARE_COMPONENTS_DESCRIBESUPPORT_H
#define MAV_LIB_HARDWARE_COMPONENTS_DESCRIBESUPPORT_H

#include "mav/Hardware/HardwareGraph.h"
#include "mav/IR/AtenCall.h"

#include <optional>

namespace mav {

/// Sets `reason` and returns false: `return fail(reason, "...")`.
bool fail(std::string &reason, const llvm::Twine &why);

/// "2x3" for {2, 3}.
std::string joinSizes(llvm::ArrayRef<int64_t> values);

/// True when the attribute is the constant `false`.
bool isFalse(mlir::Attribute value);

/// The static shape of a value, if it has one.
std::optional<llvm::SmallVector<int64_t>> getStaticShape(mlir::Value value);

/// The mav.weight a get_attr operand reads; null otherwise.
WeightOp getWeight(mlir::Value value, mlir::SymbolTableCollection &symbols);

/// Reads the weight (argument 1) and the bias (argument 2, or None) of a
/// linear or convolution call into the node.
/// The module weight `value` reads, directly or through nodes that keep its
/// elements in order (expand of size-1 dimensions, view, reshape,
/// contiguous): a constant the hardware holds in a ROM. Null otherwise.
WeightOp getConstantWeight(mlir::Value value,
                           mlir::SymbolTableCollection &symbols);

bool readWeightAndBias(ComponentCall call, HardwareNode &node,
                       std::string &reason);

/// Checks that the node's input and result are 4-d (N, C, H, W).
bool need4d(const HardwareNode &node, std::string &reason);

/// Checks and fills a pooling window: kernel (kh, kw), stride (sh, sw), on a
/// 4-d input and result. The components have one STRIDE: a dimension with a
/// single output takes the other's stride.
bool setWindow(HardwareNode &node, llvm::ArrayRef<int64_t> kernel,
               llvm::ArrayRef<int64_t> stride, std::string &reason);

/// The position among the node's operands of `value`, a stream input of its
/// call; a value used twice is found from `from` on.
std::optional<unsigned> findStreamOperand(const HardwareNode &node,
                                          mlir::Value value, unsigned from);

/// The size of the dimension a component streams in parallel
/// (getParallelDim): an image's channels, else the innermost dimension.
int64_t getParallelExtent(llvm::ArrayRef<int64_t> shape);

/// One width for every port: the largest that divides the input's parallel
/// extent and the result's item, at most every cap (relu, add, pools, ...).
StreamWidths uniformWidths(const HardwareNode &node, const StreamWidths &cap);

/// The words of one item of the first input / of the result.
int64_t inItemWords(const HardwareNode &node);
int64_t outItemWords(const HardwareNode &node);

/// A streaming component (one beat a cycle, a registered output): its
/// item's beats, plus one cycle of latency.
int64_t streamingCycles(const HardwareNode &node);

/// No multipliers; one per word of a beat.
int64_t noMultipliers(const HardwareNode &node);
int64_t multiplierPerWord(const HardwareNode &node);

/// No parameters besides DATA_WIDTH, FRAC_WIDTH and PARALLELISM.
void noParameters(const HardwareNode &node, ParameterValues &values);

/// Sets the parameter `name` to `value`.
void setParameter(ParameterValues &values, llvm::StringRef name, int64_t value);

} // namespace mav

#endif // MAV_LIB_HARDWARE_COMPONENTS_DESCRIBESUPPORT_H
