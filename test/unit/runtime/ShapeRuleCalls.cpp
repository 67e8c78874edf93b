//===- ShapeRuleCalls.cpp - Generated calls for the shape-rule test -------===//

#include "ShapeRuleCalls.h"

#include <ATen/ATen.h>

#include <limits>

using namespace mav::test;
using Shape = std::vector<int64_t>;

namespace {

/// How a generated tensor is laid out in memory.
enum class Layout { Contiguous, ChannelsLast, Transposed, Expanded, Sliced };

const Layout kLayouts[] = {Layout::Contiguous, Layout::ChannelsLast,
                           Layout::Transposed, Layout::Expanded,
                           Layout::Sliced};

const std::vector<Shape> kShapes = {
    {},           {1},          {3},          {2, 3},      {1, 3},
    {2, 1},       {0, 3},       {2, 3, 4},    {1, 3, 1},   {3, 1, 4},
    {2, 3, 4, 5}, {1, 3, 4, 1}, {2, 1, 4, 5}, {2, 3, 1, 1}};

at::Tensor filled(const Shape &shape, at::ScalarType dtype) {
  if (at::isFloatingType(dtype))
    return at::randn(shape, at::TensorOptions().dtype(dtype));
  if (dtype == at::kBool)
    return at::randint(0, 2, shape).to(at::kBool);
  return at::randint(1, 5, shape, at::TensorOptions().dtype(dtype));
}

/// A tensor of `shape` laid out as `layout` (contiguous where the layout
/// does not apply to the rank).
at::Tensor makeTensor(const Shape &shape, Layout layout,
                      at::ScalarType dtype = at::kFloat) {
  size_t rank = shape.size();
  switch (layout) {
  case Layout::ChannelsLast:
    if (rank == 4)
      return filled(shape, dtype).contiguous(at::MemoryFormat::ChannelsLast);
    break;
  case Layout::Transposed:
    if (rank >= 2) {
      Shape swapped = shape;
      std::swap(swapped[rank - 1], swapped[rank - 2]);
      return filled(swapped, dtype).transpose(-1, -2);
    }
    break;
  case Layout::Expanded:
    if (rank >= 1 && shape[0] > 1) {
      Shape one = shape;
      one[0] = 1;
      return filled(one, dtype).expand(shape);
    }
    break;
  case Layout::Sliced:
    if (rank >= 1) {
      Shape doubled = shape;
      doubled.back() *= 2;
      return filled(doubled, dtype).slice(-1, 0, c10::nullopt, 2);
    }
    break;
  case Layout::Contiguous:
    break;
  }
  return filled(shape, dtype);
}

std::vector<Call> unaryCalls(std::vector<at::ScalarType> dtypes = {
                                 at::kFloat, at::kDouble}) {
  std::vector<Call> calls;
  for (const Shape &shape : kShapes)
    for (Layout layout : kLayouts)
      for (at::ScalarType dtype : dtypes)
        calls.push_back({makeTensor(shape, layout, dtype)});
  return calls;
}

/// Unary calls with `extra` appended to each (hardtanh's bounds).
std::function<std::vector<Call>()> unaryWith(std::vector<c10::IValue> extra) {
  return [=] {
    std::vector<Call> calls = unaryCalls();
    for (Call &call : calls)
      call.insert(call.end(), extra.begin(), extra.end());
    return calls;
  };
}

const at::ScalarType kBinaryDTypes[] = {at::kFloat, at::kDouble, at::kLong,
                                        at::kInt,   at::kBool,   at::kHalf};

std::vector<Call> binaryTensorCalls(bool withAlpha) {
  std::vector<Call> calls;
  const std::vector<std::pair<Shape, Shape>> pairs = {
      {{2, 3}, {2, 3}},
      {{2, 3}, {3}},
      {{2, 3}, {}},
      {{}, {2, 3}},
      {{2, 1}, {1, 3}},
      {{2, 3}, {4}},
      {{1, 3, 4, 1}, {2, 3, 4, 5}},
      {{2, 3, 4, 5}, {2, 3, 4, 5}},
      {{2, 3, 4, 5}, {3, 1, 1}},
      {{2, 3, 4, 5}, {5}},
      {{3, 1, 4}, {3, 2, 1}},
      {{2, 3}, {3, 2}}};
  for (const auto &[lhs, rhs] : pairs)
    for (Layout left : kLayouts)
      for (Layout right :
           {Layout::Contiguous, Layout::Transposed, Layout::ChannelsLast})
        for (at::ScalarType dtype : kBinaryDTypes) {
          at::ScalarType other = left == right ? dtype : at::kFloat;
          Call call = {makeTensor(lhs, left, dtype),
                       makeTensor(rhs, right, other)};
          if (withAlpha)
            call.push_back(int64_t(1));
          calls.push_back(call);
        }
  return calls;
}

std::vector<Call> binaryScalarCalls(bool withAlpha) {
  std::vector<Call> calls;
  for (const Shape &shape : kShapes)
    for (Layout layout : kLayouts)
      for (at::ScalarType dtype : kBinaryDTypes)
        for (c10::IValue number : {c10::IValue(int64_t(2)), c10::IValue(0.5)}) {
          Call call = {makeTensor(shape, layout, dtype), number};
          if (withAlpha)
            call.push_back(int64_t(1));
          calls.push_back(call);
        }
  return calls;
}

std::vector<Call> dropoutCalls() {
  std::vector<Call> calls;
  for (const Shape &shape : kShapes)
    for (Layout layout : kLayouts)
      for (double p : {0.0, 0.5, 1.0, 1.5, -0.1})
        for (bool train : {false, true})
          calls.push_back({makeTensor(shape, layout), p, train});
  for (bool train : {false, true})
    calls.push_back(
        {makeTensor({2, 3}, Layout::Contiguous, at::kLong), 0.5, train});
  return calls;
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

std::vector<Call> flattenCalls() {
  std::vector<Call> calls;
  for (const Shape &shape : kShapes)
    for (Layout layout : kLayouts)
      for (int64_t start = -5; start <= 4; ++start)
        for (int64_t end : {-1, -2, 0, 1, 2, 3, 4})
          calls.push_back({makeTensor(shape, layout), start, end});
  return calls;
}

std::vector<Call> viewCalls() {
  std::vector<Call> calls;
  const std::vector<Shape> targets = {
      {-1},      {6},     {2, 3},  {3, 2},  {1, -1}, {-1, 1}, {2, -1, 1},
      {-1, -1},  {4, -1}, {0, -1}, {24},    {2, 12}, {6, 4},  {2, 3, 4},
      {1, 6, 4}, {-2, 3}, {120},   {2, 60}, {}};
  for (const Shape &shape : kShapes)
    for (Layout layout : kLayouts)
      for (const Shape &target : targets)
        calls.push_back({makeTensor(shape, layout), c10::IValue(target)});
  return calls;
}

std::vector<Call> permuteCalls() {
  std::vector<Call> calls;
  const std::vector<Shape> orders = {
      {},           {0},          {1, 0},      {0, 1},    {-1, 0},
      {0, 0},       {2, 0, 1},    {0, 2, 1},   {1, 2, 0}, {0, 3, 1, 2},
      {0, 2, 3, 1}, {3, 2, 1, 0}, {0, 1, 2, 4}};
  for (const Shape &shape : kShapes)
    for (Layout layout : kLayouts)
      for (const Shape &order : orders)
        calls.push_back({makeTensor(shape, layout), c10::IValue(order)});
  return calls;
}

std::vector<Call> transposeCalls() {
  std::vector<Call> calls;
  for (const Shape &shape : kShapes)
    for (Layout layout : kLayouts)
      for (int64_t a : {-2, -1, 0, 1, 3, 4})
        for (int64_t b : {-1, 0, 2})
          calls.push_back({makeTensor(shape, layout), a, b});
  return calls;
}

std::vector<Call> unsqueezeCalls() {
  std::vector<Call> calls;
  for (const Shape &shape : kShapes)
    for (Layout layout : kLayouts)
      for (int64_t dim = -6; dim <= 5; ++dim)
        calls.push_back({makeTensor(shape, layout), dim});
  return calls;
}

std::vector<Call> contiguousCalls() {
  std::vector<Call> calls;
  for (const Shape &shape : kShapes)
    for (Layout layout : kLayouts)
      calls.push_back({makeTensor(shape, layout), int64_t(0)});
  return calls;
}

std::vector<Call> catCalls() {
  std::vector<Call> calls;
  const std::vector<std::vector<Shape>> lists = {
      {{2, 3}},
      {{2, 3}, {2, 3}},
      {{2, 3}, {4, 3}},
      {{2, 3}, {2, 4}},
      {{2, 3}, {2, 3, 1}},
      {{2, 3, 4, 5}, {2, 1, 4, 5}},
      {{2, 3, 4, 5}, {2, 3, 4, 5}, {2, 3, 4, 5}},
      {{}, {}},
      {{3}, {4}}};
  for (const std::vector<Shape> &shapes : lists)
    for (Layout layout :
         {Layout::Contiguous, Layout::ChannelsLast, Layout::Transposed})
      for (at::ScalarType second : {at::kFloat, at::kDouble, at::kLong})
        for (int64_t dim : {-1, 0, 1, 2, 3, 4}) {
          c10::List<at::Tensor> tensors;
          for (size_t i = 0; i < shapes.size(); ++i)
            tensors.push_back(
                makeTensor(shapes[i], layout, i == 1 ? second : at::kFloat));
          calls.push_back({tensors, dim});
        }
  return calls;
}

std::vector<Call> selectCalls() {
  std::vector<Call> calls;
  for (const Shape &shape : kShapes)
    for (Layout layout : kLayouts)
      for (int64_t dim : {-5, -1, 0, 1, 2, 4})
        for (int64_t index : {-4, -1, 0, 1, 2, 3})
          calls.push_back({makeTensor(shape, layout), dim, index});
  return calls;
}

std::vector<Call> sliceCalls() {
  std::vector<Call> calls;
  const int64_t max = std::numeric_limits<int64_t>::max();
  for (const Shape &shape : kShapes)
    for (Layout layout : kLayouts)
      for (int64_t dim : {-1, 0, 1, 3})
        for (c10::IValue start :
             {c10::IValue(), c10::IValue(int64_t(0)), c10::IValue(int64_t(1)),
              c10::IValue(int64_t(-2))})
          for (c10::IValue end :
               {c10::IValue(), c10::IValue(max), c10::IValue(int64_t(2)),
                c10::IValue(int64_t(-1)), c10::IValue(int64_t(-9))})
            for (int64_t step : {1, 2, 0})
              calls.push_back(
                  {makeTensor(shape, layout), dim, start, end, step});
  return calls;
}

std::vector<Call> expandCalls() {
  std::vector<Call> calls;
  const std::vector<Shape> targets = {
      {-1},         {3},           {2, 3},       {4, 2, 3}, {-1, -1},
      {2, -1},      {-1, 2, 3},    {5, 1, 3},    {2, 3, 4}, {2, 2, 3, 4},
      {2, 3, 4, 5}, {2, -1, 4, 5}, {3, 3, 1, 4}, {0, 3},    {}};
  for (const Shape &shape : kShapes)
    for (Layout layout : kLayouts)
      for (const Shape &target : targets)
        calls.push_back(
            {makeTensor(shape, layout), c10::IValue(target), false});
  return calls;
}

std::vector<Call> embeddingCalls() {
  std::vector<Call> calls;
  for (const Shape &weight : std::vector<Shape>{{10, 4}, {10}, {5, 2, 2}})
    for (const Shape &indices : kShapes)
      for (at::ScalarType dtype : {at::kLong, at::kInt, at::kFloat})
        calls.push_back({at::randn(weight),
                         makeTensor(indices, Layout::Contiguous, dtype),
                         int64_t(-1), false, false});
  return calls;
}

/// Segments whose lengths (or offsets) fit the data, as libtorch checks;
/// and counts of the wrong rank or dtype, which it refuses.
std::vector<Call> segmentReduceCalls() {
  std::vector<Call> calls;
  c10::IValue none;
  auto add = [&](at::Tensor data, c10::IValue lengths, c10::IValue offsets,
                 int64_t axis) {
    for (std::string reduce : {"sum", "max"})
      calls.push_back({data, reduce, lengths, none, offsets, axis, false,
                       c10::IValue(0.5)});
  };
  at::Tensor lengths = at::tensor({2, 0, 3}, at::kLong);
  add(at::randn({5}), lengths, none, 0);
  add(at::randn({5, 3}), lengths, none, 0);
  add(at::randn({5, 3}), lengths.to(at::kInt), none, -2);
  add(at::randn({2, 5}), at::tensor({2, 3, 1, 4}, at::kLong).view({2, 2}), none,
      1);
  add(at::randn({5, 3}), none, at::tensor({0, 2, 2, 5}, at::kLong), 0);
  add(at::randn({5, 3}), lengths.view({1, 3}), none, 0);
  add(at::randn({5, 3}), lengths.to(at::kFloat), none, 0);
  add(at::randint(0, 4, {5}), lengths, none, 0);
  return calls;
}

//===----------------------------------------------------------------------===//
// Layers
//===----------------------------------------------------------------------===//

std::vector<Call> convolutionCalls() {
  std::vector<Call> calls;
  using List = std::vector<int64_t>;
  for (int spatial : {1, 2})
    for (int64_t groups : {1, 2, 3})
      for (int64_t inChannels : {2, 3, 6})
        for (bool transposed : {false, true})
          for (int64_t stride : {1, 2})
            for (int64_t padding : {0, 1, 3})
              for (int64_t dilation : {1, 2})
                for (int64_t kernel : {1, 3})
                  for (bool bias : {false, true}) {
                    Shape input = {2, inChannels}, weight;
                    for (int i = 0; i < spatial; ++i)
                      input.push_back(5);
                    int64_t outChannels = 6;
                    weight = transposed
                                 ? Shape{inChannels, outChannels / groups}
                                 : Shape{outChannels, inChannels / groups};
                    for (int i = 0; i < spatial; ++i)
                      weight.push_back(kernel);
                    List outputPadding(spatial, stride > 1 ? 1 : 0);
                    c10::IValue biasValue;
                    if (bias)
                      biasValue = at::randn({outChannels});
                    calls.push_back(
                        {at::randn(input), at::randn(weight), biasValue,
                         List(spatial, stride), List(spatial, padding),
                         List(spatial, dilation), transposed, outputPadding,
                         groups, false, false, true, true});
                  }
  return calls;
}

std::vector<Call> batchNormCalls() {
  std::vector<Call> calls;
  for (const Shape &shape : std::vector<Shape>{{2, 3},
                                               {1, 3},
                                               {2, 3, 4},
                                               {2, 3, 4, 5},
                                               {1, 3, 1, 1},
                                               {2, 4, 4, 5},
                                               {3}})
    for (Layout layout :
         {Layout::Contiguous, Layout::ChannelsLast, Layout::Transposed})
      for (bool training : {false, true})
        for (bool affine : {false, true}) {
          auto channel = [](int64_t size) { return at::rand({size}) + 0.5; };
          c10::IValue weight, bias;
          if (affine) {
            weight = channel(3);
            bias = channel(3);
          }
          calls.push_back({makeTensor(shape, layout), weight, bias, channel(3),
                           channel(3), training, 0.1, 1e-5, true});
        }
  return calls;
}

std::vector<Call> layerNormCalls() {
  std::vector<Call> calls;
  for (const Shape &shape : kShapes)
    for (Layout layout : kLayouts)
      for (const Shape &normalized :
           std::vector<Shape>{{3}, {4}, {5}, {1}, {4, 5}, {3, 4, 5}, {}})
        for (bool affine : {false, true}) {
          c10::IValue weight, bias;
          if (affine && !normalized.empty()) {
            weight = at::randn(normalized);
            bias = at::randn(normalized);
          }
          calls.push_back({makeTensor(shape, layout), c10::IValue(normalized),
                           weight, bias, 1e-5, true});
        }
  return calls;
}

std::vector<Call> poolCalls(bool max) {
  std::vector<Call> calls;
  using List = std::vector<int64_t>;
  for (const Shape &shape : std::vector<Shape>{
           {2, 3, 7, 6}, {3, 7, 6}, {1, 2, 3, 3}, {2, 3}, {1, 2, 1, 1}})
    for (Layout layout : {Layout::Contiguous, Layout::ChannelsLast})
      for (const List &kernel : std::vector<List>{{2}, {3, 2}, {3}, {0}})
        for (const List &stride : std::vector<List>{{}, {1}, {2, 3}})
          for (int64_t padding : {0, 1, 2})
            for (bool ceilMode : {false, true}) {
              if (max) {
                for (int64_t dilation : {1, 2})
                  calls.push_back({makeTensor(shape, layout), kernel, stride,
                                   List{padding}, List{dilation}, ceilMode});
              } else {
                calls.push_back({makeTensor(shape, layout), kernel, stride,
                                 List{padding}, ceilMode, true, c10::IValue()});
              }
            }
  return calls;
}

std::vector<Call> adaptiveAvgPoolCalls() {
  std::vector<Call> calls;
  for (const Shape &shape :
       std::vector<Shape>{{2, 3, 7, 6}, {3, 7, 6}, {1, 3, 1, 1}, {2, 3}})
    for (Layout layout : {Layout::Contiguous, Layout::ChannelsLast})
      for (const Shape &size :
           std::vector<Shape>{{1, 1}, {2, 3}, {7, 6}, {9, 9}, {1}})
        calls.push_back({makeTensor(shape, layout), c10::IValue(size)});
  return calls;
}

std::vector<Call> linearCalls() {
  std::vector<Call> calls;
  for (const Shape &input :
       std::vector<Shape>{{4}, {2, 4}, {3, 2, 4}, {2, 5}, {}})
    for (Layout layout : {Layout::Contiguous, Layout::Transposed})
      for (const Shape &weight : std::vector<Shape>{{3, 4}, {4}, {3, 5}})
        for (const Shape &bias : std::vector<Shape>{{-1}, {3}, {}, {2}}) {
          c10::IValue biasValue;
          if (bias != Shape{-1})
            biasValue = at::randn(bias);
          calls.push_back(
              {makeTensor(input, layout), at::randn(weight), biasValue});
        }
  return calls;
}

std::vector<Call> matmulCalls() {
  std::vector<Call> calls;
  const std::vector<Shape> shapes = {{3},       {4},          {2, 3},
                                     {3, 4},    {2, 2, 3},    {2, 3, 4},
                                     {1, 3, 4}, {5, 1, 2, 3}, {}};
  for (const Shape &lhs : shapes)
    for (const Shape &rhs : shapes)
      for (Layout layout : {Layout::Contiguous, Layout::Transposed})
        calls.push_back({makeTensor(lhs, layout), makeTensor(rhs, layout)});
  return calls;
}

std::vector<Call> bmmCalls() {
  std::vector<Call> calls;
  const std::vector<Shape> shapes = {
      {2, 3, 4}, {2, 4, 5}, {3, 4, 5}, {2, 3}, {1, 3, 4}};
  for (const Shape &lhs : shapes)
    for (const Shape &rhs : shapes)
      for (Layout layout : {Layout::Contiguous, Layout::Transposed})
        calls.push_back({makeTensor(lhs, layout), makeTensor(rhs, layout)});
  return calls;
}

std::vector<Call> softmaxCalls() {
  std::vector<Call> calls;
  for (const Shape &shape : kShapes)
    for (Layout layout : kLayouts)
      for (int64_t dim : {-5, -1, 0, 1, 3})
        for (c10::IValue dtype :
             {c10::IValue(), c10::IValue(int64_t(at::kDouble))})
          calls.push_back({makeTensor(shape, layout), dim, dtype});
  return calls;
}

std::vector<Call> meanCalls() {
  std::vector<Call> calls;
  for (const Shape &shape : kShapes)
    for (Layout layout :
         {Layout::Contiguous, Layout::ChannelsLast, Layout::Transposed})
      for (const Shape &dims : std::vector<Shape>{
               {}, {0}, {-1}, {1, 2}, {2, 3}, {0, 0}, {-1, 1}, {4}})
        for (bool keepdim : {false, true})
          for (c10::IValue dtype :
               {c10::IValue(), c10::IValue(int64_t(at::kDouble))})
            calls.push_back(
                {makeTensor(shape, layout), c10::IValue(dims), keepdim, dtype});
  calls.push_back({makeTensor({2, 3}, Layout::Contiguous, at::kLong),
                   c10::IValue(Shape{0}), false, c10::IValue()});
  return calls;
}

/// A recurrent layer on a packed sequence (aten::lstm.data and the others):
/// `gates` weights per cell (4 LSTM, 3 GRU, 1 RNN), `lstm` for a list of
/// two initial states. The data and batch sizes come from
/// at::_pack_padded_sequence, so that they agree; variant 1 gives the first
/// layer the wrong input size, variant 2 the states the wrong layer count,
/// both of which libtorch refuses.
std::vector<Call> packedRecurrentCalls(int64_t gates, bool lstm) {
  std::vector<Call> calls;
  for (int64_t batch : {1, 3})
    for (int64_t input : {2, 5})
      for (int64_t hidden : {3, 4})
        for (int64_t layers : {1, 2})
          for (bool bidirectional : {false, true})
            for (bool biases : {true, false})
              for (int64_t projection : {int64_t(0), int64_t(2)})
                for (int variant = 0; variant < 3; ++variant) {
                  if (projection && !lstm)
                    continue;
                  int64_t steps = 4, directions = bidirectional ? 2 : 1;
                  std::vector<int64_t> lengths;
                  for (int64_t b = 0; b < batch; ++b)
                    lengths.push_back(steps - b);
                  auto packed = at::_pack_padded_sequence(
                      at::randn({steps, batch, input}),
                      at::tensor(lengths, at::kLong), /*batch_first=*/false);
                  int64_t out = projection ? projection : hidden;
                  int64_t stateLayers =
                      layers * directions + (variant == 2 ? 1 : 0);
                  at::Tensor h0 = at::randn({stateLayers, batch, out});
                  c10::IValue states = h0;
                  if (lstm)
                    states = c10::List<at::Tensor>(
                        {h0, at::randn({stateLayers, batch, hidden})});
                  c10::List<at::Tensor> params;
                  for (int64_t layer = 0; layer < layers; ++layer)
                    for (int64_t d = 0; d < directions; ++d) {
                      int64_t in = layer == 0 ? input + (variant == 1 ? 1 : 0)
                                              : out * directions;
                      params.push_back(at::randn({gates * hidden, in}));
                      params.push_back(at::randn({gates * hidden, out}));
                      if (biases) {
                        params.push_back(at::randn({gates * hidden}));
                        params.push_back(at::randn({gates * hidden}));
                      }
                      if (projection)
                        params.push_back(at::randn({projection, hidden}));
                    }
                  calls.push_back({std::get<0>(packed), std::get<1>(packed),
                                   states, params, biases, layers, 0.0, false,
                                   bidirectional});
                }
  return calls;
}

std::vector<Call> multiHeadAttentionCalls() {
  std::vector<Call> calls;
  auto tensor = [](Shape shape) { return at::randn(shape); };
  for (int64_t batch : {1, 2, 3})
    for (int64_t length : {1, 3, 6})
      for (int64_t embed : {2, 4, 6, 12})
        for (int64_t heads : {1, 2, 3, 4, 5})
          for (bool needWeights : {true, false})
            for (bool average : {true, false})
              for (int variant = 0; variant < 9; ++variant) {
                Shape query = {batch, length, embed};
                Shape key = query;
                int64_t embedArg = embed;
                if (variant == 1) // key of another length
                  key = {batch, length + 1, embed};
                if (variant == 2) // unbatched query
                  query = key = {length, embed};
                if (variant == 3) // embed_dim disagrees with the query
                  embedArg = embed * 2;
                // Masks: key padding [B, L] (type 1), per head [B, H, L, L]
                // (type 2), and refused ones: [B, L, L], no type, type 0.
                c10::IValue mask, maskType;
                auto boolMask = [](Shape shape) {
                  return at::zeros(shape, at::kBool);
                };
                if (variant == 4 || variant == 7 || variant == 8)
                  mask = boolMask({batch, length});
                if (variant == 5)
                  mask = boolMask({batch, heads, length, length});
                if (variant == 6)
                  mask = boolMask({batch, length, length});
                if (variant == 4 || variant == 6)
                  maskType = int64_t(1);
                if (variant == 5)
                  maskType = int64_t(2);
                if (variant == 8)
                  maskType = int64_t(0);
                calls.push_back({tensor(query), tensor(key), tensor(key),
                                 embedArg, heads, tensor({3 * embed, embed}),
                                 tensor({3 * embed}), tensor({embed, embed}),
                                 tensor({embed}), mask, needWeights, average,
                                 maskType});
              }
  return calls;
}

} // namespace

const std::map<std::string, std::function<std::vector<Call>()>> &
mav::test::getCallGenerators() {
  using Generator = std::function<std::vector<Call>()>;
  auto unary = unaryWith({});
  auto inPlace = unary;
  // div's rounding modes: none (a true division), floor, trunc, and one
  // libtorch refuses.
  auto withEachRoundingMode = [](Generator generate) -> Generator {
    return [=] {
      std::vector<Call> calls;
      for (const Call &call : generate())
        for (c10::IValue mode :
             {c10::IValue(), c10::IValue(std::string("floor")),
              c10::IValue(std::string("trunc")),
              c10::IValue(std::string("round"))}) {
          calls.push_back(call);
          calls.back().push_back(mode);
        }
      return calls;
    };
  };
  Generator tensorAlpha = [] { return binaryTensorCalls(true); };
  Generator tensorPlain = [] { return binaryTensorCalls(false); };
  Generator scalarAlpha = [] { return binaryScalarCalls(true); };
  Generator scalarPlain = [] { return binaryScalarCalls(false); };
  static const std::map<std::string, Generator> generators = {
      {"aten::_convolution", convolutionCalls},
      {"aten::adaptive_avg_pool2d", adaptiveAvgPoolCalls},
      {"aten::batch_norm", batchNormCalls},
      {"aten::flatten.using_ints", flattenCalls},
      {"aten::linear", linearCalls},
      {"aten::max_pool2d", [] { return poolCalls(true); }},
      {"aten::avg_pool2d", [] { return poolCalls(false); }},
      {"aten::relu_", inPlace},
      {"aten::relu", unary},
      {"aten::relu6", unary},
      {"aten::add.Tensor", tensorAlpha},
      {"aten::add.Scalar", scalarAlpha},
      {"aten::add_.Tensor", tensorAlpha},
      {"aten::add_.Scalar", scalarAlpha},
      {"aten::sub.Tensor", tensorAlpha},
      {"aten::sub.Scalar", scalarAlpha},
      {"aten::mul.Tensor", tensorPlain},
      {"aten::mul.Scalar", scalarPlain},
      {"aten::mul_.Tensor", tensorPlain},
      {"aten::mul_.Scalar", scalarPlain},
      {"aten::div.Tensor", tensorPlain},
      {"aten::div.Scalar", scalarPlain},
      {"aten::div.Tensor_mode", withEachRoundingMode(tensorPlain)},
      {"aten::div.Scalar_mode", withEachRoundingMode(scalarPlain)},
      {"aten::floor_divide", tensorPlain},
      {"aten::floor_divide.Scalar", scalarPlain},
      {"aten::abs",
       [] {
         return unaryCalls(
             {std::begin(kBinaryDTypes), std::end(kBinaryDTypes)});
       }},
      {"aten::isnan",
       [] {
         return unaryCalls(
             {std::begin(kBinaryDTypes), std::end(kBinaryDTypes)});
       }},
      {"aten::gt.Tensor", tensorPlain},
      {"aten::gt.Scalar", scalarPlain},
      {"aten::lt.Tensor", tensorPlain},
      {"aten::lt.Scalar", scalarPlain},
      {"aten::ge.Tensor", tensorPlain},
      {"aten::ge.Scalar", scalarPlain},
      {"aten::le.Tensor", tensorPlain},
      {"aten::le.Scalar", scalarPlain},
      {"aten::eq.Tensor", tensorPlain},
      {"aten::eq.Scalar", scalarPlain},
      {"aten::ne.Tensor", tensorPlain},
      {"aten::ne.Scalar", scalarPlain},
      {"aten::hardtanh_", unaryWith({-1.0, 1.0})},
      {"aten::hardtanh", unaryWith({0.0, 6.0})},
      {"aten::dropout", dropoutCalls},
      {"aten::dropout_", dropoutCalls},
      {"aten::sigmoid", unary},
      {"aten::sigmoid_", inPlace},
      {"aten::tanh", unary},
      {"aten::silu_", inPlace},
      {"aten::silu", unary},
      {"aten::gelu", unaryWith({std::string("none")})},
      {"aten::hardswish_", inPlace},
      {"aten::hardswish", unary},
      {"aten::hardsigmoid", unary},
      {"aten::layer_norm", layerNormCalls},
      {"aten::permute", permuteCalls},
      {"aten::transpose.int", transposeCalls},
      {"aten::cat", catCalls},
      {"aten::contiguous", contiguousCalls},
      {"aten::view", viewCalls},
      {"aten::reshape", viewCalls},
      {"aten::unsqueeze", unsqueezeCalls},
      {"aten::softmax.int", softmaxCalls},
      {"aten::mean.dim", meanCalls},
      {"aten::matmul", matmulCalls},
      {"aten::bmm", bmmCalls},
      {"aten::select.int", selectCalls},
      {"aten::slice.Tensor", sliceCalls},
      {"aten::expand", expandCalls},
      {"aten::embedding", embeddingCalls},
      {"aten::segment_reduce", segmentReduceCalls},
      {"aten::_native_multi_head_attention", multiHeadAttentionCalls},
      {"aten::lstm.data", [] { return packedRecurrentCalls(4, true); }},
      {"aten::gru.data", [] { return packedRecurrentCalls(3, false); }},
      {"aten::rnn_tanh.data", [] { return packedRecurrentCalls(1, false); }},
      {"aten::rnn_relu.data", [] { return packedRecurrentCalls(1, false); }},
  };
  return generators;
}
