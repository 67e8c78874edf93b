//===- MavAttrs.td - Attributes of the mav dialect ---------*- tablegen -*-===//
//
// Argument values (dtype, device, ...), the node scope and the typed MASE
// metadata: common, hardware and software.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_MAVATTRS_TD
#define MAV_IR_MAVATTRS_TD

include "mav/IR/MavDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// Parameter kinds
//===----------------------------------------------------------------------===//

class Mav_String<string desc> : StringRefParameter<desc> {
  let printer = "::mav::printQuotedString($_printer, $_self)";
}

class Mav_OptionalString<string desc> : Mav_String<desc> {
  let defaultValue = "\"\"";
}

class Mav_IndexList<string desc>
    : OptionalParameter<"::mlir::DenseI64ArrayAttr", desc> {
  let parser = "::mav::parseIndexList($_parser)";
  let printer = "::mav::printIndexList($_printer, $_self)";
}

//===----------------------------------------------------------------------===//
// Enums mirroring c10 (the integer values are c10's, so the importer can
// convert TorchScript constants directly).
//===----------------------------------------------------------------------===//

def Mav_ScalarType : I64EnumAttr<"ScalarType", "a torch dtype", [
    I64EnumAttrCase<"uint8", 0>, I64EnumAttrCase<"int8", 1>,
    I64EnumAttrCase<"int16", 2>, I64EnumAttrCase<"int32", 3>,
    I64EnumAttrCase<"int64", 4>, I64EnumAttrCase<"float16", 5>,
    I64EnumAttrCase<"float32", 6>, I64EnumAttrCase<"float64", 7>,
    I64EnumAttrCase<"complex32", 8>, I64EnumAttrCase<"complex64", 9>,
    I64EnumAttrCase<"complex128", 10>, I64EnumAttrCase<"Bool", 11, "bool">,
    I64EnumAttrCase<"qint8", 12>, I64EnumAttrCase<"quint8", 13>,
    I64EnumAttrCase<"qint32", 14>, I64EnumAttrCase<"bfloat16", 15>]> {
  let cppNamespace = "::mav";
  let genSpecializedAttr = 0;
}

def Mav_MemoryFormat : I64EnumAttr<"MemoryFormat", "a torch memory format", [
    I64EnumAttrCase<"contiguous_format", 0>,
    I64EnumAttrCase<"preserve_format", 1>,
    I64EnumAttrCase<"channels_last", 2>,
    I64EnumAttrCase<"channels_last_3d", 3>]> {
  let cppNamespace = "::mav";
  let genSpecializedAttr = 0;
}

def Mav_Layout : I64EnumAttr<"Layout", "a torch layout", [
    I64EnumAttrCase<"strided", 0>, I64EnumAttrCase<"sparse_coo", 1>,
    I64EnumAttrCase<"sparse_csr", 2>, I64EnumAttrCase<"mkldnn", 3>]> {
  let cppNamespace = "::mav";
  let genSpecializedAttr = 0;
}

def Mav_WeightKind : I32EnumAttr<"WeightKind",
    "parameter, buffer, or a tensor constant of the trace", [
    I32EnumAttrCase<"parameter", 0>, I32EnumAttrCase<"buffer", 1>,
    I32EnumAttrCase<"constant", 2>]> {
  let cppNamespace = "::mav";
}

def Mav_DTypeAttr : EnumAttr<Mav_Dialect, Mav_ScalarType, "dtype"> {
  let summary = "a torch.dtype argument";
  let description = [{
    A dtype passed to an operator, e.g. `torch.float32`.

    ```mlir
    %to = mav.call_method "to" (%x, #mav.dtype<float16>) : ...
    ```
  }];
  let assemblyFormat = "`<` $value `>`";
}

def Mav_MemoryFormatAttr
    : EnumAttr<Mav_Dialect, Mav_MemoryFormat, "memory_format"> {
  let summary = "a torch.memory_format argument";
  let description = [{
    ```mlir
    %c = mav.call_method "contiguous" (%x, #mav.memory_format<channels_last>) : ...
    ```
  }];
  let assemblyFormat = "`<` $value `>`";
}

