//===- MavTypes.td - Types of mav values -------------------*- tablegen -*-===//
//
// Tensors whose shape and dtype are not known yet, and the non-tensor values
// TorchScript computes (sizes, scalars, lists, tuples). Known tensors use the
// builtin ranked or unranked tensor type.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_MAVTYPES_TD
#define MAV_IR_MAVTYPES_TD

include "mav/IR/MavDialect.td"

def Mav_UnknownTensorType : Mav_Type<"UnknownTensor", "tensor"> {
  let summary = "a tensor whose shape and dtype are not known yet";
  let description = [{
    The type of a tensor before shape propagation. Shape propagation refines
    it to a builtin ranked tensor such as `tensor<1x64x56x56xf32>`.

    ```mlir
    %relu = mav.call_module "relu" (%x) {...} : (!mav.tensor) -> !mav.tensor
    ```
  }];
}

def Mav_IntType : Mav_Type<"Int", "int"> {
  let summary = "a Python / TorchScript int";
  let description = [{
    A 64-bit integer computed at run time, for example by `aten::size`.

    ```mlir
    %size = mav.call_method "size" (%x, 0) : (!mav.tensor) -> !mav.int
    ```
  }];
}

def Mav_FloatType : Mav_Type<"Float", "float"> {
  let summary = "a Python / TorchScript float";
  let description = [{
    A double computed at run time, for example by `aten::item` or
    `aten::Float`.

    ```mlir
    %item = mav.call_method "item" (%t) : (!mav.tensor) -> !mav.float
    ```
  }];
}

def Mav_BoolType : Mav_Type<"Bool", "bool"> {
  let summary = "a Python / TorchScript bool";
  let description = [{
    A boolean computed at run time.

    ```mlir
    %is = mav.call_function "aten::is_floating_point" (%x) : (!mav.tensor) -> !mav.bool
    ```
  }];
}

def Mav_NumberType : Mav_Type<"Number", "number"> {
  let summary = "a TorchScript Scalar: an int or a float";
  let description = [{
    The `Scalar` / `number` type of TorchScript, whose kind is known only at
    run time.

    ```mlir
    %s = mav.call_function "aten::ScalarImplicit" (%t) : (!mav.tensor) -> !mav.number
    ```
  }];
}

def Mav_StrType : Mav_Type<"Str", "str"> {
  let summary = "a Python / TorchScript string";
  let description = [{
    A string computed at run time.

    ```mlir
    %s = mav.call_function "aten::str" (%i) : (!mav.int) -> !mav.str
    ```
  }];
}

def Mav_NoneType : Mav_Type<"None", "none"> {
  let summary = "the result of a node that returns None";
  let description = [{
    FX nodes always produce a value; nodes whose operator returns nothing
    produce a value of this type.

    ```mlir
    %warn = mav.call_function "aten::warn" ("careful", 2) : () -> !mav.none
    ```
  }];
}

def Mav_DeviceType : Mav_Type<"Device", "device"> {
  let summary = "a torch.device computed at run time";
  let description = [{
    ```mlir
    %dev = mav.call_function "prim::device" (%x) : (!mav.tensor) -> !mav.device
    ```
  }];
}

def Mav_AnyType : Mav_Type<"Any", "any"> {
  let summary = "a Python object of a type mav does not model";
  let description = [{
    A value whose TorchScript type has no mav counterpart (for example a
    generator or an object). Passes treat it as opaque.

    ```mlir
    %obj = mav.call_function "prim::Uninitialized" () : () -> !mav.any
    ```
  }];
}

def Mav_ListType : Mav_Type<"List", "list"> {
  let summary = "a list whose elements share one type";
  let description = [{
    ```mlir
    %sizes = mav.call_method "size" (%x) : (!mav.tensor) -> !mav.list<!mav.int>
    ```
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

def Mav_TupleType : Mav_Type<"Tuple", "tuple"> {
  let summary = "a tuple of values of possibly different types";
  let description = [{
    ```mlir
    %pair = mav.call_function "aten::max" (%x, 1, false)
        : (!mav.tensor) -> !mav.tuple<!mav.tensor, !mav.tensor>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"::mlir::Type">:$elementTypes);
  let hasCustomAssemblyFormat = 1;
}

def Mav_Value : Type<CPred<"::mav::isValueType($_self)">,
                     "a tensor or a TorchScript value">;

def Mav_TensorLike : Type<CPred<"::mav::isTensorType($_self)">,
                          "a tensor (known or unknown)">;

#endif // MAV_IR_MAVTYPES_TD
