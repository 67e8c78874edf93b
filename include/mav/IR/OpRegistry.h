//===- OpRegistry.h - The single table of operators mav knows ---*- C++ -*-===//
//
// Every operator mav understands is one entry of the table in
// lib/IR/OpRegistry.cpp. An entry says which torch targets (module class,
// functional, aten op, Tensor method) map to the operator, what MASE calls it
// (mase_op, mase_type), the role of each positional argument, how many FLOPs
// it costs, and which hardware component implements it. Nothing else in mav
// holds operator knowledge.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_OPREGISTRY_H
#define MAV_IR_OPREGISTRY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mav {

/// MASE's node categories (the `mase_type` metadata field).
enum class MaseType {
  ModuleRelatedFunc,
  Module,
  BuiltinFunc,
  ImplicitFunc,
  Placeholder,
  GetAttr,
  Output,
};

/// The spelling MASE uses, e.g. "module_related_func".
llvm::StringRef stringifyMaseType(MaseType type);
std::optional<MaseType> symbolizeMaseType(llvm::StringRef spelling);

/// What a positional argument is to the operator.
enum class ArgRole { DataIn, Weight, Bias, Config };

/// The spelling used in metadata and docs: data_in, weight, bias, config.
llvm::StringRef stringifyArgRole(ArgRole role);

/// Shapes seen by a node, for FLOP formulas. An argument that is not a tensor
/// has an empty optional.
struct FlopInputs {
  llvm::ArrayRef<std::optional<llvm::ArrayRef<int64_t>>> args;
  llvm::ArrayRef<llvm::ArrayRef<int64_t>> results;
};

/// Returns the FLOP count of one call, or std::nullopt when the shapes needed
/// are missing.
using FlopFormula = std::optional<int64_t> (*)(const FlopInputs &inputs);

/// A SystemVerilog component of the library in lib/Export/Verilog/rtl
/// (docs/Hardware.md): one module in one file, `<module>.sv`.
struct HardwareComponent {
  /// The module and file name, e.g. "fixed_linear".
  llvm::StringRef module;
  /// Its parameters, in declaration order (a unit test reads the .sv file).
  llvm::ArrayRef<llvm::StringRef> parameters;
  /// The .sv files needed to build it, relative to the rtl directory: the
  /// components it instantiates, transitively, in dependency order, then its
  /// own file (MASE's `dependence_files`).
  llvm::ArrayRef<llvm::StringRef> dependenceFiles;
};

struct OpInfo {
  /// MASE's operator name, e.g. "conv2d", "relu", "dropout".
  llvm::StringRef maseOp;
  /// The mase_type of a node computing this operator.
  MaseType maseType;
  /// Fully qualified torch.nn module classes, e.g.
  /// "torch.nn.modules.conv.Conv2d".
  llvm::ArrayRef<llvm::StringRef> moduleClasses;
  /// Python functionals, e.g. "torch.nn.functional.conv2d", "torch.flatten".
  llvm::ArrayRef<llvm::StringRef> functionals;
  /// TorchScript operators without overload name: aten ("aten::conv2d") and
  /// the prim operators that compute ("prim::NumToTensor").
  llvm::ArrayRef<llvm::StringRef> atenOps;
  /// Tensor method names, e.g. "view", "relu".
  llvm::ArrayRef<llvm::StringRef> tensorMethods;
  /// Role of each positional argument of the aten / functional form.
  llvm::ArrayRef<ArgRole> argRoles;
  /// FLOPs of one call; null when the operator does no arithmetic.
  FlopFormula flops;
  /// The hardware component implementing it; null if mav has none.
  const HardwareComponent *hardware;
};

/// All entries, in table order.
llvm::ArrayRef<OpInfo> getAllOps();

/// Every component of the rtl library, helpers (fixed_round_sat, ...)
/// included, in dependency order.
llvm::ArrayRef<HardwareComponent> getHardwareComponents();

/// Lookups; each returns null when the target is unknown. `lookupAtenOp`
/// accepts the name with or without overload ("aten::add.Tensor").
const OpInfo *lookupMaseOp(llvm::StringRef maseOp);
const OpInfo *lookupModuleClass(llvm::StringRef qualifiedClass);
const OpInfo *lookupFunctional(llvm::StringRef qualifiedName);
const OpInfo *lookupAtenOp(llvm::StringRef atenName);
const OpInfo *lookupTensorMethod(llvm::StringRef method);
const HardwareComponent *lookupHardwareComponent(llvm::StringRef module);

} // namespace mav

#endif // MAV_IR_OPREGISTRY_H
