//===- BodyTypes.cpp - A module body's shapes in one call -----------------===//

#include "mav/Summary/BodyTypes.h"
#include "mav/Runtime/ShapePropagation.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mav;

const BodyTypes *ModuleBodyTyper::type(CallModuleOp module, GraphOp body) {
  SmallVector<RankedTensorType> inputs;
  std::vector<const void *> key;
  for (Type type : module->getOperandTypes()) {
    auto tensor = type.dyn_cast<RankedTensorType>();
    if (!tensor || !tensor.hasStaticShape())
      return nullptr;
    inputs.push_back(tensor);
    key.push_back(type.getAsOpaquePointer());
  }
  if (inputs.size() != body.getBodyBlock().getNumArguments())
    return nullptr;
  auto [slot, inserted] = typed.try_emplace({body, std::move(key)}, nullptr);
  if (!inserted)
    return slot->second.get();

  auto types = std::make_unique<BodyTypes>();
  for (auto [argument, type] :
       llvm::zip(body.getBodyBlock().getArguments(), inputs))
    (*types)[argument] = type;
  auto onNode = [&](Operation *op, const NodeShapes &shapes) {
    for (auto [result, type] : llvm::zip(op->getResults(), shapes.resultTypes))
      if (type)
        (*types)[result] = type;
  };
  // What -mav-raise already said about the body (a remark where mav's rules
  // fall short) is not said again; a failure leaves the module uncounted.
  ScopedDiagnosticHandler quiet(module.getContext(),
                                [](Diagnostic &) { return success(); });
  ShapePropagationOptions options;
  SmallVector<Attribute> outputs;
  if (succeeded(propagateShapes(body, inputs, options, onNode, outputs)))
    slot->second = std::move(types);
  return slot->second.get();
}
