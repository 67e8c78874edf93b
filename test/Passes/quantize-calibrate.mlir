// -mav-quantize with calibration on a small graph whose ranges are set by
// its inputs file: x = [0.25, 0.5, 0.25, 0.5], fc's weights are all 8 and
// its bias 0, so fc = relu = 8 * 1.5 = 12 everywhere. The integer bits are
// the smallest I with 2^(I-1) > r * 9/8: x (r = 0.5) I = 1, fc and relu
// (r = 12, 13.5 with the margin) I = 5. Model-level calibration and its
// error against PyTorch: test/Hardware/flow-calibrate.test.

// The sample as a tensor (one sample of a one-input graph).
// RUN: %python -c "import torch; torch.save(torch.tensor([[0.25, 0.5, 0.25, 0.5]]), '%t.tensor.pt')"
// RUN: mav-opt %s -mav-raise -mav-quantize='width=8 calibration-inputs=%t.tensor.pt' | FileCheck %s -DSAMPLES=1
// CHECK: #mav.pass_output<"mav-quantize", {calibration = {calibrated = 3 : i64, nodes = {fc = {frac = 3 : i64, range = 1.200000e+01 : f64}, relu = {frac = 3 : i64, range = 1.200000e+01 : f64}, x = {frac = 7 : i64, range = 5.000000e-01 : f64}}, samples = [[SAMPLES]] : i64, saturating = 0 : i64, saturating_nodes = []}, formats = {"<8,3>" = 2 : i64}, quantized = 2 : i64, unquantized_nodes = []}>
// CHECK-LABEL: mav.graph @forward
// CHECK-SAME: inputs = [#mav.value<name = "x", shape = [1, 4], type = "fixed", precision = [8, 7]>]
// CHECK-NEXT: %fc = {{.*}}#mav.value<name = "weight", {{.*}}precision = [8, 3]>{{.*}}results = [#mav.value<name = "data_out_0", type = "fixed", precision = [8, 3]>]
// CHECK-NEXT: %relu = {{.*}}results = [#mav.value<name = "data_out_0", type = "fixed", precision = [8, 3]>]

// A list of samples, each a tensor or a tuple of the graph's inputs; a dict
// whose "inputs" is one sample (test/models' NAME.io.pt). The second sample
// (x / 2) changes no range.
// RUN: %python -c "import torch; x = torch.tensor([[0.25, 0.5, 0.25, 0.5]]); torch.save([x, x / 2], '%t.list.pt'); torch.save([(x,), (x / 2,)], '%t.tuples.pt'); torch.save({'inputs': (x,), 'outputs': (x,)}, '%t.io.pt')"
// RUN: mav-opt %s -mav-raise -mav-quantize='width=8 calibration-inputs=%t.list.pt' | FileCheck %s -DSAMPLES=2
// RUN: mav-opt %s -mav-raise -mav-quantize='width=8 calibration-inputs=%t.tuples.pt' | FileCheck %s -DSAMPLES=2
// RUN: mav-opt %s -mav-raise -mav-quantize='width=8 calibration-inputs=%t.io.pt' | FileCheck %s -DSAMPLES=1

// Too narrow: at width 4, fc and relu need 5 integer bits; they saturate,
// get frac 0, and are listed.
// RUN: mav-opt %s -mav-raise -mav-quantize='width=4 calibration-inputs=%t.tensor.pt' | FileCheck %s --check-prefix=NARROW
// NARROW: calibration = {calibrated = 3 : i64, nodes = {fc = {frac = 0 : i64, {{.*}}}, relu = {frac = 0 : i64, {{.*}}}, x = {frac = 3 : i64, {{.*}}}}, samples = 1 : i64, saturating = 2 : i64, saturating_nodes = ["fc", "relu"]}
// NARROW: %fc = {{.*}}results = [#mav.value<name = "data_out_0", type = "fixed", precision = [4, 0]>]

// by_name and by_type win over calibration; the config's default width is
// the calibrated nodes' width.
// RUN: echo '{"default": {"width": 10, "frac": 2}, "by_name": {"fc": {"width": 12, "frac": 6}}}' > %t.config.json
// RUN: mav-opt %s -mav-raise -mav-quantize='calibration-inputs=%t.tensor.pt config=%t.config.json' | FileCheck %s --check-prefix=CONFIG
// CONFIG: calibration = {calibrated = 2 : i64, nodes = {relu = {frac = 5 : i64, {{.*}}}, x = {frac = 9 : i64, {{.*}}}}
// CONFIG: inputs = [#mav.value<name = "x", {{.*}}precision = [10, 9]>]
// CONFIG-NEXT: %fc = {{.*}}results = [#mav.value<name = "data_out_0", type = "fixed", precision = [12, 6]>]
// CONFIG-NEXT: %relu = {{.*}}results = [#mav.value<name = "data_out_0", type = "fixed", precision = [10, 5]>]

// Seeded random inputs: the ranges are whatever randn drew, but every node
// is calibrated, on as many samples as asked for.
// RUN: mav-opt %s -mav-raise -mav-quantize='width=12 calibrate=3 calibration-seed=7' | FileCheck %s --check-prefix=RANDOM
// RANDOM: calibration = {calibrated = 3 : i64, {{.*}}samples = 3 : i64, saturating = 0 : i64

