//===- ParamExecOrder.cpp - Module and parameter execution order ----------===//
//
// The orders come from mav::recordExecOrder (the libtorch side); this pass
// writes ranks into software metadata, pass outputs, and the planner JSON,
// and flags what FSDP's validator warns about.
//
//===----------------------------------------------------------------------===//

#include "mav/IR/WeightData.h"
#include "mav/Passes/AnalysisPasses.h"
#include "mav/Passes/Metadata.h"
#include "mav/Passes/PassOutputs.h"
#include "mav/Passes/Passes.h"
#include "mav/Runtime/GraphAnalyses.h"
#include "mav/Support/AtomicOutput.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace mav {
#define GEN_PASS_DEF_PARAMEXECORDER
#include "mav/Passes/AnalysisPasses.h.inc"
} // namespace mav

using namespace mlir;
using namespace mav;

namespace {

SmallVector<StringRef> namesOf(ArrayRef<WeightOp> weights) {
  SmallVector<StringRef> names;
  for (WeightOp weight : weights)
    names.push_back(weight.getSymName());
  return names;
}

SmallVector<StringRef> pathsOf(ArrayRef<Operation *> calls) {
  SmallVector<StringRef> paths;
  for (Operation *call : calls)
    paths.push_back(cast<CallModuleOp>(call).getTarget());
  return paths;
}

bool sameOrder(const ExecOrderResult &a, const ExecOrderResult &b) {
  return a.moduleOrder == b.moduleOrder && a.forwardOrder == b.forwardOrder &&
         a.backwardOrder == b.backwardOrder;
}

struct ParamExecOrder : mav::impl::ParamExecOrderBase<ParamExecOrder> {
  using ParamExecOrderBase::ParamExecOrderBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto graph = module.lookupSymbol<GraphOp>("forward");
    if (!graph) {
      module.emitError() << "mav-param-exec-order: no mav.graph @forward";
      return signalPassFailure();
    }
    RandomDraw draw;
    draw.seed = seed;
    ExecOrderResult order;
    if (failed(recordExecOrder(graph, draw, backward, order)))
      return signalPassFailure();
    bool inputDependent = false;
    if (secondSeed >= 0) {
      draw.seed = static_cast<uint64_t>(secondSeed);
      ExecOrderResult again;
      if (failed(recordExecOrder(graph, draw, backward, again)))
        return signalPassFailure();
      inputDependent = !sameOrder(order, again);
    }

    // Which modules use each parameter: the calls whose parameters (as the
    // runtime saw them in forward) include it.
    SymbolTableCollection symbols;
    llvm::MapVector<Operation *, SmallVector<StringRef>> users;
    DenseMap<Operation *, SmallVector<WeightOp>> paramsOfCall;
    collectUsers(graph, symbols, users, paramsOfCall);

    MLIRContext *context = &getContext();
    Builder builder(context);
    DenseMap<Operation *, int64_t> forwardRank;
    for (auto [rank, weight] : llvm::enumerate(order.forwardOrder))
      forwardRank[weight] = rank;
    for (auto [rank, call] : llvm::enumerate(order.moduleOrder)) {
      NamedAttrList ranks;
      for (WeightOp weight : paramsOfCall[call])
        if (forwardRank.count(weight))
          ranks.set(weight.getSymName(),
                    builder.getI64IntegerAttr(forwardRank[weight]));
      setSoftwareMetadata(
          call,
          {builder.getNamedAttr("exec_rank", builder.getI64IntegerAttr(rank)),
           builder.getNamedAttr("param_forward_ranks",
                                ranks.getDictionary(context))});
    }

    SmallVector<NamedAttribute> shared;
    for (auto &[weight, modules] : users)
      if (modules.size() > 1)
        shared.push_back(
            builder.getNamedAttr(cast<WeightOp>(weight).getSymName(),
                                 builder.getStrArrayAttr(modules)));
    SmallVector<StringRef> unused;
    for (WeightOp weight : module.getOps<WeightOp>())
      if (weight.getKind() == WeightKind::parameter &&
          !weight.getTiedToAttr() && !forwardRank.count(weight))
        unused.push_back(weight.getSymName());

