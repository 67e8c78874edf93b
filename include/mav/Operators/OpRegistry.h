//===- OpRegistry.h - The single table of operators mav knows ---*- C++ -*-===//
//
// Every operator mav understands is one entry of the table in
// lib/Operators/OpTable.cpp: one OpInfo, written with designated initialisers
// that name the fields it sets. An entry says which torch targets (module
// class, functional, aten op, Tensor method) map to the operator, what MASE
// calls it (mase_op, mase_type), the role of each positional argument and how
// many FLOPs it costs. Nothing else in mav holds operator knowledge: adding an
// operator is adding one entry. The hardware components that compute an
// operator are entries of their own, keyed by its mase_op
// (mav/Hardware/Component.h).
//
//===----------------------------------------------------------------------===//

#ifndef MAV_OPERATORS_OPREGISTRY_H
#define MAV_OPERATORS_OPREGISTRY_H

#include "mav/IR/MaseType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mav {

/// A torch dtype, numbered as c10::ScalarType (MavAttrs.td); declared here
/// without its generated definition.
enum class ScalarType : uint64_t;

/// What a positional argument is to the operator.
enum class ArgRole { DataIn, Weight, Bias, Config };

/// The spelling used in metadata and docs: data_in, weight, bias, config.
llvm::StringRef stringifyArgRole(ArgRole role);

/// Numbers a node's arguments as MASE names them in `common.args`:
/// data_in_0, data_in_1, ..., weight, weight_1, ..., bias, ..., and
/// configuration arguments under their schema names.
class ArgumentNamer {
public:
  /// `roles`: the operator's argument roles (OpInfo::argRoles), if known.
  explicit ArgumentNamer(llvm::ArrayRef<ArgRole> roles = {}) : roles(roles) {}
  /// The name of positional argument `index`, whose schema name is
  /// `schemaName` (empty if unknown).
  std::string name(size_t index, llvm::StringRef schemaName);
  /// The next data_in_N.
  std::string nextDataIn();

private:
  llvm::ArrayRef<ArgRole> roles;
  unsigned dataIn = 0, weights = 0, biases = 0;
};

/// What one call costs. A multiply-accumulate is one MAC and two FLOPs; every
/// other arithmetic operation (an add, a compare, an exp) is one FLOP.
/// `macs` counts only the multiply-accumulates of contractions: convolution,
/// linear, matrix products, attention, recurrent cells, bilinear, einsum.
struct OpCost {
  int64_t flops = 0;
  int64_t macs = 0;
};

/// A tensor argument as a shape rule sees it.
struct TensorRef {
  llvm::ArrayRef<int64_t> sizes;
  llvm::ArrayRef<int64_t> strides;
  ScalarType dtype;
};

/// The arguments of a call by schema position or keyword, as cost formulas
/// and shape rules read them: tensor shapes and constants (kernel sizes,
/// head counts, an einsum equation, flags). A node's (NodeCost.cpp), a bound
/// libtorch call's (lib/Runtime/ShapeFunctions.cpp) and native shape
/// propagation's (lib/Operators/NativeShapes.cpp) implement it. An argument is
/// found at `position` when the schema names it `keyword` there, else by
/// `keyword` alone; an empty keyword means by position only.
class CallArguments {
public:
  virtual ~CallArguments() = default;
  /// The static shape of the tensor argument `position`, else `keyword`.
  virtual std::optional<llvm::ArrayRef<int64_t>>
  getShape(unsigned position, llvm::StringRef keyword) const = 0;
  /// Argument `position`, else keyword `keyword`, as `count` integers (one
  /// integer stands for `count` equal ones); std::nullopt when absent or not
  /// integers.
  virtual std::optional<llvm::SmallVector<int64_t>>
  getInts(unsigned position, llvm::StringRef keyword, size_t count) const = 0;
  /// Argument `position`, else keyword `keyword`, as a string.
  virtual std::optional<llvm::StringRef>
  getString(unsigned position, llvm::StringRef keyword) const = 0;
  /// The tensor argument with its strides and dtype; std::nullopt where the
  /// caller knows only shapes.
  virtual std::optional<TensorRef> getTensor(unsigned position,
                                             llvm::StringRef keyword) const {
    return std::nullopt;
  }
  /// A list of tensors (aten::cat's `tensors`).
  virtual std::optional<llvm::SmallVector<TensorRef>>
  getTensorList(unsigned position, llvm::StringRef keyword) const {
    return std::nullopt;
  }
  /// A number (int, float or bool) as a double.
  virtual std::optional<double> getNumber(unsigned position,
                                          llvm::StringRef keyword) const {
    return std::nullopt;
  }
  /// Whether argument `position` (else `keyword`) is given and not None.
  virtual bool has(unsigned position, llvm::StringRef keyword) const {
    return getShape(position, keyword) ||
           getInts(position, keyword, 1).has_value();
  }
};