def Mav_LayoutAttr : EnumAttr<Mav_Dialect, Mav_Layout, "layout"> {
  let summary = "a torch.layout argument";
  let description = [{
    ```mlir
    %z = mav.call_function "aten::zeros" ([2, 3], None, #mav.layout<strided>, #mav.device<"cpu">, false) : ...
    ```
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Argument values that builtin attributes do not cover.
//===----------------------------------------------------------------------===//

def Mav_DeviceAttr : Mav_Attr<"Device", "device"> {
  let summary = "a torch.device argument";
  let description = [{
    The device as torch spells it: `"cpu"`, `"cuda:0"`, `"meta"`.

    ```mlir
    %y = mav.call_method "to" (%x, #mav.device<"cpu">) : ...
    ```
  }];
  let parameters = (ins Mav_String<"device string">:$device);
  let assemblyFormat = "`<` $device `>`";
}

def Mav_NoneAttr : Mav_Attr<"None", "none"> {
  let summary = "the Python None as an argument";
  let description = [{
    Written `None` inside node arguments; `#mav.none` elsewhere.

    ```mlir
    %s = mav.call_function "aten::softmax" (%x, -1, None) : ...
    ```
  }];
}

def Mav_TupleAttr : Mav_Attr<"Tuple", "tuple"> {
  let summary = "a Python tuple as an argument";
  let description = [{
    Written `(a, b)` inside node arguments (a one-element tuple is `(a,)`);
    `#mav.tuple<[...]>` elsewhere. Lists are builtin arrays, `[a, b]`.

    ```mlir
    mav.output (%logits, %hidden) : tensor<1x10xf32>, tensor<1x32xf32>
    ```
  }];
  let parameters = (ins "::mlir::ArrayAttr":$elements);
  let assemblyFormat = "`<` $elements `>`";
}

def Mav_DictAttr : Mav_Attr<"Dict", "dict"> {
  let summary = "a Python dict as an argument";
  let description = [{
    Written `{"out": %a, "aux": %b}` inside node arguments;
    `#mav.dict<["out", "aux"], [...]>` elsewhere. Keys are strings or ints and
    keep Python's insertion order, which a builtin dictionary would sort away.
    The segmentation models of torchvision return one:

    ```mlir
    mav.output {"out": %upsample} : tensor<1x3x64x64xf32>
    ```
  }];
  let parameters = (ins "::mlir::ArrayAttr":$keys,
                        "::mlir::ArrayAttr":$values);
  let assemblyFormat = "`<` $keys `,` $values `>`";
  let genVerifyDecl = 1;
}

def Mav_OperandRefAttr : Mav_Attr<"OperandRef", "operand"> {
  let summary = "the position of an SSA operand inside node arguments";
  let description = [{
    Node arguments are stored as an attribute tree; a tensor or other run
    time value in that tree is a reference to the node's operand of that
    index. The custom printer writes the operand itself in its place, so this
    attribute is only visible in the generic form:

    ```mlir
    "mav.call_function"(%x) {args = [#mav.operand<0>, 1], ...}
    ```
  }];
  let parameters = (ins "unsigned":$index);
  let assemblyFormat = "`<` $index `>`";
}

def Mav_ScopeAttr : Mav_Attr<"Scope", "scope"> {
  let summary = "the module a node was traced in";
  let description = [{
    The module path (FX-style, `.` separated, empty for the root) and the
    module's demangled, fully qualified class, as the dmx tracer's Scope.

    ```mlir
    #mav.scope<"layer1.0", "torchvision.models.resnet.BasicBlock">
    ```
  }];
  let parameters = (ins Mav_String<"module path">:$path,
                        Mav_String<"module class">:$moduleClass);
  let assemblyFormat = "`<` $path `,` $moduleClass `>`";
}

//===----------------------------------------------------------------------===//
// MASE metadata
//===----------------------------------------------------------------------===//

def Mav_ValueMetaAttr : Mav_Attr<"ValueMeta", "value"> {
  let summary = "MASE metadata of one argument or result of a node";
  let description = [{
    One entry of `common.args` or `common.results`, with MASE's field names.
    `name` is MASE's key (`data_in_0`, `weight`, `data_out_0`, ...). Every
    other field is optional: `shape`, `torch_dtype` (`"torch.float32"`),
    `type` (`"float"`, `"fixed"`, ...), `precision`, `stride`, and `value`
    (the constant, or the tensor value when asked for).

    ```mlir
    #mav.value<name = "data_in_0", shape = [1, 3, 224, 224],
               torch_dtype = "torch.float32", type = "float",
               precision = [32], stride = [150528, 50176, 224, 1]>
    ```
  }];
  let parameters = (ins
    Mav_String<"MASE key">:$name,
    Mav_IndexList<"shape">:$shape,
    Mav_OptionalString<"torch dtype">:$torch_dtype,
    Mav_OptionalString<"MASE type (float, fixed, ...)">:$type,
    Mav_IndexList<"precision">:$precision,
    Mav_IndexList<"stride">:$stride,
    OptionalParameter<"::mlir::Attribute", "value">:$value);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Mav_CommonMetaAttr : Mav_Attr<"CommonMeta", "common"> {
  let summary = "MASE common metadata of a node";
  let description = [{
    `mase_type` is one of module_related_func, module, builtin_func,
    implicit_func, placeholder, get_attr, output; `mase_op` the operator
    from the op registry; `args` / `results` are `#mav.value` entries.
    All fields are optional; a node without `common` has empty common
    metadata, which is what `-mav-init-metadata` leaves. On a node, an entry
    that describes a value of the graph leaves out what the value's type
    says (shape, dtype, the dtype's format, contiguous strides), and
    `results` is left out when nothing is left of it;
    `NodeOpInterface::getCommonMeta()` gives the metadata complete
    (mav/IR/NodeMetadata.h).

    ```mlir
    #mav.common<mase_type = "module_related_func", mase_op = "relu",
                args = [#mav.value<name = "data_in_0", shape = [1, 64]>],
                results = [#mav.value<name = "data_out_0", shape = [1, 64]>]>
    ```
  }];
  let parameters = (ins
    Mav_OptionalString<"MASE node type">:$mase_type,
    Mav_OptionalString<"MASE operator">:$mase_op,
    OptionalParameter<"::mlir::ArrayAttr", "argument metadata">:$args,
    OptionalParameter<"::mlir::ArrayAttr", "result metadata">:$results);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Mav_HardwareMetaAttr : Mav_Attr<"HardwareMeta", "hardware"> {
  let summary = "MASE hardware metadata of a node";
  let description = [{
    MASE's hardware fields: `is_implicit`, `toolchain`, `module`,
    `device_id`, `interface`, `verilog_param`, `dependence_files`,
    `max_parallelism`. All optional.

    ```mlir
    #mav.hardware<is_implicit = false, toolchain = "INTERNAL_RTL",
                  module = "fixed_linear", device_id = -1,
                  verilog_param = {DATA_IN_0_PRECISION_0 = 8},
                  dependence_files = ["linear/rtl/fixed_linear.sv"],
                  max_parallelism = [4, 4]>
    ```
  }];
  let parameters = (ins
    OptionalParameter<"::mlir::BoolAttr", "implicit node">:$is_implicit,
    Mav_OptionalString<"toolchain">:$toolchain,
    Mav_OptionalString<"hardware module">:$module,
    OptionalParameter<"::mlir::IntegerAttr", "device id">:$device_id,
    OptionalParameter<"::mlir::DictionaryAttr", "interface">:$interface,
    OptionalParameter<"::mlir::DictionaryAttr", "verilog params">:$verilog_param,
    OptionalParameter<"::mlir::ArrayAttr", "files">:$dependence_files,
    Mav_IndexList<"maximum parallelism">:$max_parallelism);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Mav_SoftwareMetaAttr : Mav_Attr<"SoftwareMeta", "software"> {
  let summary = "MASE software metadata of a node";
  let description = [{
    Statistics and analysis results, keyed by the analysis that wrote them.

    ```mlir
    #mav.software<{entry = "normal", exit = "normal", params = 9408}>
    ```
  }];
  let parameters = (ins "::mlir::DictionaryAttr":$entries);
  let assemblyFormat = "`<` $entries `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Pass outputs
//===----------------------------------------------------------------------===//

def Mav_PassOutputAttr : Mav_Attr<"PassOutput", "pass_output"> {
  let summary = "what one run of a pass reported";
  let description = [{
    MASE passes return `(graph, pass_outputs)`; a mav pass appends one of
    these to the module's `mav.pass_outputs` list, in run order (a pass that
    runs twice appears twice). `mav-opt --mav-report=FILE` writes the list
    as JSON.

    ```mlir
    module attributes {mav.pass_outputs = [
        #mav.pass_output<"mav-count-dropout", {dropout_count = 2 : i64}>]} {
    ```
  }];
  let parameters = (ins Mav_String<"pass argument">:$pass,
                        "::mlir::DictionaryAttr":$outputs);
  let assemblyFormat = "`<` $pass `,` $outputs `>`";
  let genVerifyDecl = 1;
}

#endif // MAV_IR_MAVATTRS_TD