    recordPassOutputs(
        module, getArgument(),
        {builder.getNamedAttr("module_order", builder.getStrArrayAttr(
                                                  pathsOf(order.moduleOrder))),
         builder.getNamedAttr(
             "param_forward_order",
             builder.getStrArrayAttr(namesOf(order.forwardOrder))),
         builder.getNamedAttr(
             "param_backward_order",
             builder.getStrArrayAttr(namesOf(order.backwardOrder))),
         builder.getNamedAttr("shared_params",
                              DictionaryAttr::get(context, shared)),
         builder.getNamedAttr("unused_params", builder.getStrArrayAttr(unused)),
         builder.getNamedAttr("input_dependent",
                              builder.getBoolAttr(inputDependent))});
    if (!plan.empty() && failed(writePlan(order, paramsOfCall, forwardRank)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  /// For every parameter, the modules reading it: call_module nodes by
  /// path (from their bodies or their weight operands), other nodes by
  /// their scope. For every call_module, its parameters in state_dict order.
  void
  collectUsers(GraphOp graph, SymbolTableCollection &symbols,
               llvm::MapVector<Operation *, SmallVector<StringRef>> &users,
               DenseMap<Operation *, SmallVector<WeightOp>> &paramsOfCall) {
    DenseMap<Operation *, unsigned> rank = getWeightRanks(getOperation());
    for (auto node : graph.getBodyBlock().getOps<NodeOpInterface>()) {
      if (isa<GetAttrOp>(node.getOperation()))
        continue;
      SmallVector<WeightOp> ordered = getNodeParameters(node, symbols, rank);
      auto call = dyn_cast<CallModuleOp>(node.getOperation());
      StringRef user = call                  ? StringRef(call.getTarget())
                       : node.getNodeScope() ? node.getNodeScope().getPath()
                                             : StringRef("(top)");
      for (WeightOp weight : ordered) {
        SmallVector<StringRef> &modules = users[weight];
        if (!llvm::is_contained(modules, user))
          modules.push_back(user);
      }
      if (call)
        paramsOfCall[call] = std::move(ordered);
    }
  }

  /// `{"modules": [{"path", "rank", "params": [{"name", "numel",
  /// "forward_rank", "backward_rank"}]}], "param_forward_order": [...],
  /// "param_backward_order": [...]}`.
  LogicalResult
  writePlan(const ExecOrderResult &order,
            DenseMap<Operation *, SmallVector<WeightOp>> &paramsOfCall,
            DenseMap<Operation *, int64_t> &forwardRank) {
    DenseMap<Operation *, int64_t> backwardRank;
    for (auto [rank, weight] : llvm::enumerate(order.backwardOrder))
      backwardRank[weight] = rank;
    llvm::json::Array modules;
    for (auto [rank, call] : llvm::enumerate(order.moduleOrder)) {
      llvm::json::Array params;
      for (WeightOp weight : paramsOfCall[call]) {
        llvm::json::Object param{
            {"name", weight.getSymName()},
            {"numel", weight.getWeightType().getNumElements()},
            {"shape", llvm::json::Array(weight.getWeightType().getShape())}};
        if (forwardRank.count(weight))
          param["forward_rank"] = forwardRank[weight];
        if (backwardRank.count(weight))
          param["backward_rank"] = backwardRank[weight];
        params.push_back(std::move(param));
      }
      modules.push_back(
          llvm::json::Object{{"path", cast<CallModuleOp>(call).getTarget()},
                             {"rank", static_cast<int64_t>(rank)},
                             {"params", std::move(params)}});
    }
    llvm::json::Array forward, backward;
    for (StringRef name : namesOf(order.forwardOrder))
      forward.push_back(name);
    for (StringRef name : namesOf(order.backwardOrder))
      backward.push_back(name);
    llvm::json::Object root{{"modules", std::move(modules)},
                            {"param_forward_order", std::move(forward)},
                            {"param_backward_order", std::move(backward)}};
    llvm::json::Value json(std::move(root));
    if (llvm::Error error =
            mav::writeFileAtomically(plan, [&](llvm::raw_ostream &os) {
              os << llvm::formatv("{0:2}", json) << "\n";
              return llvm::Error::success();
            })) {
      getOperation().emitError()
          << "mav-param-exec-order: cannot write " << plan << ": "
          << llvm::toString(std::move(error));
      return failure();
    }
    return success();
  }
};

} // namespace

static mav::NeedsTorchRuntime<ParamExecOrder> needsTorch;
