//===- ShapeRulesRecurrent.cpp - Recurrent layers on packed sequences -----===//
//
// aten::lstm.data, gru.data, rnn_tanh.data and rnn_relu.data, which
// nn.LSTM, nn.GRU and nn.RNN call on a PackedSequence: libtorch 1.13 has no
// meta kernel for them, and running them on filled tensors cannot work,
// since the batch sizes must agree with the data. The results follow
// RNN.cpp's _rnn_impl: the output's rows are the packed data's, its width
// the hidden state's times the directions; the final states have the
// initial states' shapes.
//
//===----------------------------------------------------------------------===//

#include "ShapeRules.h"
#include "TensorLayout.h"

using namespace mav;
using namespace mav::shape_rules;
using llvm::SmallVector;

/// `gates` stacked weights a cell has: 4 for an LSTM, 3 for a GRU, 1 for
/// an Elman RNN. `states` are the initial states (h0, and c0 for an LSTM).
static Results packedRecurrent(const CallArguments &call, int64_t gates,
                               llvm::ArrayRef<TensorRef> states) {
  std::optional<TensorRef> data = call.getTensor(0, "data");
  std::optional<TensorRef> batchSizes = call.getTensor(1, "batch_sizes");
  std::optional<SmallVector<TensorRef>> params =
      call.getTensorList(3, "params");
  std::optional<bool> hasBiases = getFlag(call, 4, "has_biases", true);
  std::optional<int64_t> layers = getInt(call, 5, "num_layers");
  std::optional<bool> bidirectional = getFlag(call, 8, "bidirectional", false);
  if (!data || !layout::isFloatingDType(data->dtype) ||
      data->sizes.size() != 2 || !batchSizes || batchSizes->sizes.size() != 1 ||
      batchSizes->dtype != ScalarType::int64 || !params || !hasBiases ||
      !layers || *layers < 1 || !bidirectional || states.empty())
    return std::nullopt;
  int64_t directions = *bidirectional ? 2 : 1;
  const TensorRef &hidden = states.front(), &cell = states.back();
  for (const TensorRef &state : states)
    if (state.sizes.size() != 3 || state.dtype != data->dtype ||
        state.sizes[0] != *layers * directions ||
        state.sizes[1] != hidden.sizes[1])
      return std::nullopt;
  // Per layer and direction: w_ih, w_hh, (b_ih, b_hh), (w_hr: projections,
  // an LSTM's hidden state narrower than its cell).
  bool projected = hidden.sizes[2] != cell.sizes[2];
  size_t perCell = 2 + (*hasBiases ? 2 : 0) + (projected ? 1 : 0);
  if (params->size() != perCell * *layers * directions)
    return std::nullopt;
  const TensorRef &inputWeight = params->front();
  if (inputWeight.sizes.size() != 2 || inputWeight.dtype != data->dtype ||
      inputWeight.sizes[0] != gates * cell.sizes[2] ||
      inputWeight.sizes[1] != data->sizes[1])
    return std::nullopt;
  SmallVector<ResultShape> results;
  SmallVector<int64_t> output = {data->sizes[0], hidden.sizes[2] * directions};
  results.push_back(TensorShape{output, layout::contiguousStrides(output)});
  for (const TensorRef &state : states) {
    SmallVector<int64_t> sizes(state.sizes.begin(), state.sizes.end());
    results.push_back(TensorShape{sizes, layout::contiguousStrides(sizes)});
  }
  return results;
}

Results shape_rules::packedLstm(const CallArguments &call) {
  std::optional<SmallVector<TensorRef>> states = call.getTensorList(2, "hx");
  if (!states || states->size() != 2)
    return std::nullopt;
  return packedRecurrent(call, 4, *states);
}

Results shape_rules::packedGru(const CallArguments &call) {
  std::optional<TensorRef> state = call.getTensor(2, "hx");
  if (!state)
    return std::nullopt;
  return packedRecurrent(call, 3, {*state});
}

Results shape_rules::packedElmanRnn(const CallArguments &call) {
  std::optional<TensorRef> state = call.getTensor(2, "hx");
  if (!state)
    return std::nullopt;
  return packedRecurrent(call, 1, {*state});
}
