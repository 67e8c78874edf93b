//===- NodeBuilder.h - Create nodes with FX-style unique names --*- C++ -*-===//
//
// An OpBuilder for the nodes of one graph that names them as torch.fx does:
// a base derived from the target (`aten::add` -> `add`, `layer1.0.conv1` ->
// `layer1_0_conv1`), then `_1`, `_2`, ... when the graph already has it.
//
//   NodeBuilder nodes = NodeBuilder::after(relu);   // or NodeBuilder(before)
//   ArgumentTreeBuilder args(context);
//   CallFunctionOp scaled = nodes.createCallFunction(
//       loc, "aten::mul", {args.use(x), args.use(scale)}, {}, args,
//       x.getType());                        // named "mul" or "mul_1" ...
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_NODEBUILDER_H
#define MAV_IR_NODEBUILDER_H

#include "mav/IR/MavOps.h"
#include "mav/IR/NodeArguments.h"
#include "mav/IR/NodeNamer.h"

#include "mlir/IR/Builders.h"

namespace mav {

/// A NodeNamer that knows every name `graph` uses: its nodes' and its
/// placeholders'.
NodeNamer getGraphNamer(GraphOp graph);

class NodeBuilder : public mlir::OpBuilder {
public:
  /// Inserts before `before`, a node or the output of a graph; new nodes get
  /// the scope of `before` when it is a node.
  explicit NodeBuilder(mlir::Operation *before);

  /// Inserts right after `node`; new nodes get its scope.
  static NodeBuilder after(mlir::Operation *node);

  /// A name no node or placeholder of the graph has, derived from
  /// `candidate` (sanitised into a Python identifier).
  std::string claimName(llvm::StringRef candidate) {
    return namer.claim(candidate);
  }

  /// The scope new nodes get (null for none).
  void setScope(mlir::Attribute newScope) { scope = newScope; }

  /// A get_attr reading `weight`, named after the weight's path.
  GetAttrOp createGetAttr(mlir::Location loc, WeightOp weight);

  /// A call_function of `target` with arguments `args` and `kwargs`, whose
  /// operand references `tree` made (its operands are read once the
  /// arguments are built), named after the operator.
  CallFunctionOp createCallFunction(mlir::Location loc, llvm::StringRef target,
                                    llvm::ArrayRef<mlir::Attribute> args,
                                    llvm::ArrayRef<mlir::NamedAttribute> kwargs,
                                    const ArgumentTreeBuilder &tree,
                                    mlir::TypeRange resultTypes);

  /// A call_method of Tensor method `method`, as createCallFunction.
  CallMethodOp createCallMethod(mlir::Location loc, llvm::StringRef method,
                                llvm::ArrayRef<mlir::Attribute> args,
                                llvm::ArrayRef<mlir::NamedAttribute> kwargs,
                                const ArgumentTreeBuilder &tree,
                                mlir::TypeRange resultTypes);

private:
  NodeNamer namer;
  mlir::Attribute scope;
};

} // namespace mav

#endif // MAV_IR_NODEBUILDER_H
