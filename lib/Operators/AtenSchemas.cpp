//===- AtenSchemas.cpp - The aten schemas native shape rules bind to ------===//

#include "mav/Operators/AtenSchemas.h"
#include "ShapeRules.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

using namespace mav;
using llvm::StringRef;

/// libtorch 1.13's text of each overload (torch._C._jit_get_schemas_for_
/// operator), one operator's overloads in libtorch's order, and the rule that
/// computes its results.
static const struct {
  const char *text;
  ShapeRule shape;
} kSchemas[] = {
    {R"(aten::_convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, bool benchmark, bool deterministic, bool cudnn_enabled, bool allow_tf32) -> Tensor)",
     shape_rules::convolution},
    {R"(aten::adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor)",
     shape_rules::adaptiveAvgPool2d},
    {R"(aten::batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor)",
     shape_rules::batchNorm},
    {R"(aten::flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a))",
     shape_rules::flatten},
    {R"(aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor)",
     shape_rules::linear},
    {R"(aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor)",
     shape_rules::maxPool2d},
    {R"(aten::avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor)",
     shape_rules::avgPool2d},
    {R"(aten::relu_(Tensor(a!) self) -> Tensor(a!))",
     shape_rules::unaryInPlace},
    {R"(aten::relu(Tensor self) -> Tensor)", shape_rules::unaryFloat},
    {R"(aten::relu6(Tensor self) -> Tensor)", shape_rules::unaryLikeInput},
    {R"(aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor)",
     shape_rules::binaryArithmetic},
    {R"(aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor)",
     shape_rules::binaryArithmetic},
    {R"(aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!))",
     shape_rules::binaryInPlace},
    {R"(aten::add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!))",
     shape_rules::binaryInPlace},
    {R"(aten::sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor)",
     shape_rules::subtract},
    {R"(aten::sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor)",
     shape_rules::subtract},
    {R"(aten::mul.Tensor(Tensor self, Tensor other) -> Tensor)",
     shape_rules::binaryArithmetic},
    {R"(aten::mul.Scalar(Tensor self, Scalar other) -> Tensor)",
     shape_rules::binaryArithmetic},
    {R"(aten::mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!))",
     shape_rules::binaryInPlace},
    {R"(aten::mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!))",
     shape_rules::binaryInPlace},
    {R"(aten::div.Tensor(Tensor self, Tensor other) -> Tensor)",
     shape_rules::trueDivide},
    {R"(aten::div.Scalar(Tensor self, Scalar other) -> Tensor)",
     shape_rules::trueDivide},
    {R"(aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor)",
     shape_rules::divideWithMode},
    {R"(aten::div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor)",
     shape_rules::divideWithMode},
    {R"(aten::floor_divide(Tensor self, Tensor other) -> Tensor)",
     shape_rules::floorDivide},
    {R"(aten::floor_divide.Scalar(Tensor self, Scalar other) -> Tensor)",
     shape_rules::floorDivide},
    {R"(aten::abs(Tensor self) -> Tensor)", shape_rules::absolute},
    {R"(aten::isnan(Tensor self) -> Tensor)", shape_rules::isNan},
    {R"(aten::gt.Tensor(Tensor self, Tensor other) -> Tensor)",
     shape_rules::comparison},
    {R"(aten::gt.Scalar(Tensor self, Scalar other) -> Tensor)",
     shape_rules::comparison},
    {R"(aten::lt.Tensor(Tensor self, Tensor other) -> Tensor)",
     shape_rules::comparison},
    {R"(aten::lt.Scalar(Tensor self, Scalar other) -> Tensor)",
     shape_rules::comparison},
    {R"(aten::ge.Tensor(Tensor self, Tensor other) -> Tensor)",
     shape_rules::comparison},
    {R"(aten::ge.Scalar(Tensor self, Scalar other) -> Tensor)",
     shape_rules::comparison},
    {R"(aten::le.Tensor(Tensor self, Tensor other) -> Tensor)",
     shape_rules::comparison},
    {R"(aten::le.Scalar(Tensor self, Scalar other) -> Tensor)",
     shape_rules::comparison},
    {R"(aten::eq.Tensor(Tensor self, Tensor other) -> Tensor)",
     shape_rules::comparison},
    {R"(aten::eq.Scalar(Tensor self, Scalar other) -> Tensor)",
     shape_rules::comparison},
    {R"(aten::ne.Tensor(Tensor self, Tensor other) -> Tensor)",
     shape_rules::comparison},
    {R"(aten::ne.Scalar(Tensor self, Scalar other) -> Tensor)",
     shape_rules::comparison},
    {R"(aten::hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!))",
     shape_rules::unaryInPlace},
    {R"(aten::hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor)",
     shape_rules::unaryLikeInput},
    {R"(aten::dropout(Tensor input, float p, bool train) -> Tensor)",
     shape_rules::dropout},
    {R"(aten::dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!))",
     shape_rules::dropoutInPlace},
    {R"(aten::sigmoid(Tensor self) -> Tensor)", shape_rules::unaryFloat},
    {R"(aten::sigmoid_(Tensor(a!) self) -> Tensor(a!))",
     shape_rules::unaryInPlace},
    {R"(aten::tanh(Tensor self) -> Tensor)", shape_rules::unaryFloat},
    {R"(aten::silu_(Tensor(a!) self) -> Tensor(a!))",
     shape_rules::unaryInPlace},
    {R"(aten::silu(Tensor self) -> Tensor)", shape_rules::unaryFloat},
    {R"(aten::gelu(Tensor self, *, str approximate="none") -> Tensor)",
     shape_rules::unaryFloat},
    {R"(aten::hardswish_(Tensor(a!) self) -> Tensor(a!))",
     shape_rules::unaryInPlace},
    {R"(aten::hardswish(Tensor self) -> Tensor)", shape_rules::unaryFloat},
    {R"(aten::hardsigmoid(Tensor self) -> Tensor)", shape_rules::unaryFloat},
    {R"(aten::lstm.data(Tensor data, Tensor batch_sizes, Tensor[] hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional) -> (Tensor, Tensor, Tensor))",
     shape_rules::packedLstm},
    {R"(aten::gru.data(Tensor data, Tensor batch_sizes, Tensor hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional) -> (Tensor, Tensor))",
     shape_rules::packedGru},
    {R"(aten::rnn_tanh.data(Tensor data, Tensor batch_sizes, Tensor hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional) -> (Tensor, Tensor))",
     shape_rules::packedElmanRnn},
    {R"(aten::rnn_relu.data(Tensor data, Tensor batch_sizes, Tensor hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional) -> (Tensor, Tensor))",
     shape_rules::packedElmanRnn},
    {R"(aten::layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1.0000000000000001e-05, bool cudnn_enable=True) -> Tensor)",
     shape_rules::layerNorm},
    {R"(aten::permute(Tensor(a) self, int[] dims) -> Tensor(a))",
     shape_rules::permute},
    {R"(aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a))",
     shape_rules::transpose},
    {R"(aten::cat(Tensor[] tensors, int dim=0) -> Tensor)",
     shape_rules::concatenate},
    {R"(aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a))",
     shape_rules::contiguous},
    {R"(aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a))",
     shape_rules::view},
    {R"(aten::reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a))",
     shape_rules::reshape},
    {R"(aten::unsqueeze(Tensor(a) self, int dim) -> Tensor(a))",
     shape_rules::unsqueeze},
    {R"(aten::softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor)",
     shape_rules::softmax},
    {R"(aten::mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor)",
     shape_rules::meanDim},
    {R"(aten::matmul(Tensor self, Tensor other) -> Tensor)",
     shape_rules::matmul},
    {R"(aten::bmm(Tensor self, Tensor mat2) -> Tensor)",
     shape_rules::batchMatmul},
    {R"(aten::segment_reduce(Tensor data, str reduce, *, Tensor? lengths=None, Tensor? indices=None, Tensor? offsets=None, int axis=0, bool unsafe=False, Scalar? initial=None) -> Tensor)",
     shape_rules::segmentReduce},
    {R"(aten::_native_multi_head_attention(Tensor query, Tensor key, Tensor value, int embed_dim, int num_head, Tensor qkv_weight, Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, Tensor? mask=None, bool need_weights=True, bool average_attn_weights=True, int? mask_type=None) -> (Tensor, Tensor))",
     shape_rules::nativeMultiHeadAttention},
    {R"(aten::select.int(Tensor(a) self, int dim, int index) -> Tensor(a))",
     shape_rules::select},
    {R"(aten::slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a))",
     shape_rules::slice},
    {R"(aten::expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a))",
     shape_rules::expand},
    {R"(aten::embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor)",
     shape_rules::embedding},
    // Operators on sizes and scalars, which native shape propagation
    // computes itself (NativeShapes.cpp).
    {R"(aten::size.int(Tensor self, int dim) -> int)", nullptr},
    {R"(aten::size(Tensor self) -> int[])", nullptr},
    {R"(prim::NumToTensor.Scalar(Scalar a) -> Tensor)", nullptr},
    {R"(aten::Int.Tensor(Tensor a) -> int)", nullptr},
};

