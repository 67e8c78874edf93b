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
  ];
  let statistics = [
    Statistic<"numQuantized", "quantized", "nodes given a fixed-point format">,
    Statistic<"numCalibrated", "calibrated",
              "nodes whose frac calibration chose">,
    Statistic<"numSaturating", "saturating",
              "calibrated nodes whose range needs more than the width">,
  ];
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

#endif // MAV_PASSES_TRANSFORMPASSES_TD
