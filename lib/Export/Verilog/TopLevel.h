//===- TopLevel.h - The generated top module --------------------*- C++ -*-===//

#ifndef MAV_LIB_EXPORT_VERILOG_TOPLEVEL_H
#define MAV_LIB_EXPORT_VERILOG_TOPLEVEL_H

#include "mav/Hardware/HardwareGraph.h"

#include "llvm/ADT/StringSet.h"

namespace mav {

/// What the top module is built from.
struct TopLevelPlan {
  const HardwareGraph *graph = nullptr;
  /// A Verilog identifier per node, unique.
  std::vector<std::string> instanceNames;
  /// ROM file names of linear / conv2d nodes, by node index.
  std::vector<std::string> weightFiles, biasFiles;
  /// The graph the design comes from, for the header comment.
  std::string graphName;
};

/// `top.sv`: ports clk, rst, data_in_0*, data_out_0*; one instance per node;
/// a fork and a FIFO per extra consumer, a cast where formats differ, a
/// width converter where widths differ.
/// `modules` receives every component module instantiated.
std::string emitTopLevel(const TopLevelPlan &plan, llvm::StringSet<> &modules);

} // namespace mav

#endif // MAV_LIB_EXPORT_VERILOG_TOPLEVEL_H
