// RUN: mav-opt %s -split-input-file -verify-diagnostics

// Text that does not parse as mav IR gets a located error, never a crash.

mav.graph @unnamed(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{a node is named by its result, as in '%relu = mav.call_module ...'}}
  mav.call_function "aten::relu" (%x) : (!mav.tensor) -> ()
  mav.output %x : !mav.tensor
}

// -----

mav.graph @keyword_twice(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{keyword argument 'alpha' given twice}}
  %add = mav.call_function "aten::add" (%x, %x, alpha = 1, alpha = 2) : (!mav.tensor, !mav.tensor) -> !mav.tensor
  mav.output %add : !mav.tensor
}

// -----

mav.graph @positional_after_keyword(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{positional argument follows keyword argument}}
  %add = mav.call_function "aten::add" (%x, alpha = 1, %x) : (!mav.tensor, !mav.tensor) -> !mav.tensor
  mav.output %add : !mav.tensor
}

// -----

mav.graph @keyword_without_value(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{expected '=' after keyword argument 'alpha'}}
  %add = mav.call_function "aten::add" (%x, alpha) : (!mav.tensor) -> !mav.tensor
  mav.output %add : !mav.tensor
}

// -----

// expected-error @+1 {{expected 'parameter', 'buffer' or 'constant'}}
mav.weight @w variable = dense<1.0> : tensor<2xf32>

// -----

// expected-error @+1 {{expected an elements attribute}}
mav.weight @w parameter = 1.0

// -----

mav.graph @operand_type_count(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{2 operands present, but expected 1}}
  %add = mav.call_function "aten::add" (%x, %x) : (!mav.tensor) -> !mav.tensor
  mav.output %add : !mav.tensor
}

// -----

mav.graph @unclosed_tuple(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{expected ')'}}
  %r = mav.call_method "reshape" (%x, (1, 2 ) : (!mav.tensor) -> !mav.tensor
  mav.output %r : !mav.tensor
}

// -----

// Inherent attributes written in the dictionary are checked as they are
// moved into the op's properties.
mav.graph @inherent_attribute_kind(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{attribute 'module_class' failed to satisfy constraint: string attribute}}
  %fc = mav.call_module "fc" (%x) {module_class = 3} : (!mav.tensor) -> !mav.tensor
  mav.output %fc : !mav.tensor
}

// -----

mav.graph @learnable_param_count_kind(%x: !mav.tensor) -> !mav.tensor {
  // expected-error @+1 {{attribute 'param_count' failed to satisfy constraint: 64-bit signless integer attribute}}
  %l = mav.learnable %x {param_count = "two", params = []} : !mav.tensor
  mav.output %l : !mav.tensor
}
