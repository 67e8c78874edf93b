//===- MavBytecode.cpp - Bytecode encoding of mav attributes and types ----===//
//
// Without an encoding of its own, MLIR's bytecode writer stores a dialect's
// attributes and types as their text, and the reader parses that text again:
// slowly, and with errors that name `<mlir_parser_buffer>` rather than the
// file. Each mav attribute and type is written here as a kind code and its
// fields. Files written before this encoding existed still load: their mav
// attributes carry no custom encoding, and MLIR parses their text as before.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/MavBytecode.h"
#include "mav/IR/MavAttrs.h"
#include "mav/IR/MavDialect.h"
#include "mav/IR/MavTypes.h"

#include "mlir/Bytecode/BytecodeImplementation.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mav;

namespace {

/// The kind codes. Append only: a file stores them.
enum class AttrCode : uint64_t {
  Device = 0,
  None = 1,
  Tuple = 2,
  Dict = 3,
  OperandRef = 4,
  Scope = 5,
  ValueMeta = 6,
  CommonMeta = 7,
  HardwareMeta = 8,
  SoftwareMeta = 9,
  PassOutput = 10,
  DType = 11,
  MemoryFormat = 12,
  Layout = 13,
};

enum class TypeCode : uint64_t {
  UnknownTensor = 0,
  Int = 1,
  Float = 2,
  Bool = 3,
  Number = 4,
  Str = 5,
  None = 6,
  Device = 7,
  Any = 8,
  List = 9,
  Tuple = 10,
};

/// Reads the fields of an attribute or type in the order they were written;
/// each step fails the whole read on a truncated or malformed field.
class FieldReader {
public:
  explicit FieldReader(DialectBytecodeReader &reader) : reader(reader) {}

