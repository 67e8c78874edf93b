// RUN: mav-opt %s -split-input-file -mav-add-hardware-metadata -verify-diagnostics

// A graph that was not raised is refused, naming the first node.
mav.graph @not_raised(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'relu' has no common metadata (mase_op): run -mav-raise first}}
  %relu = mav.call_function "aten::relu" (%x) : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}

// -----

// After -mav-init-metadata alone, common is empty: also refused.
mav.graph @init_only(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{node 'relu' has no common metadata (mase_op): run -mav-raise first}}
  %relu = mav.call_function "aten::relu" (%x) {common = #mav.common<>} : (!mav.tensor) -> !mav.tensor
  mav.output %relu : !mav.tensor
}
