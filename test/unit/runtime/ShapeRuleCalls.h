//===- ShapeRuleCalls.h - Generated calls for the shape-rule test -*- C++
//-*-===//
//
// For every aten overload with a shape rule, calls built from many shapes,
// layouts, dtypes and argument combinations, the edge cases included: ones
// libtorch accepts and ones it refuses.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_TEST_UNIT_RUNTIME_SHAPERULECALLS_H
#define MAV_TEST_UNIT_RUNTIME_SHAPERULECALLS_H

#include <ATen/core/stack.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace mav::test {

/// One call: the full schema-ordered stack, defaults included.
using Call = torch::jit::Stack;

/// The calls of each overload ("aten::add.Tensor"), by target.
const std::map<std::string, std::function<std::vector<Call>()>> &
getCallGenerators();

} // namespace mav::test

#endif // MAV_TEST_UNIT_RUNTIME_SHAPERULECALLS_H
