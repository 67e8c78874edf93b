//===- AnalysisPasses.td - mav's analysis passes -----------*- tablegen -*-===//
//
// The analysis passes: they annotate the graph and record pass outputs, and
// never change its topology. Code in passes/analysis, tests in test/Passes,
// reference in docs/Passes.md. The passes are split by area (AnalysisPasses.td,
// TransformPasses.td, ExportPasses.td) so that adding one rebuilds only its
// area.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PASSES_ANALYSISPASSES_TD
#define MAV_PASSES_ANALYSISPASSES_TD

include "mlir/Pass/PassBase.td"

def InitMetadata : Pass<"mav-init-metadata", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "give every node empty common, hardware and software metadata";
  let description = [{
    MASE's `init_metadata_analysis_pass`. Every node of every public graph
    is left with empty `common`, `hardware` and `software` metadata,
    replacing what it had; every public graph gets graph-level `inputs` and
    `outputs` metadata naming its placeholders and results. Private graphs
    (leaf module bodies) are left alone.

    An empty section is not stored: a node without a `common` attribute has
    empty common metadata, as `#mav.common<>` would say, and the JSON export
    writes it as `{}`. So the pass writes nothing on a node that has no
    metadata yet, and removes the sections of one that has.

    ```mlir
    %relu = mav.call_function "aten::relu" (%x) : ...
    ```
  }];
  let statistics = [Statistic<"numNodes", "nodes", "nodes initialised">];
}

def AddCommonMetadata : Pass<"mav-add-common-metadata", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "operator inference and shape propagation";
  let description = [{
    MASE's `add_common_metadata_analysis_pass`, done through the op registry
    and the interpreter:

    - *operator inference*: `mase_op` and `mase_type` of every node from its
      module class, aten target or Tensor method, never from its name;
    - *shape propagation*: the graph runs on dummy inputs (on the meta device
      by default, with no arithmetic), and every node's `args` and `results`
      get `#mav.value` metadata (shape, torch_dtype, type, precision, stride,
      and value for constants or, with `add-value` on cpu, tensors). Tensor
      results are refined from `!mav.tensor` to ranked tensor types, and the
      graph gets `inputs` / `outputs` metadata.

    On the meta device, shapes come from mav's own shape rules when every
    node of the graph has one (`shape-engine=auto`, the default): raising
    then loads no libtorch. A graph with a node that has no rule runs on
    libtorch's meta device instead, with a remark naming the node.
    `shape-engine=native` makes that node an error; `shape-engine=torch`
    always runs libtorch. Both engines record the same metadata (a
    differential test checks it on the test models).

    The dummy inputs are the graph's argument types unless `dummy-input`
    gives them (`1x3x224x224xf32`, comma separated, in order). An operator
    the registry does not know is an error naming the node and its target;
    with `allow-unknown` it is marked `mase_op = "unknown"` with a warning.
  }];
  let options = [
    Option<"device", "device", "std::string", /*default=*/"\"meta\"",
           "where to run: meta (shapes only) or cpu (values)">,
    Option<"addValue", "add-value", "bool", /*default=*/"false",
           "record tensor values (cpu only)">,
    ListOption<"dummyInput", "dummy-input", "std::string",
               "input types, e.g. 1x3x224x224xf32; default: the graph's">,
    Option<"allowUnknown", "allow-unknown", "bool", /*default=*/"false",
           "mark unknown operators instead of failing">,
    Option<"shapeEngine", "shape-engine", "std::string",
           /*default=*/"\"auto\"",
           "on meta: auto (mav's rules, else libtorch), native or torch">,
  ];
  let statistics = [
    Statistic<"numNodes", "nodes", "nodes annotated">,
    Statistic<"numNative", "native-graphs",
              "graphs whose shapes came from mav's rules">,
    Statistic<"numUnknown", "unknown", "nodes with an unknown operator">,
  ];
}