  FieldReader &string(StringRef &value) {
    ok = ok && succeeded(reader.readString(value));
    return *this;
  }
  template <typename T> FieldReader &attribute(T &value) {
    ok = ok && succeeded(reader.readAttribute(value));
    return *this;
  }
  template <typename T> FieldReader &optionalAttribute(T &value) {
    ok = ok && succeeded(reader.readOptionalAttribute(value));
    return *this;
  }
  FieldReader &varInt(uint64_t &value) {
    ok = ok && succeeded(reader.readVarInt(value));
    return *this;
  }
  explicit operator bool() const { return ok; }

private:
  DialectBytecodeReader &reader;
  bool ok = true;
};

template <typename EnumT, typename AttrT>
static Attribute readEnum(DialectBytecodeReader &reader,
                          std::optional<EnumT> (*symbolize)(uint64_t),
                          StringRef what) {
  uint64_t raw;
  if (failed(reader.readVarInt(raw)))
    return {};
  std::optional<EnumT> value = symbolize(raw);
  if (!value) {
    reader.emitError() << "invalid " << what << " " << raw;
    return {};
  }
  return AttrT::get(reader.getContext(), *value);
}

template <typename AttrT, typename... Args>
static Attribute getChecked(DialectBytecodeReader &reader, Args &&...args) {
  return AttrT::getChecked([&] { return reader.emitError(); },
                           reader.getContext(), std::forward<Args>(args)...);
}

static Attribute readAttr(DialectBytecodeReader &reader) {
  uint64_t code;
  if (failed(reader.readVarInt(code)))
    return {};
  MLIRContext *context = reader.getContext();
  FieldReader read(reader);
  switch (static_cast<AttrCode>(code)) {
  case AttrCode::Device: {
    StringRef device;
    if (!read.string(device))
      return {};
    return DeviceAttr::get(context, device);
  }
  case AttrCode::None:
    return NoneAttr::get(context);
  case AttrCode::Tuple: {
    ArrayAttr elements;
    if (!read.attribute(elements))
      return {};
    return TupleAttr::get(context, elements);
  }
  case AttrCode::Dict: {
    ArrayAttr keys, values;
    if (!read.attribute(keys).attribute(values))
      return {};
    return getChecked<DictAttr>(reader, keys, values);
  }
  case AttrCode::OperandRef: {
    uint64_t index;
    if (!read.varInt(index))
      return {};
    if (index > std::numeric_limits<unsigned>::max()) {
      reader.emitError() << "operand index " << index << " is out of range";
      return {};
    }
    return OperandRefAttr::get(context, index);
  }
  case AttrCode::Scope: {
    StringRef path, moduleClass;
    if (!read.string(path).string(moduleClass))
      return {};
    return ScopeAttr::get(context, path, moduleClass);
  }
  case AttrCode::ValueMeta: {
    StringRef name, torchDtype, type;
    DenseI64ArrayAttr shape, precision, stride;
    Attribute value;
    if (!read.string(name)
             .optionalAttribute(shape)
             .string(torchDtype)
             .string(type)
             .optionalAttribute(precision)
             .optionalAttribute(stride)
             .optionalAttribute(value))
      return {};
    return ValueMetaAttr::get(context, name, shape, torchDtype, type, precision,
                              stride, value);
  }
  case AttrCode::CommonMeta: {
    StringRef maseType, maseOp;
    ArrayAttr args, results;
    if (!read.string(maseType)
             .string(maseOp)
             .optionalAttribute(args)
             .optionalAttribute(results))
      return {};
    return getChecked<CommonMetaAttr>(reader, maseType, maseOp, args, results);
  }
  case AttrCode::HardwareMeta: {
    BoolAttr isImplicit;
    StringRef toolchain, module;
    IntegerAttr deviceId;
    DictionaryAttr interface, verilogParam;
    ArrayAttr dependenceFiles;
    DenseI64ArrayAttr maxParallelism;
    if (!read.optionalAttribute(isImplicit)
             .string(toolchain)
             .string(module)
             .optionalAttribute(deviceId)
             .optionalAttribute(interface)
             .optionalAttribute(verilogParam)
             .optionalAttribute(dependenceFiles)
             .optionalAttribute(maxParallelism))
      return {};
    return getChecked<HardwareMetaAttr>(reader, isImplicit, toolchain, module,
                                        deviceId, interface, verilogParam,
                                        dependenceFiles, maxParallelism);
  }
  case AttrCode::SoftwareMeta: {
    DictionaryAttr entries;
    if (!read.attribute(entries))
      return {};
    return getChecked<SoftwareMetaAttr>(reader, entries);
  }
  case AttrCode::PassOutput: {
    StringRef pass;
    DictionaryAttr outputs;
    if (!read.string(pass).attribute(outputs))
      return {};
    return getChecked<PassOutputAttr>(reader, pass, outputs);
  }
  case AttrCode::DType:
    return readEnum<ScalarType, ScalarTypeAttr>(
        reader, [](uint64_t raw) { return symbolizeScalarType(raw); }, "dtype");
  case AttrCode::MemoryFormat:
    return readEnum<MemoryFormat, MemoryFormatAttr>(
        reader, [](uint64_t raw) { return symbolizeMemoryFormat(raw); },
        "memory format");
  case AttrCode::Layout:
    return readEnum<Layout, LayoutAttr>(
        reader, [](uint64_t raw) { return symbolizeLayout(raw); }, "layout");
  }
  reader.emitError() << "unknown mav attribute code " << code;
  return {};
}

static LogicalResult writeAttr(Attribute attr, DialectBytecodeWriter &writer) {
  auto code = [&](AttrCode value) {
    writer.writeVarInt(static_cast<uint64_t>(value));
  };
  return TypeSwitch<Attribute, LogicalResult>(attr)
      .Case([&](DeviceAttr device) {
        code(AttrCode::Device);
        writer.writeOwnedString(device.getDevice());
        return success();
      })
      .Case([&](NoneAttr) {
        code(AttrCode::None);
        return success();
      })
      .Case([&](TupleAttr tuple) {
        code(AttrCode::Tuple);
        writer.writeAttribute(tuple.getElements());
        return success();
      })
      .Case([&](DictAttr dict) {
        code(AttrCode::Dict);
        writer.writeAttribute(dict.getKeys());
        writer.writeAttribute(dict.getValues());
        return success();
      })
      .Case([&](OperandRefAttr ref) {
        code(AttrCode::OperandRef);
        writer.writeVarInt(ref.getIndex());
        return success();
      })
      .Case([&](ScopeAttr scope) {
        code(AttrCode::Scope);
        writer.writeOwnedString(scope.getPath());
        writer.writeOwnedString(scope.getModuleClass());
        return success();
      })
      .Case([&](ValueMetaAttr meta) {
        code(AttrCode::ValueMeta);
        writer.writeOwnedString(meta.getName());
        writer.writeOptionalAttribute(meta.getShape());
        writer.writeOwnedString(meta.getTorchDtype());
        writer.writeOwnedString(meta.getType());
        writer.writeOptionalAttribute(meta.getPrecision());
        writer.writeOptionalAttribute(meta.getStride());
        writer.writeOptionalAttribute(meta.getValue());
        return success();
      })
      .Case([&](CommonMetaAttr meta) {
        code(AttrCode::CommonMeta);
        writer.writeOwnedString(meta.getMaseType());
        writer.writeOwnedString(meta.getMaseOp());
        writer.writeOptionalAttribute(meta.getArgs());
        writer.writeOptionalAttribute(meta.getResults());
        return success();
      })
      .Case([&](HardwareMetaAttr meta) {
        code(AttrCode::HardwareMeta);
        writer.writeOptionalAttribute(meta.getIsImplicit());
        writer.writeOwnedString(meta.getToolchain());
        writer.writeOwnedString(meta.getModule());
        writer.writeOptionalAttribute(meta.getDeviceId());
        writer.writeOptionalAttribute(meta.getInterface());
        writer.writeOptionalAttribute(meta.getVerilogParam());
        writer.writeOptionalAttribute(meta.getDependenceFiles());
        writer.writeOptionalAttribute(meta.getMaxParallelism());
        return success();
      })
      .Case([&](SoftwareMetaAttr meta) {
        code(AttrCode::SoftwareMeta);
        writer.writeAttribute(meta.getEntries());
        return success();
      })
      .Case([&](PassOutputAttr output) {
        code(AttrCode::PassOutput);
        writer.writeOwnedString(output.getPass());
        writer.writeAttribute(output.getOutputs());
        return success();
      })
      .Case([&](ScalarTypeAttr dtype) {
        code(AttrCode::DType);
        writer.writeVarInt(static_cast<uint64_t>(dtype.getValue()));
        return success();
      })
      .Case([&](MemoryFormatAttr format) {
        code(AttrCode::MemoryFormat);
        writer.writeVarInt(static_cast<uint64_t>(format.getValue()));
        return success();
      })
      .Case([&](LayoutAttr layout) {
        code(AttrCode::Layout);
        writer.writeVarInt(static_cast<uint64_t>(layout.getValue()));
        return success();
      })
      .Default([](Attribute) { return failure(); });
}

static Type readMavType(DialectBytecodeReader &reader) {
  uint64_t code;
  if (failed(reader.readVarInt(code)))
    return {};
  MLIRContext *context = reader.getContext();
  switch (static_cast<TypeCode>(code)) {
  case TypeCode::UnknownTensor:
    return mav::UnknownTensorType::get(context);
  case TypeCode::Int:
    return mav::IntType::get(context);
  case TypeCode::Float:
    return mav::FloatType::get(context);
  case TypeCode::Bool:
    return mav::BoolType::get(context);
  case TypeCode::Number:
    return mav::NumberType::get(context);
  case TypeCode::Str:
    return mav::StrType::get(context);
  case TypeCode::None:
    return mav::NoneType::get(context);
  case TypeCode::Device:
    return mav::DeviceType::get(context);
  case TypeCode::Any:
    return mav::AnyType::get(context);
  case TypeCode::List: {
    Type element;
    if (failed(reader.readType(element)))
      return {};
    return mav::ListType::get(context, element);
  }
  case TypeCode::Tuple: {
    SmallVector<Type> elements;
    if (failed(reader.readTypes(elements)))
      return {};
    return mav::TupleType::get(context, elements);
  }
  }
  reader.emitError() << "unknown mav type code " << code;
  return {};
}

static LogicalResult writeMavType(Type type, DialectBytecodeWriter &writer) {
  auto tag = [&](TypeCode value) {
    writer.writeVarInt(static_cast<uint64_t>(value));
  };
  auto code = [&](TypeCode value) {
    tag(value);
    return success();
  };
  return TypeSwitch<Type, LogicalResult>(type)
      .Case(
          [&](mav::UnknownTensorType) { return code(TypeCode::UnknownTensor); })
      .Case([&](mav::IntType) { return code(TypeCode::Int); })
      .Case([&](mav::FloatType) { return code(TypeCode::Float); })
      .Case([&](mav::BoolType) { return code(TypeCode::Bool); })
      .Case([&](mav::NumberType) { return code(TypeCode::Number); })
      .Case([&](mav::StrType) { return code(TypeCode::Str); })
      .Case([&](mav::NoneType) { return code(TypeCode::None); })
      .Case([&](mav::DeviceType) { return code(TypeCode::Device); })
      .Case([&](mav::AnyType) { return code(TypeCode::Any); })
      .Case([&](mav::ListType list) {
        tag(TypeCode::List);
        writer.writeType(list.getElementType());
        return success();
      })
      .Case([&](mav::TupleType tuple) {
        tag(TypeCode::Tuple);
        writer.writeTypes(tuple.getElementTypes());
        return success();
      })
      .Default([](Type) { return failure(); });
}

struct MavBytecodeInterface : BytecodeDialectInterface {
  explicit MavBytecodeInterface(Dialect *dialect)
      : BytecodeDialectInterface(dialect) {}

  Attribute readAttribute(DialectBytecodeReader &reader) const override {
    return readAttr(reader);
  }
  LogicalResult writeAttribute(Attribute attr,
                               DialectBytecodeWriter &writer) const override {
    return writeAttr(attr, writer);
  }
  Type readType(DialectBytecodeReader &reader) const override {
    return readMavType(reader);
  }
  LogicalResult writeType(Type type,
                          DialectBytecodeWriter &writer) const override {
    return writeMavType(type, writer);
  }
};

} // namespace

void mav::addBytecodeInterface(MavDialect *dialect) {
  dialect->addInterfaces<MavBytecodeInterface>();
}
