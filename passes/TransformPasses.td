//===- TransformPasses.td - mav's transform passes ---------*- tablegen -*-===//
//
// The transform passes: they change the graph and leave verified IR, and prove
// with mav-run --reference that it computes what it computed. Code in
// passes/transform, tests in test/Passes, reference in docs/Passes.md.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PASSES_TRANSFORMPASSES_TD
#define MAV_PASSES_TRANSFORMPASSES_TD

include "mlir/Pass/PassBase.td"

def Quantize : Pass<"mav-quantize", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "fixed-point precision for every node mav has hardware for";
  let description = [{
    Chooses a two's complement fixed-point format <width, frac> for every
    node whose operator has a hardware component (`linear`, `conv2d`,
    `relu`, `add`, `mul`, `max_pool2d`, `avg_pool2d`,
    `adaptive_avg_pool2d`, `mean`, `flatten`) and for each graph input, and
    records it in the metadata: every tensor entry of the node's
    `common.args` and `common.results` (data, weight and bias alike) and of
    the graph's `inputs` / `outputs` gets `type = "fixed"` and
    `precision = [width, frac]`. Weights keep their float values; they are
    rounded to the format where they are used (`mav-run`'s fixed-point
    model, `--export-verilog`'s ROMs), by the rules of docs/Hardware.md
    (round half to even, then saturate). From then on `mav-run` runs the
    graph as the bit-exact fixed-point model. Run `-mav-raise` first.

    The format of a node is, by precedence: its name in the config file's
    `by_name`, its `mase_op` in `by_type`, the file's `default`, the
    `width` / `frac` options. A graph input takes its placeholder name's
    entry in `by_name`, else the default. Where a producer's format differs
    from its consumer's, the value is converted (docs/Hardware.md, "cast").

    ```json
    {"default": {"width": 8, "frac": 4},
     "by_type": {"linear": {"width": 16, "frac": 8}},
     "by_name": {"fc2": {"width": 12, "frac": 6}}}
    ```

    Errors name the file and the key: unknown keys, formats outside
    2 <= width <= 24, 0 <= frac < width, a `by_name` entry naming no node
    or input, a `by_type` entry naming an operator without hardware.

    **Calibration.** With `calibrate=N` or `calibration-inputs=FILE` the
    pass runs the float graph forward (through the libtorch runtime) and
    chooses each node's fraction width from the range it saw, within the
    total width (the config's `default` width, else `width`), like hls4ml's
    profiling. The range r of a node is the largest |x| over every sample
    of its result, of its stream inputs (they are cast into its format)
    and, for linear and conv2d, of its weight and bias. Its integer bits
    (sign included) are the smallest I >= 1 with 2^(I-1) > r * (1 + 1/8);
    the margin of 1/8 keeps a value near the range from saturating after
    rounding and leaves room for inputs a little beyond the samples. Then
    frac = width - I; when I > width the node is saturating: frac = 0, and
    it is listed. The graph input's format comes from the inputs' range.
    `by_name` and `by_type` entries still win over calibration.

    ```sh
    mav-opt net.mlir -mav-raise -mav-fold-batchnorm \
      -mav-quantize='width=16 calibrate=32 calibration-seed=100'
    mav-opt net.mlir -mav-raise -mav-fold-batchnorm \
      -mav-quantize='width=16 calibration-inputs=samples.pt'
    ```

    `calibrate=N` draws N inputs as `mav-run --samples=N --seed=S` does:
    torch.manual_seed(S + i), then torch.randn per input, S being
    `calibration-seed`. `calibration-inputs` is a torch.save file: a
    tensor (one sample of a one-input graph), a list of samples (each a
    tensor or a list of tensors, one per input, of the input's shape), or
    a dict whose "inputs" is one sample (the layout of test/models'
    NAME.io.pt); libtorch 1.13 reads no one-element list or one-entry dict,
    so write tuples there. Errors
    name the option or the file: `calibrate` below 1, `calibrate` with
    `calibration-inputs`, `frac` or `calibration-seed` without
    calibration, an unreadable file or one whose samples do not fit.

    **No silent float.** A node that no component computes, or whose
    component does not fit it (a batch norm that was not folded, a softmax,
    a dilated convolution), is an error naming the node, its operator and
    the reason: a graph that claims to be fixed point computes every node
    in fixed point. With `allow-float=true` such nodes stay float instead
    and are listed in `unquantized_nodes`; `mav-run` and the exporter then
    refuse the graph, naming them. That is for looking at a partial design,
    not for running one.

    Pass outputs: `quantized` (node count), `formats` (nodes per
    "<width,frac>"), `unquantized_nodes` (nodes left in float, by name);
    with calibration also `calibration`: `samples` (how many ran),
    `calibrated` and `saturating` (counts), `saturating_nodes` (names),
    `nodes` (node or input name -> `{frac, range}`, for every node whose
    frac calibration chose).
  }];
  let options = [
    Option<"width", "width", "int64_t", /*default=*/"8",
           "default word width in bits, 2..24; with calibration, the total "
           "width the chosen formats share">,
    Option<"frac", "frac", "int64_t", /*default=*/"4",
           "default fraction bits, 0 <= frac < width; not with calibration">,
    Option<"configFile", "config", "std::string", /*default=*/"\"\"",
           "JSON file with per-type and per-name formats">,
    Option<"calibrate", "calibrate", "int64_t", /*default=*/"0",
           "choose each node's frac from its range over this many seeded "
           "random inputs (at least 1; 0, the default: no calibration)">,
    Option<"calibrationSeed", "calibration-seed", "uint64_t",
           /*default=*/"0",
           "seed of the first calibration input (seed + i for the i-th)">,
    Option<"calibrationInputs", "calibration-inputs", "std::string",
           /*default=*/"\"\"",
           "torch.save file of calibration inputs, instead of random ones">,
    Option<"allowFloat", "allow-float", "bool", /*default=*/"false",
           "leave nodes without a fitting component in float (listed in "
           "unquantized_nodes) instead of failing">,
  ];
  let statistics = [
    Statistic<"numQuantized", "quantized", "nodes given a fixed-point format">,
    Statistic<"numCalibrated", "calibrated",
              "nodes whose frac calibration chose">,
    Statistic<"numSaturating", "saturating",
              "calibrated nodes whose range needs more than the width">,
  ];
}

def LowerNestedTensors : Pass<"mav-lower-nested-tensors", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "lower TransformerEncoder's nested-tensor fast path to padded "
                "tensors";
  let description = [{
    `nn.TransformerEncoder` in eval mode, without gradients, given a
    `src_key_padding_mask`, runs its layers on a nested tensor: the trace
    holds `aten::_nested_tensor_from_mask(src, valid)`, one
    `aten::_transformer_encoder_layer_fwd` per layer (a call_function, or
    inside a TransformerEncoderLayer call_module's body, which then gets
    an argument for the mask), and
    `aten::to_padded_tensor(out, padding)`. Nested tensors have no strides,
    so nothing shape-aware can run on them. This pass computes the same on
    the padded tensor. The nested tensor holds the first `length` tokens of
    each sequence, `length` being its number of valid positions (wherever
    they are): each layer takes `src` itself with the positions after
    `length` as its key padding mask (`mask_type = 1`), so a token attends
    to the same tokens as in the nested form; those positions are then
    filled with `padding`, and the result is cut to the longest length, as
    `to_padded_tensor` does (a dimension that depends on the mask: dynamic
    after `-mav-raise`).
    The valid positions are computed by the same kernels; `mav-run
    --reference` checks the lowered graph against the module.

    `-mav-raise` runs it first. A nested tensor used any other way is an
    error naming the node that uses it.

    Pass outputs, when it lowered something (so that `-mav-raise`'s report
    is unchanged on other models): `lowered` (how many nested tensors),
    `nodes` (the
    `_nested_tensor_from_mask` nodes lowered), `inserted` (the nodes it
    made).
  }];
  let statistics = [Statistic<"numLowered", "lowered",
                              "nested tensors lowered">];
}

def RemoveDropout : Pass<"mav-remove-dropout", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "remove dropout nodes, module and functional";
  let description = [{
    The MASE tutorial's transform pass: every use of a dropout node (found
    as `mav-count-dropout` finds them) becomes a use of its input and the
    node is erased; module bodies no call refers to any more are erased. The
    result verifies, and computes what the graph computed in eval mode
    (`mav-run --reference`). Running it twice changes nothing the second
    time.

    Pass outputs: `removed` (how many), `nodes` (their names).
  }];
  let statistics = [Statistic<"numRemoved", "removed", "dropouts removed">];
}

