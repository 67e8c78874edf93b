//===- ExampleDialectPlugin.cpp - A dialect as a mav-opt plugin -----------===//
//
// A dialect with no ops of its own, registered from a plugin:
//   mav-opt --load-dialect-plugin=libMavExampleDialectPlugin.so --show-dialects
//
//===----------------------------------------------------------------------===//

#include "mav/Passes/PluginAPI.h"

#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectRegistry.h"

namespace {
class ExampleDialect : public mlir::Dialect {
public:
  explicit ExampleDialect(mlir::MLIRContext *context)
      : Dialect(getDialectNamespace(), context,
                mlir::TypeID::get<ExampleDialect>()) {}
  static llvm::StringRef getDialectNamespace() { return "mav_example"; }
};
} // namespace

MLIR_DECLARE_EXPLICIT_TYPE_ID(ExampleDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(ExampleDialect)

MAV_DIALECT_PLUGIN("example-dialect", "1.0", ExampleDialect)
