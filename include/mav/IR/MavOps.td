//===- MavOps.td - Ops of the mav dialect ------------------*- tablegen -*-===//
//
// One op per torch.fx node kind, the graph that holds them, and the weights
// they refer to.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_MAVOPS_TD
#define MAV_IR_MAVOPS_TD

include "mav/IR/MavDialect.td"
include "mav/IR/MavTypes.td"
include "mav/IR/MavAttrs.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def Mav_NodeOpInterface : OpInterface<"NodeOpInterface"> {
  let cppNamespace = "::mav";
  let description = [{
    A node of a mav graph: an op with an FX-style name, a scope and the three
    MASE metadata sections. Passes work on nodes through this interface.
  }];
  // The defaults read the attributes through the ops' ODS accessors, which
  // look them up by their interned names.
  let methods = [
    InterfaceMethod<"The node's FX-style name.", "::llvm::StringRef",
      "getNodeName", (ins), [{}], [{
        return $_op.getNameAttr().getValue();
      }]>,
    InterfaceMethod<"The node's FX-style name, as its attribute.",
      "::mlir::StringAttr", "getNodeNameAttr", (ins), [{}], [{
        return $_op.getNameAttr();
      }]>,
    InterfaceMethod<"The module the node was traced in, if known.",
      "::mav::ScopeAttr", "getNodeScope", (ins), [{}], [{
        return $_op.getScopeAttr()
            .template dyn_cast_or_null<::mav::ScopeAttr>();
      }]>,
    InterfaceMethod<[{
        MASE common metadata, if set, complete: the fields that the node's
        types say, which the `common` attribute leaves out, are filled in
        from them (mav/IR/NodeMetadata.h).
      }],
      "::mav::CommonMetaAttr", "getCommonMeta", (ins), [{}], [{
        return ::mav::completeCommonMeta($_op.getOperation(),
            $_op.getCommonAttr()
                .template dyn_cast_or_null<::mav::CommonMetaAttr>());
      }]>,
    InterfaceMethod<"MASE hardware metadata, if set.",
      "::mav::HardwareMetaAttr", "getHardwareMeta", (ins), [{}], [{
        return $_op.getHardwareAttr()
            .template dyn_cast_or_null<::mav::HardwareMetaAttr>();
      }]>,
    InterfaceMethod<"MASE software metadata, if set.",
      "::mav::SoftwareMetaAttr", "getSoftwareMeta", (ins), [{}], [{
        return $_op.getSoftwareAttr()
            .template dyn_cast_or_null<::mav::SoftwareMetaAttr>();
      }]>,
  ];
}

class Mav_NodeOp<string mnemonic, list<Trait> traits = []>
    : Mav_Op<mnemonic, traits # [
        DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>,
        Mav_NodeOpInterface]> {
  dag nodeAttrs = (ins
    StrAttr:$name,
    OptionalAttr<AnyAttr>:$scope,
    OptionalAttr<AnyAttr>:$common,
    OptionalAttr<AnyAttr>:$hardware,
    OptionalAttr<AnyAttr>:$software);
}

class Mav_CallOp<string mnemonic, list<Trait> traits = []>
    : Mav_NodeOp<mnemonic, traits> {
  let results = (outs Variadic<Mav_Value>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Attribute names printed in the custom form rather than the dictionary.
    static ::llvm::ArrayRef<::llvm::StringRef> getElidedAttrNames();
  }];
}

//===----------------------------------------------------------------------===//
// Module level
//===----------------------------------------------------------------------===//

