//===- FormDispatchRegions.cpp - group ops into dispatch regions ----------===//
//
// Mirrors IREE's DispatchCreation FormDispatchRegions: plan groups with
// FusionPlanner, then materialize each group, in creation order, as one
// dispatch.region.
//
//===----------------------------------------------------------------------===//

#include "heuristics/DispatchRegionBuilder.h"
#include "heuristics/FusionPlanner.h"
#include "heuristics/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"

namespace dispatchlab {
#define GEN_PASS_DEF_FORMDISPATCHREGIONSPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

// Mirrors IREE's createFusionGroups (FormDispatchRegions.cpp): consumers move
// in one by one after the producers (moveFollowingOpIntoDispatchRegion), each
// first moving its operand definitions above the region. A consumer reading an
// outside op that depends on the group (say a user of a producer only fused in
// the final producer pass) cannot be placed: IREE warns and leaves it outside
// rather than failing, and so does every later consumer that reads it.
static SmallVector<Operation *>
dropUnplaceableConsumers(Operation *root, ArrayRef<Operation *> ops) {
  Block *block = root->getBlock();
  SmallVector<Operation *> sorted(ops);
  llvm::sort(sorted,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  llvm::SmallPtrSet<Operation *, 16> members(sorted.begin(), sorted.end());
  // Ops in the group or depending on it.
  llvm::SmallPtrSet<Operation *, 16> tainted(sorted.begin(), sorted.end());
  for (Operation *op = sorted.front(); op != sorted.back()->getNextNode();
       op = op->getNextNode()) {
    bool readsGroup = false, readsOutsideDependent = false;
    auto visit = [&](Value value) {
      Operation *def = value.getDefiningOp();
      Operation *owner = def ? block->findAncestorOpInBlock(*def) : nullptr;
      if (!owner || !tainted.contains(owner))
        return;
      readsGroup = true;
      readsOutsideDependent |= !members.contains(owner);
    };
    for (Value operand : op->getOperands())
      visit(operand);
    visitUsedValuesDefinedAbove(op->getRegions(),
                                [&](OpOperand *use) { visit(use->get()); });
    if (!members.contains(op)) {
      if (readsGroup)
        tainted.insert(op);
      continue;
    }
    if (readsOutsideDependent && root->isBeforeInBlock(op)) {
      op->emitWarning("consumer left outside its dispatch: an operand "
                      "depends on the dispatch through an op outside it");
      members.erase(op);
    }
  }
  return llvm::filter_to_vector(
      sorted, [&](Operation *op) { return members.contains(op); });
}

namespace {
struct FormDispatchRegionsPass
    : public dispatchlab::impl::FormDispatchRegionsPassBase<
          FormDispatchRegionsPass> {
  FormDispatchRegionsPass() = default;
  explicit FormDispatchRegionsPass(const HeuristicOptions &options)
      : options(options) {}

  /// The pass options are the knobs, as HeuristicOptions spells them.
  LogicalResult initializeOptions(
      StringRef text,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    return options.parsePassOptions(text, errorHandler);
  }

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (func.isExternal())
      return;

    FusionTracker tracker;
    decideFusionGroups(func.getFunctionBody(), options, tracker);

    IRRewriter rewriter(func.getContext());
    for (const auto &group : tracker.getGroups()) {
      // Stats name each dispatch after its root, so keep the root findable
      // once the group is a region.
      dispatch::DispatchDialect::setRootAttr(group->getRoot());
      if (failed(wrapOpsInDispatchRegion(
              rewriter, dropUnplaceableConsumers(
                            group->getRoot(), group->getFusedOperations())))) {
        group->getRoot()->emitOpError(
            "dispatch group would form a cycle with an op outside it");
        return signalPassFailure();
      }
    }
  }

private:
  HeuristicOptions options;
};
} // namespace

std::unique_ptr<Pass>
dispatchlab::createFormDispatchRegionsPass(const HeuristicOptions &options) {
  return std::make_unique<FormDispatchRegionsPass>(options);
}
