//===- Verilog.h - A quantized graph as SystemVerilog -----------*- C++ -*-===//
//
// `mav-translate --export-verilog`: a directory holding `top.sv` (one
// instance per node of the component library, wired valid/ready), the
// component files it uses, a `.mem` ROM per weight, `filelist.f` and
// `design.json` (ports and formats, read by `mav-run --rtl`). See
// docs/Hardware.md. libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_EXPORT_VERILOG_H
#define MAV_EXPORT_VERILOG_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace mav {

/// The files of an exported design, by name, in the order written.
struct VerilogDesign {
  std::vector<std::pair<std::string, std::string>> files;
};

/// Builds the design of the module's public graph `graphName` (quantized
/// and annotated with hardware metadata). Errors are diagnostics naming the
/// node and its operator.
mlir::FailureOr<VerilogDesign> exportVerilog(mlir::ModuleOp module,
                                             llvm::StringRef graphName);

/// Writes `design` into `directory`, replacing it as a whole: the files go to
/// a temporary directory beside it, which is renamed into place once
/// complete. On failure nothing is left and an existing directory is kept.
llvm::Error writeDesignDirectory(const VerilogDesign &design,
                                 llvm::StringRef directory);

/// The component library's sources, by file name (lib/Export/Verilog/rtl,
/// embedded at build time).
llvm::ArrayRef<std::pair<llvm::StringRef, llvm::StringRef>> getRtlSources();

} // namespace mav

#endif // MAV_EXPORT_VERILOG_H