def AddHardwareMetadata
    : Pass<"mav-add-hardware-metadata", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "MASE hardware metadata: component, parameters, parallelism";
  let description = [{
    Fills the `hardware` section of every node of a raised graph (run
    `-mav-raise` first; a node without common metadata is an error naming
    it). The component is the first hardware component entry listing the
    node's `mase_op` that the node fits (mav/Hardware/Component.h):

    - `toolchain`: `INTERNAL_RTL` when mav has a component, else
      `UNSUPPORTED`; `module` and `dependence_files` (relative to
      lib/Export/Verilog/rtl) are the component's; `is_implicit` is true for
      `implicit_func` and `get_attr` nodes without a component;
      `device_id = -1`; `max_parallelism` the option's value;
    - `interface`: `{storage = "BRAM", transpose = false}` for each tensor
      argument that is not a `data_in_*`;
    - `verilog_param`, MASE's names, for each tensor argument and result
      (ARG is its common name upper-cased: `DATA_IN_0`, `WEIGHT`,
      `DATA_OUT_0`): `ARG_PRECISION_0` (width), `ARG_PRECISION_1` (frac; only
      for fixed point, whose precision is `[width, frac]`),
      `ARG_TENSOR_SIZE_DIM_d` and
      `ARG_PARALLELISM_DIM_d = min(max_parallelism[-1-d], shape[-1-d])`,
      d = 0 the innermost dimension; dimensions beyond the list get 1. For
      the streams of a node with a component (`DATA_IN_k`, `DATA_OUT_0`)
      that is a budget: the component takes the largest width it can
      stream at within the product, on the one dimension it streams in
      parallel (an image's channels, else the innermost), 1 on the others;
      the exported instance uses exactly these widths.

    ```
    mav-opt net.mlir -mav-raise -mav-add-hardware-metadata='max-parallelism=4,4'
    ```

    A node whose operator has a component but which does not fit it (a
    grouped or dilated conv, a pool with padding, an add with alpha, ...:
    the same checks as `--export-verilog`) is `UNSUPPORTED` too, and its
    reason is listed.

    Pass outputs: `supported`, `unsupported` (node counts),
    `unsupported_ops` (counts by mase_op) and `unfit_nodes` (node name ->
    why it does not fit its operator's component).
  }];
  let options = [
    ListOption<"maxParallelism", "max-parallelism", "int64_t",
               "most words per beat in each dimension, outermost first "
               "(MASE's max_parallelism), e.g. 4,4; each at least 1; "
               "default: none, every dimension 1">,
  ];
  let statistics = [
    Statistic<"numSupported", "supported", "nodes with a component">,
    Statistic<"numUnsupported", "unsupported", "nodes without a component">,
  ];
}

def AnalyseScale : Pass<"mav-analyse-scale", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "scale (std) of every tensor, forward and backward";
  let description = [{
    The unit-scaling seed's `analyse_module`: runs the public graph
    `forward` on cpu on seeded inputs, then backward from a seeded output
    gradient (libtorch autograd), and records per node, in `software`
    metadata and as pass outputs keyed by node name: the first float
    result's `fwd_std`, `fwd_mean`, `fwd_abs_max`, `fwd_zero_fraction`, and
    `bwd_std`, the std of the gradient w.r.t. that result; per parameter
    (state_dict name) `grad_std`. std is torch.std (unbiased). Inputs are
    drawn as `torch.manual_seed(seed)` then `torch.randn(shape)` (or
    `torch.rand`) per argument in order, times `scale`; the output gradient
    follows from the same generator after the forward pass
    (docs/Analyses.md).

    `listing` prints the annotated graph, grouped by module scope, each
    node with `(-> fwd_std, <- bwd_std)`; a std above `threshold` or below
    1/threshold is flagged, and the flagged nodes are the pass output
    `flagged`. Needs `-mav-raise` first only for the types of the inputs.
  }];
  let options = [
    Option<"seed", "seed", "uint64_t", /*default=*/"0", "the torch seed">,
    Option<"distribution", "distribution", "std::string",
           /*default=*/"\"normal\"", "normal (torch.randn) or uniform "
           "(torch.rand)">,
    Option<"scale", "scale", "double", /*default=*/"1.0",
           "inputs and output gradient are multiplied by it">,
    Option<"backward", "backward", "bool", /*default=*/"true",
           "also run backward">,
    Option<"threshold", "threshold", "double", /*default=*/"10.0",
           "flag a std above it or below its inverse">,
    Option<"listing", "listing", "std::string", /*default=*/"\"\"",
           "write the annotated listing to this file, - for stdout">,
  ];
}

def ParamExecOrder : Pass<"mav-param-exec-order", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "module and parameter execution order (FSDP's tracer)";
  let description = [{
    Runs the public graph `forward` on cpu on seeded inputs (drawn as
    `-mav-analyse-scale` draws them) and, with `backward`, backward from a
    seeded output gradient, and records: the order in which `call_module`
    nodes begin, the order in which each parameter is first used in
    forward (a module's parameters in state_dict order when it is called,
    a top-level `get_attr` when its first user runs), and the order in which
    parameter gradients become ready (tensor hooks). Tied parameters count
    once, by the name they are tied to.

    Pass outputs: `module_order` (module paths), `param_forward_order`,
    `param_backward_order` (state_dict names), `shared_params` (parameter ->
    the modules using it, when more than one), `unused_params` (never used in
    forward), `input_dependent` (true when a second seed, `second-seed`,
    gives another order). Call nodes get `exec_rank` and
    `param_forward_ranks` in `software` metadata. `plan` writes a JSON for a
    sharding planner: per module in order, its path, its parameters with
    sizes and ranks (docs/Analyses.md).
  }];
  let options = [
    Option<"seed", "seed", "uint64_t", /*default=*/"0", "the torch seed">,
    Option<"secondSeed", "second-seed", "int64_t", /*default=*/"-1",
           "run again with this seed and report whether the order changed; "
           "-1: once">,
    Option<"backward", "backward", "bool", /*default=*/"true",
           "also record the gradient order">,
    Option<"plan", "plan", "std::string", /*default=*/"\"\"",
           "write the planner JSON to this file">,
  ];
}

