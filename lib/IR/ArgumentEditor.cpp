//===- ArgumentEditor.cpp - Change a node's arguments ---------------------===//

#include "mav/IR/ArgumentEditor.h"
#include "mav/IR/MavAttrs.h"
#include "mav/IR/NodeArguments.h"

using namespace mlir;
using namespace mav;

ArgumentEditor::ArgumentEditor(Operation *call) : call(call) {
  values.assign(call->operand_begin(), call->operand_end());
  auto args = call->getAttrOfType<ArrayAttr>("args");
  auto kwargs = call->getAttrOfType<DictionaryAttr>("kwargs");
  assert(args && kwargs && "ArgumentEditor edits call nodes");
  positional.assign(args.begin(), args.end());
  for (NamedAttribute keyword : kwargs)
    keywords.insert({keyword.getName(), keyword.getValue()});
}

/// The value `argument` refers to, when it is a single reference.
static Value getReferenced(Attribute argument, ArrayRef<Value> values) {
  auto ref = argument.dyn_cast_or_null<OperandRefAttr>();
  return ref ? values[ref.getIndex()] : Value();
}

/// `argument` when it refers to no value.
static Attribute getIfConstant(Attribute argument) {
  if (!argument)
    return {};
  bool refers = false;
  walkOperandRefs(argument, [&](unsigned) { refers = true; });
  return refers ? Attribute() : argument;
}

Value ArgumentEditor::getValue(unsigned position) const {
  return position < positional.size()
             ? getReferenced(positional[position], values)
             : Value();
}

Value ArgumentEditor::getKeywordValue(StringRef name) const {
  auto found = keywords.find(StringAttr::get(call->getContext(), name));
  return found == keywords.end() ? Value()
                                 : getReferenced(found->second, values);
}

Attribute ArgumentEditor::getConstant(unsigned position) const {
  return position < positional.size() ? getIfConstant(positional[position])
                                      : Attribute();
}

Attribute ArgumentEditor::getKeywordConstant(StringRef name) const {
  auto found = keywords.find(StringAttr::get(call->getContext(), name));
  return found == keywords.end() ? Attribute() : getIfConstant(found->second);
}

Attribute ArgumentEditor::use(Value value) {
  values.push_back(value);
  return OperandRefAttr::get(call->getContext(), values.size() - 1);
}

void ArgumentEditor::set(unsigned position, Value value) {
  set(position, use(value));
}

void ArgumentEditor::set(unsigned position, Attribute argument) {
  assert(position < positional.size() && "no such positional argument");
  positional[position] = argument;
}

void ArgumentEditor::erase(unsigned position) {
  assert(position < positional.size() && "no such positional argument");
  positional.erase(positional.begin() + position);
}

void ArgumentEditor::setKeyword(StringRef name, Value value) {
  setKeyword(name, use(value));
}

void ArgumentEditor::setKeyword(StringRef name, Attribute argument) {
  keywords[StringAttr::get(call->getContext(), name)] = argument;
}

void ArgumentEditor::eraseKeyword(StringRef name) {
  keywords.erase(StringAttr::get(call->getContext(), name));
}

void ArgumentEditor::replaceValue(Value value, Attribute constant) {
  auto replace = [&](Attribute argument) {
    return replaceOperandRefs(argument, [&](unsigned index) -> Attribute {
      return values[index] == value ? constant : Attribute();
    });
  };
  for (Attribute &argument : positional)
    argument = replace(argument);
  for (auto &entry : keywords)
    entry.second = replace(entry.second);
}

void ArgumentEditor::apply() {
  MLIRContext *context = call->getContext();
  SmallVector<Value> operands;
  auto renumber = [&](Attribute argument) {
    return mapOperandRefs(argument, [&](unsigned index) {
      operands.push_back(values[index]);
      return static_cast<unsigned>(operands.size() - 1);
    });
  };
  SmallVector<Attribute> args = llvm::to_vector(llvm::map_range(
      positional, [&](Attribute argument) { return renumber(argument); }));
  // Keywords are numbered in the dictionary's order, by name.
  SmallVector<NamedAttribute> sorted;
  for (auto &[name, argument] : keywords)
    sorted.push_back(NamedAttribute(name, argument));
  DictionaryAttr dictionary = DictionaryAttr::get(context, sorted);
  SmallVector<NamedAttribute> kwargs;
  for (NamedAttribute keyword : dictionary)
    kwargs.push_back(
        NamedAttribute(keyword.getName(), renumber(keyword.getValue())));
  call->setOperands(operands);
  call->setAttr("args", ArrayAttr::get(context, args));
  call->setAttr("kwargs", DictionaryAttr::get(context, kwargs));
  invalidateCommonMetadata(call);
}

void mav::invalidateCommonMetadata(Operation *node) {
  node->removeAttr("common");
}
