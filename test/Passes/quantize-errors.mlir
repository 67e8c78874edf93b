// RUN: mav-opt %s -split-input-file -mav-quantize -verify-diagnostics

// The graph must be raised: a node without common metadata (or with an
// empty one, as after -mav-init-metadata alone) is an error naming it.
// get_attr nodes need none.

mav.weight @w parameter = dense<1.0> : tensor<4x4xf32>
mav.graph @not_raised(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %w = mav.get_attr @w : tensor<4x4xf32>
  // expected-error @+1 {{node 'linear' has no common metadata: run -mav-raise first}}
  %linear = mav.call_function "aten::linear" (%x, %w, None) : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  mav.output %linear : tensor<2x4xf32>
}

// -----

mav.graph @init_only(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{node 'relu' has no common metadata: run -mav-raise first}}
  %relu = mav.call_function "aten::relu" (%x) {common = #mav.common<>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  mav.output %relu : tensor<2x4xf32>
}

// -----

// The options' format is checked before anything else (RUN lines below; the
// error is on the module).
// RUN: not mav-opt %s -split-input-file -mav-quantize='width=30' 2>&1 | FileCheck %s --check-prefix=WIDTH
// RUN: not mav-opt %s -split-input-file -mav-quantize='width=1 frac=0' 2>&1 | FileCheck %s --check-prefix=WIDTH1
// RUN: not mav-opt %s -split-input-file -mav-quantize='width=8 frac=8' 2>&1 | FileCheck %s --check-prefix=FRAC
// RUN: not mav-opt %s -split-input-file -mav-quantize='frac=-1' 2>&1 | FileCheck %s --check-prefix=NEGFRAC
// WIDTH: error: mav-quantize: width 30 is outside 2..24
// WIDTH1: error: mav-quantize: width 1 is outside 2..24
// FRAC: error: mav-quantize: frac 8 is outside 0..width-1 (width 8)
// NEGFRAC: error: mav-quantize: frac -1 is outside 0..width-1 (width 8)

// The config file: every error names the file, and the key.
// RUN: not mav-opt %s -split-input-file -mav-quantize=config=%t.missing.json 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: mav-quantize: cannot read config '{{.*}}missing.json': {{.+}}
// RUN: echo '{"default": {"width": 8, "frac": 4},' > %t.syntax.json
// RUN: not mav-opt %s -split-input-file -mav-quantize=config=%t.syntax.json 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: error: {{.*}}syntax.json: {{.+}}
// RUN: echo '[1, 2]' > %t.array.json
// RUN: not mav-opt %s -split-input-file -mav-quantize=config=%t.array.json 2>&1 | FileCheck %s --check-prefix=ARRAY
// ARRAY: error: {{.*}}array.json: expected a JSON object
// RUN: echo '{"by_op": {}}' > %t.key.json
// RUN: not mav-opt %s -split-input-file -mav-quantize=config=%t.key.json 2>&1 | FileCheck %s --check-prefix=KEY
// KEY: error: {{.*}}key.json: unknown key 'by_op' (expected default, by_type, by_name)
// RUN: echo '{"by_type": [1]}' > %t.table.json
// RUN: not mav-opt %s -split-input-file -mav-quantize=config=%t.table.json 2>&1 | FileCheck %s --check-prefix=TABLE
// TABLE: error: {{.*}}table.json: "by_type": expected an object
// RUN: echo '{"default": 8}' > %t.notformat.json
// RUN: not mav-opt %s -split-input-file -mav-quantize=config=%t.notformat.json 2>&1 | FileCheck %s --check-prefix=NOTFORMAT
// NOTFORMAT: error: {{.*}}notformat.json: "default": expected {"width": W, "frac": F}
// RUN: echo '{"default": {"width": 8, "frac": 4, "signed": true}}' > %t.formatkey.json
// RUN: not mav-opt %s -split-input-file -mav-quantize=config=%t.formatkey.json 2>&1 | FileCheck %s --check-prefix=FORMATKEY
// FORMATKEY: error: {{.*}}formatkey.json: "default": unknown key 'signed'
// RUN: echo '{"by_name": {"x": {"width": 8}}}' > %t.nofrac.json
// RUN: not mav-opt %s -split-input-file -mav-quantize=config=%t.nofrac.json 2>&1 | FileCheck %s --check-prefix=NOFRAC
// NOFRAC: error: {{.*}}nofrac.json: "by_name" "x": expected integer "width" and "frac"
// RUN: echo '{"default": {"width": 25, "frac": 4}}' > %t.range.json
// RUN: not mav-opt %s -split-input-file -mav-quantize=config=%t.range.json 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: error: {{.*}}range.json: "default": width 25 is outside 2..24
// RUN: echo '{"by_type": {"relu": {"width": 8, "frac": 9}}}' > %t.fracrange.json
// RUN: not mav-opt %s -split-input-file -mav-quantize=config=%t.fracrange.json 2>&1 | FileCheck %s --check-prefix=FRACRANGE
// FRACRANGE: error: {{.*}}fracrange.json: "by_type" "relu": frac 9 is outside 0..width-1 (width 8)

