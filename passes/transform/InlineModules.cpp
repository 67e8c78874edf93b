//===- InlineModules.cpp - Module calls replaced by their bodies ----------===//
//
// A leaf module call (`mav.call_module`) runs its body, a private graph of
// aten calls. This pass puts the body's nodes in place of each call of the
// classes it is given, in the public graphs, so that later passes see them
// one by one: after -mav-lower-fused-attention, a MultiheadAttention or
// TransformerEncoderLayer call becomes its linear, matmul, softmax and
// layer_norm nodes. Bodies no call uses any more are erased.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/ArgumentEditor.h"
#include "mav/IR/GraphCleanup.h"
#include "mav/IR/ModuleNodes.h"
#include "mav/IR/NodeBuilder.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/TransformPasses.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace mav {
#define GEN_PASS_DEF_INLINEMODULES
#include "mav/Passes/TransformPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {

/// Whether `moduleClass` (qualified) is one of `classes`, each qualified or
/// a bare class name.
bool isListed(StringRef moduleClass, ArrayRef<std::string> classes) {
  StringRef bare = moduleClass.rsplit('.').second;
  if (bare.empty())
    bare = moduleClass;
  return llvm::any_of(classes, [&](const std::string &listed) {
    return listed == moduleClass || listed == bare;
  });
}

struct InlineModules : mav::impl::InlineModulesBase<InlineModules> {
  using InlineModulesBase::InlineModulesBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (classes.empty()) {
      module.emitError() << "mav-inline-modules needs the classes to inline, "
                            "e.g. classes=MultiheadAttention";
      return signalPassFailure();
    }
    SymbolTableCollection symbols;
    Builder builder(&getContext());
    SmallVector<Attribute> inlined;
    unsigned inserted = 0;
    for (GraphOp graph : getPublicGraphs(module)) {
      SmallVector<CallModuleOp> calls;
      for (auto call : graph.getBodyBlock().getOps<CallModuleOp>())
        if (isListed(call.getModuleClass(), classes))
          calls.push_back(call);
      NodeNamer namer = getGraphNamer(graph);
      for (CallModuleOp call : calls) {
        FailureOr<unsigned> count = inlineCall(call, namer, symbols);
        if (failed(count))
          return signalPassFailure();
        inserted += *count;
        inlined.push_back(builder.getStringAttr(call.getNodeName()));
        call->erase();
      }
    }
    eraseUnusedBodies(module);
    numInlined += inlined.size();
    recordPassOutputs(
        module, getArgument(),
        {builder.getNamedAttr("inlined",
                              builder.getI64IntegerAttr(inlined.size())),
         builder.getNamedAttr("inserted", builder.getI64IntegerAttr(inserted)),
         builder.getNamedAttr("nodes", builder.getArrayAttr(inlined))});
  }

  /// Clones the body of `call` before it and gives its users the body's
  /// results; returns how many nodes it made.
  FailureOr<unsigned> inlineCall(CallModuleOp call, NodeNamer &namer,
                                 SymbolTableCollection &symbols) {
    auto fail = [&]() {
      return call->emitError()
             << "node '" << call.getNodeName() << "' (" << call.getModuleClass()
             << ") cannot be inlined: ";
    };
    GraphOp body = getModuleBody(call, symbols);
    if (!body) {
      fail() << "it has no body";
      return failure();
    }
    Block &block = body.getBodyBlock();
    ArrayAttr args = call.getArgs();
    if (args.size() != block.getNumArguments() || !call.getKwargs().empty()) {
      fail() << "it passes " << args.size() << " positional and "
             << call.getKwargs().size() << " keyword arguments to a body of "
             << block.getNumArguments() << " arguments";
      return failure();
    }
    // Arguments passed as values map to them; constants are put into the
    // cloned nodes' arguments.
    IRMapping mapping;
    SmallVector<std::pair<Value, Attribute>> constants;
    for (auto [argument, passed] : llvm::zip(block.getArguments(), args)) {
      if (auto ref = dyn_cast<OperandRefAttr>(passed))
        mapping.map(argument, call->getOperand(ref.getIndex()));
      else
        constants.emplace_back(argument, passed);
    }
    OutputOp output = body.getOutput();
    if (output.getNumOperands() != call->getNumResults()) {
      fail() << "its body returns " << output.getNumOperands() << " values for "
             << call->getNumResults() << " results";
      return failure();
    }
    OpBuilder builder(call);
    unsigned count = 0;
    for (Operation &op : block.without_terminator()) {
      Operation *clone = builder.clone(op, mapping);
      clone->setAttr("name", builder.getStringAttr(namer.claim(
                                 cast<NodeOpInterface>(op).getNodeName())));
      if (isa<CallFunctionOp, CallMethodOp, CallModuleOp>(clone)) {
        ArgumentEditor edit(clone);
        bool edited = false;
        for (auto [argument, constant] : constants)
          if (llvm::is_contained(clone->getOperands(), argument)) {
            edit.replaceValue(argument, constant);
            edited = true;
          }
        if (edited)
          edit.apply();
      }
      ++count;
    }
    for (auto [result, returned] :
         llvm::zip(call->getResults(), output.getOperands())) {
      Value value = mapping.lookupOrNull(returned);
      if (!value) {
        fail() << "its body returns an argument passed as a constant";
        return failure();
      }
      result.replaceAllUsesWith(value);
    }
    return count;
  }
};

} // namespace