def SplitChunks : Pass<"mav-split-chunks", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "replace unpacked chunks and splits by slices";
  let description = [{
    `aten::chunk` and `aten::split` return a list that the trace unpacks
    (`prim::ListUnpack`); nn.MultiheadAttention's decomposed path splits its
    packed q, k, v projection so. Each unpacked piece becomes the
    `aten::slice.Tensor` it is (`chunk`'s pieces are ceil(size / chunks)
    long, the last shorter, as PyTorch's), and the chunk and its unpacks are
    erased, so that the hardware flow sees one stream per piece. A chunk
    whose list has another use is left alone.

    Needs a raised graph (the static size of the split dimension); run
    `-mav-raise` again afterwards for the new slices' metadata. A chunk
    whose sizes are not constants is an error naming the node.

    Pass outputs: `split` (chunks replaced), `inserted` (slices), `nodes`
    (the chunks' names).
  }];
}

def InsertLearnableNodes
    : Pass<"mav-insert-learnable-nodes", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "insert learnable nodes where learnable-only paths fan out";
  let description = [{
    After each learn-split node (see `mav-classify-entry-exit`) inserts a
    `mav.learnable` node that passes the value through, carries the count
    and names of the trainable parameters behind it, and takes every other
    use of the value. The graph computes exactly what it computed before;
    a second run inserts nothing. The inserted node has metadata when the
    graph had it.

    Pass outputs: `inserted`, `nodes` (their names).
  }];
  let statistics = [Statistic<"numInserted", "inserted",
                              "learnable nodes inserted">];
}