/// Splits `list` at the commas outside brackets and parentheses.
static llvm::SmallVector<StringRef> splitTopLevel(StringRef list) {
  llvm::SmallVector<StringRef> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    char c = list[i];
    if (c == '(' || c == '[')
      ++depth;
    else if (c == ')' || c == ']')
      --depth;
    else if (c == ',' && depth == 0) {
      parts.push_back(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (!list.trim().empty())
    parts.push_back(list.drop_front(start).trim());
  return parts;
}

static AtenSchema parseSchema(StringRef text, ShapeRule shape) {
  AtenSchema schema;
  schema.text = text;
  schema.shape = shape;
  size_t open = text.find('('), arrow = text.rfind(" -> ");
  size_t close = text.rfind(')', arrow);
  std::tie(schema.name, schema.overload) = text.take_front(open).split('.');
  bool keywordOnly = false;
  for (StringRef part : splitTopLevel(text.slice(open + 1, close))) {
    if (part == "*") {
      keywordOnly = true;
      continue;
    }
    auto [declaration, defaultValue] = part.split('=');
    auto [type, name] = declaration.rsplit(' ');
    // Drop the alias annotation: "Tensor(a!)" is a Tensor.
    AtenParameter parameter;
    parameter.name = name;
    parameter.type = type.take_front(type.find('('));
    parameter.hasDefault = part.contains('=');
    parameter.keywordOnly = keywordOnly;
    schema.parameters.push_back(parameter);
  }
  StringRef results = text.drop_front(arrow + 4).trim();
  if (results.starts_with("("))
    schema.numResults = splitTopLevel(results.drop_front().drop_back()).size();
  return schema;
}

llvm::ArrayRef<AtenSchema> mav::getAtenSchemas() {
  static const std::vector<AtenSchema> *schemas = [] {
    auto *parsed = new std::vector<AtenSchema>();
    for (const auto &entry : kSchemas)
      parsed->push_back(parseSchema(entry.text, entry.shape));
    return parsed;
  }();
  return *schemas;
}

llvm::SmallVector<const AtenSchema *, 2>
mav::lookupAtenSchemas(StringRef target) {
  static const llvm::StringMap<llvm::SmallVector<const AtenSchema *, 2>>
      *byName = [] {
        auto *map =
            new llvm::StringMap<llvm::SmallVector<const AtenSchema *, 2>>();
        for (const AtenSchema &schema : getAtenSchemas()) {
          (*map)[schema.name].push_back(&schema);
          if (!schema.overload.empty())
            (*map)[(llvm::Twine(schema.name) + "." + schema.overload).str()]
                .push_back(&schema);
        }
        return map;
      }();
  auto it = byName->find(target);
  if (it == byName->end())
    return {};
  // "aten::add" names every overload; "aten::relu" names its only one.
  return it->second;
}