def Mav_WeightOp : Mav_Op<"weight", [Symbol,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a named parameter or buffer, held once per module";
  let description = [{
    A model's parameter or buffer under its state_dict name, or a tensor
    constant of the trace (`_tensor_constantN`, as torch.fx names them),
    carried bit-exact as a `dense_resource` blob (or any elements attribute). `get_attr` and
    `call_module` nodes refer to it by name. `frozen` marks a parameter with
    `requires_grad = False`. `tied_to` marks a second name of another
    weight's tensor (tied embeddings): it holds the same blob and is counted
    once. With `--mav-elide-weights` the printer writes
    `dense_resource<__elided__>` instead of the data; such text parses, but
    the weights it names carry no values. With a weights file beside the
    text (`mav.weights_file`, `--mav-weights=file`), the printer writes
    `dense_resource<key>` and the tools attach the file's data on reading.

    ```mlir
    mav.weight @"conv1.weight" parameter = dense_resource<conv1.weight> : tensor<64x3x7x7xf32>
    mav.weight @"bn1.num_batches_tracked" buffer = dense<0> : tensor<si64>
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, Mav_WeightKind:$kind,
                       ElementsAttr:$value, UnitAttr:$frozen,
                       OptionalAttr<FlatSymbolRefAttr>:$tied_to);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::ShapedType getWeightType() {
      return getValue().getType().cast<::mlir::ShapedType>();
    }
    bool isTrainable() {
      return getKind() == ::mav::WeightKind::parameter && !getFrozen();
    }
  }];
}

def Mav_GraphOp : Mav_Op<"graph", [
    Symbol, IsolatedFromAbove, SingleBlock,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a torch.fx graph";
  let description = [{
    The block arguments are the FX placeholders, named by `arg_names` (the
    printer uses them as SSA names); the body holds the nodes in execution
    order and ends with `mav.output`. A module may hold several graphs. A
    private graph is the forward body of a leaf module that `call_module`
    nodes refer to. Graph-level MASE metadata, when set, is the `inputs`
    and `outputs` attributes: lists of `#mav.value` for the placeholders and
    for what the graph returns.

    ```mlir
    mav.graph @forward(%x: tensor<1x16xf32>) -> tensor<1x4xf32> {
      %fc = mav.call_module "fc" (%x) {module_class = "torch.nn.modules.linear.Linear"}
          : (tensor<1x16xf32>) -> tensor<1x4xf32>
      mav.output %fc : tensor<1x4xf32>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       StrArrayAttr:$arg_names,
                       OptionalAttr<StrAttr>:$sym_visibility);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    ::mav::OutputOp getOutput();
  }];
}

def Mav_OutputOp : Mav_Op<"output", [Terminator, HasParent<"GraphOp">,
                                     ReturnLike]> {
  let summary = "the FX output node: what the graph returns";
  let description = [{
    Its single argument is the returned structure: a value, or a (nested)
    tuple / list of values and constants, as FX's `output` node holds it.
    The operand types are listed after the colon.

    ```mlir
    mav.output (%logits, [%a, %b]) : tensor<1x10xf32>, !mav.tensor, !mav.tensor
    ```
  }];
  let arguments = (ins Variadic<Mav_Value>:$operands, AnyAttr:$value);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

def Mav_GetAttrOp : Mav_NodeOp<"get_attr", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the FX get_attr node: reads a named weight";
  let description = [{
    Reads the `mav.weight` named by `target`. The result is the weight's
    tensor type, or `!mav.tensor` before shape propagation.

    ```mlir
    %class_token = mav.get_attr @class_token {scope = #mav.scope<"", "torchvision.models.vision_transformer.VisionTransformer">} : tensor<1x1x32xf32>
    ```
  }];
  let arguments = !con((ins FlatSymbolRefAttr:$target), nodeAttrs);
  let results = (outs Mav_TensorLike:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Mav_CallFunctionOp : Mav_CallOp<"call_function"> {
  let summary = "the FX call_function node: calls an operator";
  let description = [{
    Calls an operator, named as TorchScript names it (`aten::add`,
    `aten::conv2d`, `prim::device`, ...). Arguments follow the target:
    positional values, then `name = value` keyword arguments. A value is an
    SSA operand, an int, a float, a bool, `None`, a string, a list `[...]`, a
    tuple `(...)`, or a `#mav.dtype`, `#mav.device`, `#mav.memory_format` or
    `#mav.layout`. The remaining attributes follow in a dictionary, then the
    operand and result types.

    ```mlir
    %add = mav.call_function "aten::add" (%a, %b, alpha = 1) {scope = #mav.scope<"layer1.0", "torchvision.models.resnet.BasicBlock">}
        : (tensor<1x64x8x8xf32>, tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
    ```
  }];
  let arguments = !con((ins Variadic<Mav_Value>:$operands, StrAttr:$target,
                            ArrayAttr:$args, DictionaryAttr:$kwargs),
                       nodeAttrs);
}

def Mav_CallMethodOp : Mav_CallOp<"call_method"> {
  let summary = "the FX call_method node: calls a Tensor method";
  let description = [{
    Calls the Tensor method `target` on its first argument. Arguments are
    written as for `mav.call_function`.

    ```mlir
    %view = mav.call_method "view" (%x, [%size, -1]) : (!mav.tensor, !mav.int) -> !mav.tensor
    ```
  }];
  let arguments = !con((ins Variadic<Mav_Value>:$operands, StrAttr:$target,
                            ArrayAttr:$args, DictionaryAttr:$kwargs),
                       nodeAttrs);
}

def Mav_CallModuleOp : Mav_CallOp<"call_module", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the FX call_module node: calls a leaf module";
  let description = [{
    Calls the leaf module at path `target` (FX-style, `.` separated).
    `module_class` is its demangled, fully qualified class and `config` its
    configuration (`in_features`, `stride`, ...). `body`, when present, is
    the private `mav.graph` holding the module's forward, so any leaf class
    stays executable; the body's first argument is the module's input. The
    module owns the `mav.weight`s its body reads (ModuleNodes.h).

    ```mlir
    %fc = mav.call_module "fc" (%flatten) {module_class = "torch.nn.modules.linear.Linear",
        config = {in_features = 512, out_features = 10, bias = true}}
        : (tensor<1x512xf32>) -> tensor<1x10xf32>
    ```
  }];
  let arguments = !con((ins Variadic<Mav_Value>:$operands, StrAttr:$target,
                            ArrayAttr:$args, DictionaryAttr:$kwargs,
                            StrAttr:$module_class,
                            OptionalAttr<DictionaryAttr>:$config,
                            OptionalAttr<FlatSymbolRefAttr>:$body),
                       nodeAttrs);
}

def Mav_LearnableOp : Mav_NodeOp<"learnable", [
    AllTypesMatch<["input", "result"]>]> {
  let summary = "marks where learnable parameters join the graph";
  let description = [{
    The "Learnable" node of the idlmav notebook: inserted by
    `-mav-insert-learnable-nodes` right after a learn-split point (the first
    node on a learnable-only path whose value fans out), it passes its
    operand through unchanged and carries the number of trainable parameter
    elements behind it and their names. The fanned-out uses go through it.

    ```mlir
    %pos_learnable = mav.learnable %pos {param_count = 544 : i64,
        params = ["encoder.pos_embedding"]} : tensor<1x17x32xf32>
    ```
  }];
  let arguments = !con((ins Mav_Value:$input, I64Attr:$param_count,
                            StrArrayAttr:$params), nodeAttrs);
  let results = (outs Mav_Value:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif // MAV_IR_MAVOPS_TD