def InlineModules : Pass<"mav-inline-modules", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "replace calls of the given module classes by their bodies";
  let description = [{
    A leaf module call (`mav.call_module`) runs its body, a private graph
    of aten calls. This pass puts the body's nodes in place of every call of
    the listed classes in the public graphs, renamed where a name is taken
    and keeping their scopes, and erases the bodies that no call uses any
    more. After `-mav-lower-fused-attention`, a MultiheadAttention or
    TransformerEncoderLayer call becomes its linear, matmul, softmax and
    layer_norm nodes, which `-mav-raise` then types and annotates one by
    one. The graph computes what it computed before
    (`mav-run --reference`).

    ```sh
    mav-opt vit.mlir -mav-lower-fused-attention \
        -mav-inline-modules=classes=MultiheadAttention,TransformerEncoderLayer \
        -mav-raise
    ```

    Refused, naming the node: a call with keyword arguments, or whose
    argument count differs from its body's, and a body that returns an
    argument the call passes as a constant.

    Pass outputs: `inlined` (calls replaced), `inserted` (nodes created),
    `nodes` (the calls' names).
  }];
  let options = [
    ListOption<"classes", "classes", "std::string",
               "module classes to inline, qualified or bare "
               "(torch.nn.modules.activation.MultiheadAttention or "
               "MultiheadAttention)">,
  ];
  let statistics = [Statistic<"numInlined", "inlined", "calls inlined">];
}

