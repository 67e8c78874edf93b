// RUN: mav-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of the dialect, one case each.

mav.graph @bad_name(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node '0' (mav.call_function): name '0' is not a Python identifier}}
  %0 = mav.call_function "aten::relu" (%x) : (!mav.tensor) -> !mav.tensor
  mav.output %0 : !mav.tensor
}

// -----

mav.graph @duplicate_name(%x: !mav.tensor) -> !mav.tensor {
  %relu = mav.call_function "aten::relu" (%x) : (!mav.tensor) -> !mav.tensor
  // expected-error @+1 {{node name 'relu' is already used in graph 'duplicate_name'}}
  %1 = "mav.call_function"(%relu) {name = "relu", target = "aten::relu", args = [#mav.operand<0>], kwargs = {}} : (!mav.tensor) -> !mav.tensor
  mav.output %1 : !mav.tensor
}

// -----

mav.graph @placeholder_clash(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node name 'x' is already used in graph 'placeholder_clash'}}
  %1 = "mav.call_function"(%x) {name = "x", target = "aten::relu", args = [#mav.operand<0>], kwargs = {}} : (!mav.tensor) -> !mav.tensor
  mav.output %1 : !mav.tensor
}

// -----

// expected-error @+1 {{graph 'bad_placeholder': placeholder "1x" is not a Python identifier}}
"mav.graph"() ({
^bb0(%arg0: !mav.tensor):
  "mav.output"(%arg0) {value = #mav.operand<0>} : (!mav.tensor) -> ()
}) {sym_name = "bad_placeholder", function_type = (!mav.tensor) -> !mav.tensor, arg_names = ["1x"]} : () -> ()

// -----

// expected-error @+1 {{graph 'arg_names_count' has 1 placeholders but 2 arg_names}}
"mav.graph"() ({
^bb0(%arg0: !mav.tensor):
  "mav.output"(%arg0) {value = #mav.operand<0>} : (!mav.tensor) -> ()
}) {sym_name = "arg_names_count", function_type = (!mav.tensor) -> !mav.tensor, arg_names = ["x", "y"]} : () -> ()

// -----

// expected-error @+1 {{graph 'placeholder_types': placeholder types do not match (!mav.tensor) -> !mav.tensor}}
"mav.graph"() ({
^bb0(%arg0: !mav.int):
  "mav.output"() {value = #mav.none} : () -> ()
}) {sym_name = "placeholder_types", function_type = (!mav.tensor) -> !mav.tensor, arg_names = ["x"]} : () -> ()

// -----

mav.graph @use_before_def(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'first' (mav.call_function): uses 'second' before it is defined}}
  %first = mav.call_function "aten::relu" (%second) : (!mav.tensor) -> !mav.tensor
  %second = mav.call_function "aten::relu" (%x) : (!mav.tensor) -> !mav.tensor
  mav.output %first : !mav.tensor
}

// -----

mav.graph @output_types(%x: !mav.tensor) -> tensor<2xf32> {
  // expected-error @+1 {{output types ('!mav.tensor') do not match the results of graph 'output_types' ('tensor<2xf32>')}}
  mav.output %x : !mav.tensor
}

// -----

mav.graph @not_a_node(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{is not a mav node: a graph holds get_attr, call_module, call_function and call_method nodes and ends with mav.output}}
  mav.graph @nested() {
    mav.output None
  }
  mav.output %x : !mav.tensor
}

// -----

mav.graph @missing_weight() -> !mav.tensor {
  // expected-error @+1 {{node 'w' (mav.get_attr): target @missing is not a mav.weight of this module}}
  %w = mav.get_attr @missing : !mav.tensor
  mav.output %w : !mav.tensor
}

// -----

mav.graph @target_is_graph() -> !mav.tensor {
  // expected-error @+1 {{node 'w' (mav.get_attr): target @target_is_graph is not a mav.weight of this module}}
  %w = mav.get_attr @target_is_graph : !mav.tensor
  mav.output %w : !mav.tensor
}

// -----

mav.weight @w parameter = dense<1.0> : tensor<2xf32>
mav.graph @weight_type() -> tensor<3xf32> {
  // expected-error @+1 {{node 'w' (mav.get_attr): result type 'tensor<3xf32>' differs from the type 'tensor<2xf32>' of weight @w}}
  %w = mav.get_attr @w : tensor<3xf32>
  mav.output %w : tensor<3xf32>
}

// -----

// expected-error @+1 {{weight 'frozen_buffer': only parameters can be frozen}}
mav.weight @frozen_buffer buffer = dense<1.0> : tensor<2xf32> {frozen}

// -----

// expected-error @+1 {{weight 'dynamic' must be a statically shaped tensor, got 'tensor<?xf32>'}}
"mav.weight"() {sym_name = "dynamic", kind = 0 : i32, value = dense_resource<blob> : tensor<?xf32>} : () -> ()

// -----

mav.graph @wrong_metadata_kind(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'relu' (mav.call_function): 'common' must be a #mav.common attribute, got #mav.software<{}>}}
  %relu = mav.call_function "aten::relu" (%x) {common = #mav.software<{}>} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @wrong_scope_kind(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'relu' (mav.call_function): 'scope' must be a #mav.scope attribute, got "relu"}}
  %relu = mav.call_function "aten::relu" (%x) {scope = "relu"} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @wrong_hardware_kind(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'relu' (mav.call_function): 'hardware' must be a #mav.hardware attribute}}
  %relu = mav.call_function "aten::relu" (%x) {hardware = {toolchain = "INTERNAL_RTL"}} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @wrong_software_kind(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'relu' (mav.call_function): 'software' must be a #mav.software attribute}}
  %relu = mav.call_function "aten::relu" (%x) {software = 3} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @bad_mase_type(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{unknown mase_type 'function': expected module_related_func, module, builtin_func, implicit_func, placeholder, get_attr or output}}
  %relu = mav.call_function "aten::relu" (%x) {common = #mav.common<mase_type = "function">} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @bad_common_args(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{common.args entries must be #mav.value, got {shape = [1]}}}
  %relu = mav.call_function "aten::relu" (%x) {common = #mav.common<args = [{shape = [1]}]>} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @bad_common_results(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{common.results entries must be #mav.value, got "data_out_0"}}
  %relu = mav.call_function "aten::relu" (%x) {common = #mav.common<results = ["data_out_0"]>} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @bad_dependence_files(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{hardware.dependence_files entries must be strings, got 3}}
  %relu = mav.call_function "aten::relu" (%x) {hardware = #mav.hardware<dependence_files = ["a.sv", 3]>} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @bad_device_id(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{hardware.device_id must be an i64}}
  %relu = mav.call_function "aten::relu" (%x) {hardware = #mav.hardware<device_id = 1 : i8>} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @bad_toolchain(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{hardware.toolchain must be INTERNAL_RTL or UNSUPPORTED, got 'HLS'}}
  %relu = mav.call_function "aten::relu" (%x) {hardware = #mav.hardware<toolchain = "HLS">} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @bad_interface(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{hardware.interface.weight must be {storage = string, transpose = bool}}}
  %relu = mav.call_function "aten::relu" (%x) {hardware = #mav.hardware<interface = {weight = {storage = "BRAM"}}>} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @bad_verilog_param(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{hardware.verilog_param.DATA_IN_0_PRECISION_0 must be an i64, got "8"}}
  %relu = mav.call_function "aten::relu" (%x) {hardware = #mav.hardware<verilog_param = {DATA_IN_0_PRECISION_0 = "8"}>} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @bad_max_parallelism(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{hardware.max_parallelism entries must be at least 1}}
  %relu = mav.call_function "aten::relu" (%x) {hardware = #mav.hardware<max_parallelism = [4, 0]>} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @bad_argument_leaf(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'add' (mav.call_function): argument 1 : i32 is not an int (i64), float (f64), bool, None, string, list, tuple, dict, dtype, device, memory format, layout or operand}}
  %add = mav.call_function "aten::add" (%x, 1 : i32) : (!mav.tensor) -> !mav.tensor
  mav.output %add : !mav.tensor
}

// -----

mav.graph @operand_order(%x: !mav.tensor, %y: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'add' (mav.call_function): operand reference #1 is out of order: expected #0}}
  %add = "mav.call_function"(%x, %y) {name = "add", target = "aten::add", args = [#mav.operand<1>, #mav.operand<0>], kwargs = {}} : (!mav.tensor, !mav.tensor) -> !mav.tensor
  mav.output %add : !mav.tensor
}

// -----

mav.graph @operand_count(%x: !mav.tensor, %y: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'relu' (mav.call_function): arguments reference 1 operands but the node has 2}}
  %relu = "mav.call_function"(%x, %y) {name = "relu", target = "aten::relu", args = [#mav.operand<0>], kwargs = {}} : (!mav.tensor, !mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @bad_output_tree(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{output: arguments reference 0 operands but the node has 1}}
  "mav.output"(%x) {value = #mav.none} : (!mav.tensor) -> ()
}

// -----

mav.graph @no_result(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'nothing' (mav.call_function): a node must produce a value}}
  "mav.call_function"(%x) {name = "nothing", target = "aten::relu", args = [#mav.operand<0>], kwargs = {}} : (!mav.tensor) -> ()
  mav.output %x : !mav.tensor
}

// -----

mav.graph @empty_target(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'relu' (mav.call_method): empty target}}
  %relu = mav.call_method "" (%x) : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

mav.graph @empty_module_class(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'fc' (mav.call_module): empty module_class}}
  %fc = mav.call_module "fc" (%x) {module_class = ""} : (!mav.tensor) -> !mav.tensor
  mav.output %fc : !mav.tensor
}

// -----

mav.weight @"fc.weight" parameter = dense<1.0> : tensor<2x2xf32>
mav.graph @body_not_graph(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'fc' (mav.call_module): body @fc.weight is not a mav.graph}}
  %fc = mav.call_module "fc" (%x) {module_class = "torch.nn.modules.linear.Linear", body = @"fc.weight"} : (!mav.tensor) -> !mav.tensor
  mav.output %fc : !mav.tensor
}

// -----

// expected-error @+1 {{graph 'bad_graph_metadata': 'inputs' metadata must be a list of #mav.value, got ["x"]}}
mav.graph @bad_graph_metadata(%x: !mav.tensor) -> !mav.tensor attributes {inputs = ["x"]} {
  mav.output %x : !mav.tensor
}

// -----

// expected-error @+1 {{weight 'frozen_constant': only parameters can be frozen}}
mav.weight @frozen_constant constant = dense<1.0> : tensor<2xf32> {frozen}

// -----

mav.weight @w parameter = dense<1.0> : tensor<2xf32>
// expected-error @+1 {{weight 'alias' must hold the same value as @w, the weight it is tied to}}
mav.weight @alias parameter = dense<2.0> : tensor<2xf32> {tied_to = @w}

// -----

// expected-error @+1 {{weight 'alias' is tied to @missing, which is not an untied mav.weight}}
mav.weight @alias parameter = dense<2.0> : tensor<2xf32> {tied_to = @missing}

// -----

mav.graph @negative_param_count(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'l' (mav.learnable): param_count must not be negative}}
  %l = mav.learnable %x {param_count = -1 : i64, params = []} : !mav.tensor
  mav.output %l : !mav.tensor
}

// -----

mav.graph @learnable_types(%x: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'mav.learnable' op failed to verify that all of {input, result} have same type}}
  %l = "mav.learnable"(%x) {name = "l", param_count = 0 : i64, params = []} : (tensor<2xf32>) -> tensor<3xf32>
  mav.output %l : tensor<3xf32>
}

// -----

// expected-error @+1 {{'mav.pass_outputs' must be a list of #mav.pass_output on a module}}
module attributes {mav.pass_outputs = [1]} {
}