/// What a node shows a cost formula. `args` has one entry per positional
/// argument of the aten call (std::nullopt for one that is not a tensor of
/// static shape); `operands` the static shapes of the tensors the call reads,
/// in operand order (the tensors inside list arguments included).
struct CostInputs {
  llvm::ArrayRef<std::optional<llvm::ArrayRef<int64_t>>> args;
  llvm::ArrayRef<llvm::ArrayRef<int64_t>> results;
  llvm::ArrayRef<std::optional<llvm::ArrayRef<int64_t>>> operands = {};
  const CallArguments *config = nullptr;
};

/// Returns the cost of one call, or std::nullopt when a shape or constant it
/// needs is missing.
using CostFormula = std::optional<OpCost> (*)(const CostInputs &inputs);

/// One tensor result: its sizes, its strides (empty: contiguous) and its
/// dtype (std::nullopt: that of the call's first tensor argument).
struct TensorShape {
  llvm::SmallVector<int64_t> sizes;
  llvm::SmallVector<int64_t> strides = {};
  std::optional<ScalarType> dtype = std::nullopt;
};

/// The shape of one tensor result; std::nullopt for an undefined tensor
/// (None to Python: attention weights not asked for).
using ResultShape = std::optional<TensorShape>;

/// The result shapes of one call from its arguments, without running it, in
/// result order. std::nullopt when the arguments are not ones the operator
/// accepts, or something the rule needs is missing: the caller then falls
/// back to libtorch, which reports what is wrong. A rule computes what
/// libtorch's meta kernel computes, strides included
/// (lib/Operators/ShapeRules.h); a differential unit test checks every rule
/// against libtorch.
using ShapeRule =
    std::optional<llvm::SmallVector<ResultShape>> (*)(const CallArguments &);

/// One operator. A table entry names the fields it sets, in this order
/// (designated initialisers); a field it leaves out keeps its default: no
/// targets of that kind, no formula. Every entry sets maseOp,
/// maseType and argRoles.
struct OpInfo {
  /// MASE's operator name, e.g. "conv2d", "relu", "dropout".
  llvm::StringRef maseOp = {};
  /// The mase_type of a node computing this operator.
  MaseType maseType = MaseType::ModuleRelatedFunc;
  /// Fully qualified torch.nn module classes, e.g.
  /// "torch.nn.modules.conv.Conv2d".
  llvm::ArrayRef<llvm::StringRef> moduleClasses = {};
  /// Python functionals, e.g. "torch.nn.functional.conv2d", "torch.flatten".
  llvm::ArrayRef<llvm::StringRef> functionals = {};
  /// TorchScript operators without overload name: aten ("aten::conv2d") and
  /// the prim operators that compute ("prim::NumToTensor").
  llvm::ArrayRef<llvm::StringRef> atenOps = {};
  /// Tensor method names, e.g. "view", "relu".
  llvm::ArrayRef<llvm::StringRef> tensorMethods = {};
  /// Role of each positional argument of the aten / functional form.
  llvm::ArrayRef<ArgRole> argRoles = {};
  /// FLOPs and MACs of one call; null when the operator does no arithmetic.
  CostFormula cost = nullptr;
};

/// All entries, in table order.
llvm::ArrayRef<OpInfo> getAllOps();

/// Lookups; each returns null when the target is unknown. `lookupAtenOp`
/// accepts the name with or without overload ("aten::add.Tensor"). Functionals
/// have no lookup: a call_function node's target is an aten op, and the
/// importer reads OpInfo::functionals only to tell a function from a Tensor
/// method.
const OpInfo *lookupMaseOp(llvm::StringRef maseOp);
const OpInfo *lookupModuleClass(llvm::StringRef qualifiedClass);
const OpInfo *lookupAtenOp(llvm::StringRef atenName);
const OpInfo *lookupTensorMethod(llvm::StringRef method);

/// An operator mav deliberately does not support, and why. Import refuses a
/// graph that calls one, naming the node and the reason; the list is printed
/// by `mav-opt --list-operators` and documented in docs/OpRegistry.md.
struct UnsupportedOp {
  /// Without overload: "aten::sparse_coo_tensor".
  llvm::StringRef atenOp;
  llvm::StringRef reason;
};

/// Every deliberately unsupported operator (OpTable.cpp).
llvm::ArrayRef<UnsupportedOp> getUnsupportedOps();

/// The entry for `atenName` (with or without overload); null when the
/// operator is not on the list.
const UnsupportedOp *lookupUnsupportedOp(llvm::StringRef atenName);

/// TorchScript node kinds the importer turns into graph structure (constants,
/// lists and tuples, attribute reads, method calls) rather than nodes: no
/// registry entry describes them.
llvm::ArrayRef<llvm::StringRef> getStructuralNodeKinds();

/// Prints the registry as JSON (`mav-opt --list-operators`): each entry with
/// its targets, argument roles, whether it has a cost formula and, per aten
/// target, the overloads with a native shape rule (the others fall back to
/// libtorch's meta kernels); then the unsupported operators and the
/// structural node kinds.
void printOpRegistryJson(llvm::raw_ostream &os);

} // namespace mav

#endif // MAV_OPERATORS_OPREGISTRY_H