// Names are checked against the graph after it is quantized: a by_name entry
// must name a node or a placeholder, a by_type entry an operator with
// hardware (this split is raised; the check is on the module).
// RUN: echo '{"by_name": {"fc9": {"width": 8, "frac": 4}}}' > %t.name.json
// RUN: not mav-opt %s -split-input-file -mav-quantize=config=%t.name.json 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: error: {{.*}}name.json: "by_name" "fc9" names no node or input
// RUN: echo '{"by_type": {"sigmoid": {"width": 8, "frac": 4}}}' > %t.type.json
// RUN: not mav-opt %s -split-input-file -mav-quantize=config=%t.type.json 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: error: {{.*}}type.json: "by_type" "sigmoid" is not an operator with hardware
// RUN: echo '{"by_type": {"frobnicate": {"width": 8, "frac": 4}}}' > %t.unknowntype.json
// RUN: not mav-opt %s -split-input-file -mav-quantize=config=%t.unknowntype.json 2>&1 | FileCheck %s --check-prefix=UNKNOWNTYPE
// UNKNOWNTYPE: error: {{.*}}unknowntype.json: "by_type" "frobnicate" is not an operator with hardware
mav.graph @raised(%x: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {inputs = [#mav.value<name = "x">], outputs = [#mav.value<name = "data_out_0">]} {
  %relu = mav.call_function "aten::relu" (%x) {common = #mav.common<mase_type = "module_related_func", mase_op = "relu", args = [#mav.value<name = "data_in_0">], results = [#mav.value<name = "data_out_0">]>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  mav.output %relu : tensor<2x4xf32>
}

// -----

// No silent float: a node that no component computes, or whose component
// does not fit it, is an error naming it (allow-float=true leaves it float:
// quantize.mlir).
mav.graph @no_component(%x: tensor<2x8xf32>) -> tensor<2x8xf32> attributes {inputs = [#mav.value<name = "x">], outputs = [#mav.value<name = "data_out_0">]} {
  // expected-error @+1 {{node 'sigmoid' (sigmoid) cannot be quantized: no hardware component; lower it first, or give allow-float=true to leave it in float}}
  %sigmoid = mav.call_function "aten::sigmoid" (%x) {common = #mav.common<mase_type = "module_related_func", mase_op = "sigmoid", args = [#mav.value<name = "data_in_0">], results = [#mav.value<name = "data_out_0">]>} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  mav.output %sigmoid : tensor<2x8xf32>
}

// -----

mav.graph @unfit(%x: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {inputs = [#mav.value<name = "x">], outputs = [#mav.value<name = "data_out_0">]} {
  // expected-error @+1 {{node 'add' (add) cannot be quantized: }}
  %add = mav.call_function "aten::add.Tensor" (%x, %x, alpha = 2) {common = #mav.common<mase_type = "module_related_func", mase_op = "add", args = [#mav.value<name = "data_in_0">, #mav.value<name = "data_in_1">, #mav.value<name = "alpha", type = "int", value = 2 : i64>], results = [#mav.value<name = "data_out_0">]>} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  mav.output %add : tensor<2x4xf32>
}
