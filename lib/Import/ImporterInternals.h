//===- ImporterInternals.h - Shared state of the TorchScript importer -----===//
//
// Private to lib/Import: the only header of mav that includes libtorch.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_IMPORT_IMPORTERINTERNALS_H
#define MAV_LIB_IMPORT_IMPORTERINTERNALS_H

#include "mav/IR/MavOps.h"
#include "mav/Import/TorchScript.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <torch/script.h>

namespace mav::detail {

/// What one import shares across the graphs it creates.
struct ImportContext {
  ImportContext(mlir::ModuleOp module, llvm::StringRef fileName,
                const TorchScriptImportOptions &options)
      : context(module.getContext()), module(module), fileName(fileName),
        options(options) {}

  /// Emits `FILE: message` and returns failure.
  mlir::InFlightDiagnostic emitError();

  mlir::MLIRContext *context;
  mlir::ModuleOp module;
  std::string fileName;
  const TorchScriptImportOptions &options;

  /// Weights by TensorImpl, so that a tensor reached under several names
  /// (tied weights) is one weight.
  llvm::DenseMap<const c10::TensorImpl *, mav::WeightOp> weightsByTensor;
  llvm::StringMap<mav::WeightOp> weightsByName;
  /// The weight created last: the next goes right after it.
  mav::WeightOp lastWeight;
  unsigned numTensorConstants = 0;
  /// Leaf module bodies by `path.method`, and the configuration read off
  /// each.
  llvm::StringMap<mav::GraphOp> bodies;
  llvm::StringMap<mlir::DictionaryAttr> bodyConfigs;
};

//===----------------------------------------------------------------------===//
// Weights (WeightImporter.cpp)
//===----------------------------------------------------------------------===//

/// Imports every parameter and buffer of `root` as a `mav.weight`.
mlir::LogicalResult importWeights(ImportContext &ctx,
                                  const torch::jit::Module &root);

/// The weight holding `tensor`, created under `name` if it is new.
mlir::FailureOr<mav::WeightOp> getOrCreateWeight(ImportContext &ctx,
                                                 const at::Tensor &tensor,
                                                 llvm::StringRef name,
                                                 mav::WeightKind kind);

//===----------------------------------------------------------------------===//
// Types and constants (ValueConversion.cpp)
//===----------------------------------------------------------------------===//

/// The mav type of a TorchScript value type. Tensors are `!mav.tensor`.
mlir::Type convertType(const c10::TypePtr &type, mlir::MLIRContext *context);

/// The argument attribute of a constant. `argType`, the schema's declared
/// type when known, turns ints into dtypes, layouts and memory formats.
/// Fails for values that are not arguments (tensors, objects).
mlir::FailureOr<mlir::Attribute> convertConstant(const c10::IValue &value,
                                                 const c10::TypePtr &argType,
                                                 mlir::MLIRContext *context);

/// `torchvision.models.resnet.BasicBlock` from
/// `__torch__.torchvision.models.resnet.___torch_mangle_3.BasicBlock`.
std::string demangleClassName(const c10::ClassTypePtr &type);

//===----------------------------------------------------------------------===//
// Graphs (GraphImporter.cpp)
//===----------------------------------------------------------------------===//

/// Imports `root.forward` as graph @forward, with its leaf module bodies.
mlir::LogicalResult importForward(ImportContext &ctx,
                                  const torch::jit::Module &root);

} // namespace mav::detail

#endif // MAV_LIB_IMPORT_IMPORTERINTERNALS_H
