//===- ModuleNodes.h - A call_module, its body and its weights --*- C++ -*-===//
//
// A `mav.call_module` node is one call of a leaf torch.nn module. Its meaning
// is held in two places, related as follows:
//   - the node itself: the module's path (`target`), class (`module_class`)
//     and constructor configuration (`config`). Its mase_op is the module's
//     operator, from its class: `conv2d` for nn.Conv2d, `linear` for
//     nn.Linear;
//   - its body: the private `mav.graph` its `body` names, holding the
//     module's forward as traced, at the level of aten calls. Its nodes'
//     mase_ops are those of the aten operators: nn.Conv2d's body calls
//     `aten::_convolution`, whose mase_op is `convolution`.
// The body is what executes; the class and config describe it. The weights a
// module owns are the ones its body reads: each through a `mav.get_attr`, a
// symbol use of the `mav.weight` (not a naming convention). A body may be
// shared by several calls of one module (a module called twice).
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_MODULENODES_H
#define MAV_IR_MODULENODES_H

#include "mav/IR/AtenCall.h"
#include "mav/IR/WeightData.h"

namespace mav {

/// The body of `module`; null when it has none (hand-written IR).
GraphOp getModuleBody(CallModuleOp module,
                      mlir::SymbolTableCollection &symbols);

/// A weight as a module holds it.
struct ModuleWeight {
  /// The weight's name below the module: "weight", "running_mean",
  /// "out_proj.bias" (its full name when it does not start with the
  /// module's path).
  llvm::StringRef localName;
  WeightOp weight;
  /// The body's node that reads it.
  GetAttrOp read;
};

/// The weights `module` owns, in the order its body reads them.
llvm::SmallVector<ModuleWeight>
getModuleWeights(CallModuleOp module, mlir::SymbolTableCollection &symbols);

/// The weight `module` owns as `localName`; null when it owns none so named.
WeightOp lookupModuleWeight(CallModuleOp module, llvm::StringRef localName,
                            mlir::SymbolTableCollection &symbols);

/// The weight an argument of an aten call reads: the one behind the get_attr
/// node its value comes from. Null when the argument is absent, None, or not
/// a weight read.
WeightOp getWeightArgument(const AtenCall &call, unsigned position,
                           llvm::StringRef keyword,
                           mlir::SymbolTableCollection &symbols);

/// Gives `module` a new weight `<target>.<localName>` holding `values`,
/// after the module's other weights (state_dict order), and reads it in the
/// module's body, with a get_attr named after it, after the body's other
/// weight reads. Returns it; the caller passes `read` to the body's call
/// (ArgumentEditor). Fails, with a diagnostic, when the module has no body
/// or shares it with another call.
template <typename T>
mlir::FailureOr<ModuleWeight>
addModuleWeight(CallModuleOp module, llvm::StringRef localName, WeightKind kind,
                mlir::ShapedType type, llvm::ArrayRef<T> values,
                mlir::SymbolTableCollection &symbols);

namespace detail {
mlir::FailureOr<GraphOp> getOwnBody(CallModuleOp module,
                                    mlir::SymbolTableCollection &symbols);
ModuleWeight readInBody(CallModuleOp module, GraphOp body, WeightOp weight);
} // namespace detail

template <typename T>
mlir::FailureOr<ModuleWeight>
addModuleWeight(CallModuleOp module, llvm::StringRef localName, WeightKind kind,
                mlir::ShapedType type, llvm::ArrayRef<T> values,
                mlir::SymbolTableCollection &symbols) {
  mlir::FailureOr<GraphOp> body = detail::getOwnBody(module, symbols);
  if (mlir::failed(body))
    return mlir::failure();
  llvm::SmallVector<ModuleWeight> owned = getModuleWeights(module, symbols);
  WeightOp weight = createWeight<T>(
      module->getParentOfType<mlir::ModuleOp>(),
      (module.getTarget() + "." + localName).str(), kind, type, values,
      owned.empty() ? WeightOp() : owned.back().weight, &symbols);
  return detail::readInBody(module, *body, weight);
}

} // namespace mav

#endif // MAV_IR_MODULENODES_H