def LowerFusedAttention
    : Pass<"mav-lower-fused-attention", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "rewrite fused attention kernels into their decomposed "
                "operators";
  let description = [{
    In eval mode without gradients, PyTorch 1.13 runs
    `nn.MultiheadAttention` and `nn.TransformerEncoderLayer` (batch first)
    as fused kernels, which a trace records as one node each:
    `aten::_native_multi_head_attention` and
    `aten::_transformer_encoder_layer_fwd`. This pass rewrites each, in
    every graph and module body, into the operators of the decomposed form,
    as PyTorch's CPU kernels compute it:
    - attention: the packed in-projection (`linear`), q, k and v sliced
      from it and split into heads (`slice`, `unflatten`, `transpose`), q
      divided by sqrt(head dim), `matmul` with k transposed, `softmax` over
      the keys, `matmul` with v, the heads merged (`transpose`, `flatten`)
      and the out-projection (`linear`);
    - the encoder layer: attention and the feed-forward block (`linear`,
      `relu` or `gelu`, `linear`), each with its residual `add` and
      `layer_norm`, before (`norm_first`) or after.

    Run it before `-mav-raise`, which types the new nodes. The graph
    computes what it computed before (`mav-run --reference`).

    Refused, naming the node: an attention or encoder layer with a mask,
    attention whose query, key and value differ, and attention whose weights
    are used.

    Pass outputs: `lowered` (fused nodes rewritten), `inserted` (nodes
    created), `nodes` (the fused nodes' names).
  }];
  let statistics = [
    Statistic<"numLowered", "lowered", "fused attention nodes rewritten">,
  ];
}

def FoldShapeArithmetic
    : Pass<"mav-fold-shape-arithmetic", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "pass sizes computed from static shapes as constants";
  let description = [{
    A traced model computes sizes at run time: `aten::size` of a tensor,
    `prim::NumToTensor`, arithmetic on the result, `aten::Int`, and the ints
    handed to `view`, `reshape`, `expand` or `flatten`. With static shapes
    each of these numbers is known, and `-mav-raise` recorded it in the
    node's `common.results`. This pass passes each such number to its users
    as a constant, in every graph and module body, and erases the nodes
    that nothing uses any more. The hardware flow runs it after
    `-mav-raise`, so that no shape arithmetic reaches the hardware passes.

    Only values computed from static sizes alone are folded: the `size` of
    a tensor whose type gives its shape, and then any node with scalar
    results (numbers, or tensors of one element) whose every operand is
    such a value or a weight (a traced constant, as in
    `x.size(2) // 8`), one at least a size. A number read from tensor data
    is never folded. A shape value used as a tensor by a data node (a size added to
    a tensor) stays, with the nodes it needs. The graph computes what it
    computed before (`mav-run --reference`), and a second run changes
    nothing.

    Pass outputs: `folded` (uses replaced by constants), `erased` (nodes
    erased), `nodes` (their names).
  }];
  let statistics = [
    Statistic<"numFolded", "folded", "uses replaced by constants">,
    Statistic<"numErased", "erased", "shape arithmetic nodes erased">,
  ];
}

def FoldBatchNorm : Pass<"mav-fold-batchnorm", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "fold eval-mode batch norm into the conv or linear before it";
  let description = [{
    The first step of the hardware flow (docs/Hardware.md). A BatchNorm1d or
    BatchNorm2d module call in eval mode whose input is the result of a
    Conv1d, Conv2d (any groups) or Linear module call, and that result's only
    use, is folded into the layer: per output channel c, with
    s = gamma[c] / sqrt(running_var[c] + eps),

        W'[c] = W[c] * s        b'[c] = (b[c] - running_mean[c]) * s + beta[c]

    computed in double and rounded to f32 (b = 0 for a layer without bias,
    which then gets a new parameter `<layer>.bias`; gamma = 1, beta = 0 for
    `affine=False`). The batch norm node is erased and its users take the
    layer's result; its module body and weights go too. Other weights keep
    their data bit for bit. Works after `-mav-raise` (the layer's `common`
    metadata gets its bias argument) and on un-raised graphs.

    Not folded, and counted as skipped (the reason is in `skipped_nodes`): a
    batch norm whose input has other users, follows anything else (a
    transposed conv, a functional op), whose layer weights are shared or
    tied, or that has no running statistics. A batch norm in training mode
    is skipped with a warning naming the node. A weight whose element type is
    not f32, or whose data is elided, is an error naming the node.

    Pass outputs: `folded`, `skipped` (counts), `nodes` (the folded batch
    norms), `skipped_nodes` (node name -> reason).

    ```sh
    mav-opt net.mlir -mav-raise -mav-fold-batchnorm -o net.folded.mlir
    ```
  }];
  let statistics = [
    Statistic<"numFolded", "folded", "batch norms folded">,
    Statistic<"numSkipped", "skipped", "batch norms not folded">,
  ];
}

