//===- MavDialect.cpp - The mav dialect -----------------------------------===//

#include "mav/IR/MavDialect.h"
#include "mav/IR/MavBytecode.h"
#include "mav/IR/MavOps.h"

using namespace mlir;
using namespace mav;

#include "mav/IR/MavDialect.cpp.inc"

void MavDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "mav/IR/MavOps.cpp.inc"
      >();
  addBytecodeInterface(this);
}

LogicalResult MavDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attribute) {
  if (attribute.getName() == getModuleClassesAttrName()) {
    auto isPathAndClass = [](Attribute entry) {
      auto pair = entry.dyn_cast<ArrayAttr>();
      return pair && pair.size() == 2 && pair[0].isa<StringAttr>() &&
             pair[1].isa<StringAttr>();
    };
    auto classes = attribute.getValue().dyn_cast<ArrayAttr>();
    if (!isa<ModuleOp>(op) || !classes ||
        !llvm::all_of(classes, isPathAndClass))
      return op->emitError()
             << "'" << getModuleClassesAttrName()
             << "' must be a list of [module path, class] string pairs on a "
                "module";
    return success();
  }
  if (attribute.getName() == getWeightsFileAttrName()) {
    auto file = attribute.getValue().dyn_cast<ArrayAttr>();
    if (!isa<ModuleOp>(op) || !file || file.size() != 2 ||
        !llvm::all_of(file,
                      [](Attribute part) { return part.isa<StringAttr>(); }))
      return op->emitError()
             << "'" << getWeightsFileAttrName()
             << "' must be a [path, checksum] string pair on a module";
    return success();
  }
  if (attribute.getName() != getPassOutputsAttrName())
    return op->emitError() << "unknown mav attribute '"
                           << attribute.getName().getValue() << "'";
  auto records = attribute.getValue().dyn_cast<ArrayAttr>();
  if (!isa<ModuleOp>(op) || !records ||
      !llvm::all_of(records, [](Attribute record) {
        return record.isa<PassOutputAttr>();
      }))
    return op->emitError()
           << "'" << getPassOutputsAttrName()
           << "' must be a list of #mav.pass_output on a module";
  return success();
}