// Errors name the option or the file.
// RUN: not mav-opt %s -mav-raise -mav-quantize='calibrate=0' 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: mav-quantize: calibrate=0: the number of calibration inputs must be at least 1
// RUN: not mav-opt %s -mav-raise -mav-quantize='calibrate=-2' 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: mav-quantize: calibrate=-2: the number of calibration inputs must be at least 1
// RUN: not mav-opt %s -mav-raise -mav-quantize='calibrate=2 frac=4' 2>&1 | FileCheck %s --check-prefix=FRAC
// FRAC: mav-quantize: frac=4 with calibration: calibration chooses each node's frac (give the total width)
// RUN: not mav-opt %s -mav-raise -mav-quantize='calibration-seed=3' 2>&1 | FileCheck %s --check-prefix=SEED
// SEED: mav-quantize: calibration-seed needs calibrate=N (the seeded inputs it draws)
// RUN: not mav-opt %s -mav-raise -mav-quantize='calibrate=2 calibration-inputs=%t.tensor.pt' 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: error: mav-quantize: calibrate=2 and calibration-inputs: give one source of calibration inputs
// RUN: not mav-opt %s -mav-raise -mav-quantize='width=30 calibrate=2' 2>&1 | FileCheck %s --check-prefix=WIDTH
// WIDTH: error: mav-quantize: width 30 is outside 2..24
// RUN: not mav-opt %s -mav-raise -mav-quantize='width=1 calibration-inputs=%t.tensor.pt' 2>&1 | FileCheck %s --check-prefix=WIDTH1
// WIDTH1: error: mav-quantize: width 1 is outside 2..24
// RUN: not mav-opt %s -mav-raise -mav-quantize='calibration-inputs=%t.missing.pt' 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: mav-quantize: cannot read calibration-inputs '{{.*}}missing.pt': {{.+}}
// RUN: echo 'not a tensor' > %t.text.pt
// RUN: not mav-opt %s -mav-raise -mav-quantize='calibration-inputs=%t.text.pt' 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT: error: calibration inputs '{{.*}}text.pt': not a torch.save file libtorch reads: {{.+}}
// Python pickles a one-element list with an opcode libtorch 1.13 lacks.
// RUN: %python -c "import torch; torch.save([torch.zeros(1, 4)], '%t.one.pt')"
// RUN: not mav-opt %s -mav-raise -mav-quantize='calibration-inputs=%t.one.pt' 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: error: calibration inputs '{{.*}}one.pt': not a torch.save file libtorch reads: Unknown opcode {{.*}} (libtorch reads no one-element list or one-entry dict: save tuples, e.g. (x,))
// RUN: %python -c "import torch; torch.save((torch.zeros(2, 4),), '%t.shape.pt')"
// RUN: not mav-opt %s -mav-raise -mav-quantize='calibration-inputs=%t.shape.pt' 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: error: calibration inputs '{{.*}}shape.pt': sample 0 input 0 has shape 2x4, the graph takes 1x4
// RUN: %python -c "import torch; torch.save(((torch.zeros(1, 4), torch.zeros(1, 4)),), '%t.count.pt')"
// RUN: not mav-opt %s -mav-raise -mav-quantize='calibration-inputs=%t.count.pt' 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: error: calibration inputs '{{.*}}count.pt': sample 0 has 2 tensors; @forward takes 1 inputs
// RUN: %python -c "import torch; torch.save({'outputs': (), 'labels': ()}, '%t.dict.pt')"
// RUN: not mav-opt %s -mav-raise -mav-quantize='calibration-inputs=%t.dict.pt' 2>&1 | FileCheck %s --check-prefix=DICT
// DICT: error: calibration inputs '{{.*}}dict.pt': a dict without "inputs"
// RUN: %python -c "import torch; torch.save((), '%t.empty.pt')"
// RUN: not mav-opt %s -mav-raise -mav-quantize='calibration-inputs=%t.empty.pt' 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: calibration inputs '{{.*}}empty.pt': holds no samples

mav.weight @fc.weight parameter = dense<8.0> : tensor<2x4xf32>
mav.weight @fc.bias parameter = dense<0.0> : tensor<2xf32>

mav.graph @forward(%x: tensor<1x4xf32>) -> !mav.tensor {
  %fc = mav.call_module "fc" (%x) {body = @fc.forward, module_class = "torch.nn.modules.linear.Linear"} : (tensor<1x4xf32>) -> !mav.tensor
  %relu = mav.call_function "aten::relu" (%fc) : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}
mav.graph private @fc.forward(%input: !mav.tensor) -> !mav.tensor {
  %fc_weight = mav.get_attr @fc.weight : tensor<2x4xf32>
  %fc_bias = mav.get_attr @fc.bias : tensor<2xf32>
  %linear = mav.call_function "aten::linear" (%input, %fc_weight, %fc_bias) : (!mav.tensor, tensor<2x4xf32>, tensor<2xf32>) -> !mav.tensor
  mav.output %linear : !mav.tensor
}