def FoldParallelism : Pass<"mav-fold-parallelism", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "choose each node's stream widths for a cycle or multiplier "
                "target";
  let description = [{
    Chooses the parallelism of every node that has a component, like FINN's
    SetFolding, and rewrites its stream widths in its hardware metadata:
    the `DATA_IN_k_PARALLELISM_DIM_d` of its stream inputs and
    `DATA_OUT_0_PARALLELISM_DIM_d`, the width on the dimension the component
    streams in parallel (an image's channels, else the innermost) and 1 on
    the others, as `-mav-add-hardware-metadata` writes them. The lowering
    reads them back and `--export-verilog` builds the instances and the
    width converters between them; nothing else changes. Run it after
    `-mav-add-hardware-metadata` (a node without hardware metadata is an
    error naming it).

    The model (mav/Hardware/Folding.h): a node's folding is a legal
    assignment of its widths (its component's `legalWidths`, e.g. divisors
    of a conv's channels per group); it takes `itemCycles x items` cycles
    per frame (the component's exact no-stall count per image, or per vector
    for linear, times the items of one graph input) and has the instance's
    `multipliers` (P_in x P_out for linear and conv2d, none for relu and
    the max pool). The pass chooses by the slowest node's cycles: the
    components are not pipelined inside, but they run concurrently and the
    exporter decouples them with FIFOs, so the bottleneck sets the rate. It
    then models the design as exported (`--report-performance`, exact
    against simulation) and reports its cycles per frame and latency; with
    target-cycles, a design the model finds slower than the target (a
    buffered node loading at a narrower producer's rate) gets a warning.
    Foldings are ordered cheapest first: fewest multipliers,
    then the smallest sum of widths, then the widths in order.

    - `target-cycles=N`: every node takes its cheapest folding with at most
      N cycles per frame. A node that cannot reach N takes its fastest
      folding (the cheapest of those) and is reported with a warning naming
      it, and listed in `unreached`. Nodes without multipliers (relu, the
      pools, ...) are widened as much as they need too.
    - `multipliers=M`: the lowest bottleneck within a budget of M
      multipliers for the whole design. The pass finds the smallest target
      N among the nodes' folding cycles (bisection: the multipliers of the
      target-cycles folding only fall as N rises) whose target-cycles
      folding has at most M multipliers, and applies it; this is optimal
      for the slowest-node model. A budget below the cheapest folding's
      (every node at its fewest multipliers) is an error.

    Exactly one of the two is given, and it is at least 1; anything else is
    an error.

    ```sh
    mav-opt net.mlir -mav-raise -mav-fold-batchnorm -mav-quantize='width=8 frac=4' \
      -mav-add-hardware-metadata -mav-fold-parallelism='target-cycles=2000' -o net.hw.mlir
    ```

    Pass outputs: `target_cycles` (N, or the target the budget gave),
    `multiplier_budget` (M; only with `multipliers`), `nodes` (node name ->
    `{in = [widths of the stream inputs], out = width, cycles = cycles per
    frame, multipliers = count}`), `bottleneck` (the slowest node's name;
    the first in graph order on a tie), `bottleneck_cycles` (its cycles per
    frame: the design's, to first order), `multipliers` (their total),
    `unreached` (names of the nodes whose fastest folding is slower than
    the target), and, when the graph lowers as a whole,
    `design_cycles_per_frame` and `design_latency` (the performance model
    of the exported design, in cycles).
  }];
  let options = [
    Option<"targetCycles", "target-cycles", "int64_t", /*default=*/"0",
           "cycles per frame every node should take at most (at least 1); "
           "not with multipliers">,
    Option<"multiplierBudget", "multipliers", "int64_t", /*default=*/"0",
           "multipliers the whole design may have (at least 1): the lowest "
           "bottleneck within them; not with target-cycles">,
  ];
  let statistics = [
    Statistic<"numFolded", "folded", "nodes whose widths were chosen">,
    Statistic<"numUnreached", "unreached",
              "nodes slower than the target at their fastest">,
    Statistic<"numMultipliers", "multipliers",
              "multipliers of the chosen folding">,
  ];
}

#endif // MAV_PASSES_TRANSFORMPASSES_TD
