//===- MavDialect.td - The mav dialect ---------------------*- tablegen -*-===//
//
// The dialect definition and the base classes of its ops, types and
// attributes.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_MAVDIALECT_TD
#define MAV_IR_MAVDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Mav_Dialect : Dialect {
  let name = "mav";
  let cppNamespace = "::mav";
  let summary = "A MASE-style graph IR for PyTorch models";
  let description = [{
    The mav dialect mirrors torch.fx: a `mav.graph` holds the placeholders as
    block arguments, one op per FX node kind (`get_attr`, `call_module`,
    `call_function`, `call_method`) and `mav.output` as the terminator. Every
    node keeps its FX-style name, which the printer uses as its SSA name, its
    scope, and typed MASE metadata (`common`, `hardware`, `software`).
    Weights live once per module as `mav.weight` symbols holding bit-exact
    `dense_resource` blobs.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();

    /// Whether the printer writes weights as dense_resource<__elided__>
    /// instead of their data; the tools set it (--mav-elide-weights).
    void setElideWeights(bool elide) { elideWeights = elide; }
    bool getElideWeights() const { return elideWeights; }

    /// Whether the printer writes weights as dense_resource<key> without
    /// their data, which a weights file beside the text holds
    /// (Checkpoint/WeightsFile.h).
    void setWeightsByReference(bool byReference) {
      weightsByReference = byReference;
    }
    bool getWeightsByReference() const { return weightsByReference; }

  private:
    bool elideWeights = false;
    bool weightsByReference = false;

  public:
    /// The module attribute naming the weights file that holds the data of
    /// the module's weights: [path relative to the IR file, the file's
    /// manifest checksum].
    static constexpr ::llvm::StringLiteral getWeightsFileAttrName() {
      return "mav.weights_file";
    }

    /// The module attribute listing pass outputs in run order.
    static constexpr ::llvm::StringLiteral getPassOutputsAttrName() {
      return "mav.pass_outputs";
    }

    /// The module attribute listing every module of the traced model as a
    /// [path, demangled class] pair ("" for the root), in definition order.
    static constexpr ::llvm::StringLiteral getModuleClassesAttrName() {
      return "mav.module_classes";
    }
  }];
}

class Mav_Op<string mnemonic, list<Trait> traits = []>
    : Op<Mav_Dialect, mnemonic, traits>;

class Mav_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Mav_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class Mav_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Mav_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // MAV_IR_MAVDIALECT_TD