def CountDropout : Pass<"mav-count-dropout", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "count dropout nodes by operator";
  let description = [{
    The MASE tutorial's analysis pass, by operator, not by name: a node is a
    dropout when its `mase_op` (from `common` metadata, else from the op
    registry) is `dropout`. Counts module dropouts (Dropout, Dropout1d/2d/3d,
    AlphaDropout, FeatureAlphaDropout) by class and functional dropout
    (`aten::dropout`, `feature_dropout`, `alpha_dropout`, ...) by operator,
    including functional dropout inside other leaf modules (once per call).

    Pass outputs: `dropout_count`, `module_count`, `functional_count`,
    `modules` (class -> count), `functional` (operator -> count), `nodes`
    (node names; a node inside a module body is `call/node`). Each node found
    is logged under `-debug-only=mav-count-dropout` (debug builds of LLVM).
  }];
  let statistics = [
    Statistic<"numModules", "modules", "dropout modules">,
    Statistic<"numFunctional", "functional", "functional dropouts">,
  ];
}

def ClassifyEntryExit : Pass<"mav-classify-entry-exit", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "entry and exit type of every node";
  let description = [{
    The idlmav notebook's classification, as software metadata (`entry`,
    `exit`) on every node of the public graphs. A node's sources are the
    graph inputs, trainable parameters (unfrozen parameter weights) and
    buffers (buffers and frozen parameters) its values depend on; tensor
    constants of the trace are none of these. Entry type: `normal` (depends on
    an input), `learnable` (on trainable parameters, not on inputs; buffers
    may join), `learn-split` (a learnable node whose value fans out, the
    first such on its learnable-only path), `buffer` (buffers only),
    `special` (none: constants, arange, ...). Exit type: `normal` when a
    graph output depends on the node, else `special`.

    Pass outputs: `entry` and `exit`, counts by type.
  }];
}

def CountParams : Pass<"mav-count-params", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "trainable parameters per node";
  let description = [{
    Counts every trainable parameter once, at one node, into the node's
    software metadata (`params`): a `call_module` owns its module's
    parameters (its submodules' included); a parameter read by `get_attr` is
    propagated down its learnable-only path to the first node that is not
    learnable, or to the node where the path fans out. Tied weights (one
    tensor under two names) and parameters shared by several modules count
    once, at the first node that uses them. The total equals PyTorch's
    `sum(p.numel() for p in model.parameters() if p.requires_grad)`.

    Pass outputs: `total`, `top` (the nodes with most parameters, `top`
    option many), `unused` (trainable parameters no node uses; counted in the
    total).
  }];
  let options = [Option<"topCount", "top", "unsigned", /*default=*/"10",
                        "how many nodes to list in the top output">];
}

def CountFlops : Pass<"mav-count-flops", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "FLOPs and MACs per node, per scope and in total";
  let description = [{
    Applies each node's cost formula from the op registry to its static
    shapes and constants (a graph after `-mav-raise`): software metadata
    `flops` and `macs` on every node that computes. A multiply-accumulate
    of a contraction (convolution, linear, matrix products, attention,
    recurrent layers, bilinear, einsum) is one MAC and two FLOPs; every
    other operation one FLOP per element (softmax and normalisations five,
    pooling one per window element); biases are not counted, as
    torch.profiler does not count them. docs/Visualization.md lists every
    formula. A leaf module that neither its aten call nor its class's
    formula counts (a traced nn.MultiheadAttention) is the sum of its
    body's calls, whose shapes are propagated again for the call.

    Pass outputs: `total_flops`, `total_macs`, `by_scope` (a list of
    `{scope, flops, macs}` for the module scopes down to `scope-depth`, in
    tree order), `uncounted` (nodes that compute but have no static shape or
    no formula; their cost is in no total).
  }];
  let options = [Option<"scopeDepth", "scope-depth", "unsigned",
                        /*default=*/"2",
                        "deepest scopes listed in by_scope (0: all)">];
}

#endif // MAV_PASSES_ANALYSISPASSES_TD
