//===- ComponentRegistryTest.cpp - The hardware component entries ---------===//
//
// Each entry's parameters and files against its .sv file, and its operators
// against the op registry.
//
//===----------------------------------------------------------------------===//

#include "mav/Hardware/Component.h"
#include "mav/Operators/OpRegistry.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "gtest/gtest.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace mav;
using llvm::SmallString;
using llvm::SmallVector;
using llvm::StringRef;

/// The parameter names a .sv file declares, in order, and the fixed_*
/// modules it instantiates.
struct SvFile {
  std::vector<std::string> parameters;
  std::set<std::string> instances;
};

static std::optional<SvFile> readSvFile(StringRef file) {
  SmallString<256> path(MAV_RTL_DIR);
  llvm::sys::path::append(path, file);
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return std::nullopt;
  SvFile sv;
  llvm::Regex parameter("^[[:space:]]*parameter([[:space:]]+(int|longint))?"
                        "[[:space:]]+([A-Z_0-9]+)[[:space:]]*=");
  llvm::Regex instance("^[[:space:]]*(fixed_[a-z0-9_]+)[[:space:]]*(#|[a-z])");
  SmallVector<StringRef> lines, groups;
  (*buffer)->getBuffer().split(lines, '\n');
  for (StringRef line : lines) {
    if (line.trim().starts_with("//"))
      continue;
    if (parameter.match(line, &groups))
      sv.parameters.push_back(groups[3].str());
    else if (instance.match(line, &groups))
      sv.instances.insert(groups[1].str());
  }
  return sv;
}

TEST(ComponentRegistry, ComponentsMatchTheirFiles) {
  for (const Component *entry : getComponents()) {
    const Component &component = *entry;
    SCOPED_TRACE(component.module.str());
    std::optional<SvFile> sv = readSvFile(component.module.str() + ".sv");
    ASSERT_TRUE(sv) << "no file for the component";
    std::vector<std::string> expected(component.parameters.begin(),
                                      component.parameters.end());
    EXPECT_EQ(sv->parameters, expected);

    // Its own file last, and each file after the files it needs.
    ASSERT_FALSE(component.dependenceFiles.empty());
    EXPECT_EQ(component.dependenceFiles.back(), component.module.str() + ".sv");
    std::set<std::string> needed;
    std::vector<std::string> work(sv->instances.begin(), sv->instances.end());
    while (!work.empty()) {
      std::string name = work.back();
      work.pop_back();
      if (!needed.insert(name + ".sv").second)
        continue;
      std::optional<SvFile> dependency = readSvFile(name + ".sv");
      ASSERT_TRUE(dependency) << name;
      work.insert(work.end(), dependency->instances.begin(),
                  dependency->instances.end());
    }
    std::set<std::string> listed(component.dependenceFiles.begin(),
                                 component.dependenceFiles.end() - 1);
    EXPECT_EQ(listed, needed);
  }
}

TEST(ComponentRegistry, OperatorsOfComponents) {
  std::set<std::string> modules;
  for (const Component *component : getComponents()) {
    EXPECT_EQ(lookupComponent(component->module), component);
    for (StringRef maseOp : component->operators) {
      SCOPED_TRACE(maseOp.str());
      // Every operator of a component is one the op registry knows, and a
      // component with operators has every rule.
      EXPECT_NE(lookupMaseOp(maseOp), nullptr);
      EXPECT_TRUE(component->describe && component->evaluate &&
                  component->bound && component->estimate &&
                  component->instanceParameters);
      // The performance model reads these of every node's component.
      EXPECT_TRUE(component->itemCycles && component->multipliers &&
                  component->timing && component->resources);
      modules.insert(component->module.str());
    }
  }
  std::set<std::string> expected = {
      "fixed_add",         "fixed_add_const", "fixed_avgpool2d",
      "fixed_channel_mul", "fixed_clamp",     "fixed_concat2",
      "fixed_conv2d",      "fixed_flatten",   "fixed_gelu",
      "fixed_hardsigmoid", "fixed_hardswish", "fixed_layernorm",
      "fixed_linear",      "fixed_matmul",    "fixed_maxpool2d",
      "fixed_mul",         "fixed_prepend",   "fixed_relu",
      "fixed_reorder",     "fixed_scale",     "fixed_softmax"};
  EXPECT_EQ(modules, expected);
  ASSERT_EQ(getComponentsFor("adaptive_avg_pool2d").size(), 1u);
  EXPECT_EQ(getComponentsFor("adaptive_avg_pool2d").front(),
            lookupComponent("fixed_avgpool2d"));
  EXPECT_EQ(getComponentsFor("linear").front()->module, "fixed_linear");
  // An elementwise product first, then one with a per-channel scale, then
  // one by a constant.
  ASSERT_EQ(getComponentsFor("mul").size(), 3u);
  EXPECT_EQ(getComponentsFor("mul")[0]->module, "fixed_mul");
  EXPECT_EQ(getComponentsFor("mul")[1]->module, "fixed_channel_mul");
  EXPECT_EQ(getComponentsFor("mul")[2]->module, "fixed_scale");
  EXPECT_EQ(getComponentsFor("relu6").front()->module, "fixed_clamp");
  // The glue the exporter instantiates has timing and resources too.
  for (StringRef glue : {"fixed_fork", "fixed_fifo", "fixed_cast",
                         "fixed_width_convert", "fixed_skid_buffer"}) {
    SCOPED_TRACE(glue.str());
    ASSERT_NE(lookupComponent(glue), nullptr);
    EXPECT_TRUE(lookupComponent(glue)->timing &&
                lookupComponent(glue)->resources);
  }
  EXPECT_TRUE(getComponentsFor("sigmoid").empty());
  EXPECT_EQ(lookupComponent("fixed_sigmoid"), nullptr);
  // The transformer's: both matrix products, every data movement by one
  // reordering buffer.
  EXPECT_EQ(getComponentsFor("bmm").front()->module, "fixed_matmul");
  for (StringRef move : {"transpose", "permute", "slice", "select", "expand"})
    EXPECT_EQ(getComponentsFor(move).front()->module, "fixed_reorder");
  EXPECT_EQ(getComponentsFor("unflatten").front()->module, "fixed_flatten");
}
