//===- PassOutputs.h - MASE-style pass outputs ------------------*- C++ -*-===//

#ifndef MAV_PASSES_PASSOUTPUTS_H
#define MAV_PASSES_PASSOUTPUTS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

namespace mav {

/// Appends `#mav.pass_output<pass, outputs>` to the module's
/// `mav.pass_outputs`, after what earlier passes recorded.
void recordPassOutputs(mlir::ModuleOp module, llvm::StringRef pass,
                       llvm::ArrayRef<mlir::NamedAttribute> outputs);

/// `{key = count, ...}`, the form of counts in pass outputs.
mlir::DictionaryAttr countsAttr(mlir::MLIRContext *context,
                                const llvm::StringMap<int64_t> &counts);

} // namespace mav

#endif // MAV_PASSES_PASSOUTPUTS_H
