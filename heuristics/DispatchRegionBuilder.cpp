//===- DispatchRegionBuilder.cpp - materialize dispatch regions -----------===//

#include "heuristics/DispatchRegionBuilder.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace dispatchlab {

/// Calls `fn` on every value `op` reads: operands and captures in its body.
template <typename Fn> static void forEachUsedValue(Operation *op, Fn fn) {
  for (Value operand : op->getOperands())
    fn(operand);
  visitUsedValuesDefinedAbove(op->getRegions(),
                              [&](OpOperand *use) { fn(use->get()); });
}

FailureOr<dispatch::RegionOp>
wrapOpsInDispatchRegion(RewriterBase &rewriter, ArrayRef<Operation *> ops) {
  assert(!ops.empty() && "expected ops to wrap");
  SmallVector<Operation *> sorted(ops);
  Block *block = sorted.front()->getBlock();
  llvm::sort(sorted,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  llvm::SmallPtrSet<Operation *, 16> members(sorted.begin(), sorted.end());
  Operation *last = sorted.back();

  // Ops interleaved with the group that depend on it must follow the region.
  llvm::SmallPtrSet<Operation *, 16> dependsOnGroup(members.begin(),
                                                    members.end());
  SmallVector<Operation *> toMoveAfter;
  for (Operation *op = sorted.front(); op != last; op = op->getNextNode()) {
    if (members.contains(op))
      continue;
    bool depends = false;
    forEachUsedValue(op, [&](Value value) {
      if (Operation *def = value.getDefiningOp())
        if (Operation *owner = block->findAncestorOpInBlock(*def))
          depends |= dependsOnGroup.contains(owner);
    });
    if (!depends)
      continue;
    dependsOnGroup.insert(op);
    toMoveAfter.push_back(op);
  }
  for (Operation *member : sorted) {
    bool cycle = false;
    forEachUsedValue(member, [&](Value value) {
      if (Operation *def = value.getDefiningOp())
        if (Operation *owner = block->findAncestorOpInBlock(*def))
          cycle |= !members.contains(owner) && dependsOnGroup.contains(owner);
    });
    if (cycle)
      return failure();
  }

  // Values the rest of the program still reads become region results.
  SmallVector<Value> escaping;
  for (Operation *member : sorted)
    for (Value result : member->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            Operation *owner = block->findAncestorOpInBlock(*user);
            return !owner || !members.contains(owner);
          }))
        escaping.push_back(result);

  rewriter.setInsertionPointAfter(last);
  auto region = dispatch::RegionOp::create(rewriter, sorted.front()->getLoc(),
                                           ValueRange(escaping).getTypes());
  Block &body = region.getBody().front();
  for (Operation *member : sorted)
    rewriter.moveOpBefore(member, &body, body.end());
  rewriter.setInsertionPointToEnd(&body);
  dispatch::ReturnOp::create(rewriter, region.getLoc(), escaping);
  for (auto [value, result] : llvm::zip(escaping, region.getResults()))
    rewriter.replaceUsesWithIf(value, result, [&](OpOperand &use) {
      return !region->isProperAncestor(use.getOwner());
    });

  Operation *insertAfter = region;
  for (Operation *op : toMoveAfter) {
    rewriter.moveOpAfter(op, insertAfter);
    insertAfter = op;
  }
  return region;
}

LogicalResult moveConsumerIntoDispatchRegion(RewriterBase &rewriter,
                                             Operation *consumer,
                                             dispatch::RegionOp region) {
  if (consumer->getBlock() != region->getBlock() ||
      consumer->getNumRegions() != 0)
    return failure();
  for (Value operand : consumer->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (def && def != region && def->getBlock() == region->getBlock() &&
        !def->isBeforeInBlock(region))
      return failure();
  }
  dispatch::ReturnOp terminator = region.getReturnOp();
  rewriter.moveOpBefore(consumer, terminator);
  for (OpOperand &operand : consumer->getOpOperands())
    if (auto result = dyn_cast<OpResult>(operand.get());
        result && result.getOwner() == region)
      rewriter.modifyOpInPlace(consumer, [&] {
        operand.set(terminator->getOperand(result.getResultNumber()));
      });

  // The region's results still read outside, then the consumer's.
  SmallVector<Value> kept, yielded;
  for (OpResult result : region->getResults()) {
    if (result.use_empty())
      continue;
    kept.push_back(result);
    yielded.push_back(terminator->getOperand(result.getResultNumber()));
  }
  llvm::append_range(yielded, consumer->getResults());
  rewriter.setInsertionPoint(region);
  auto merged = dispatch::RegionOp::create(rewriter, region.getLoc(),
                                           ValueRange(yielded).getTypes());
  merged->setAttrs(region->getAttrs());
  rewriter.eraseBlock(&merged.getBody().front());
  rewriter.inlineRegionBefore(region.getBody(), merged.getBody(),
                              merged.getBody().end());
  rewriter.modifyOpInPlace(terminator,
                           [&] { terminator->setOperands(yielded); });
  for (auto [index, value] : llvm::enumerate(kept))
    rewriter.replaceAllUsesWith(value, merged.getResult(index));
  for (auto [index, value] : llvm::enumerate(consumer->getResults()))
    rewriter.replaceUsesWithIf(
        value, merged.getResult(kept.size() + index), [&](OpOperand &use) {
          return !merged->isProperAncestor(use.getOwner());
        });
  rewriter.eraseOp(region);
  return success();
}

// Mirrors IREE's "unfusable use" test for cloning: a value that a region
// writes into (an insert_slice destination) must stay outside.
static bool hasUnfusableUseInRegion(Value value, dispatch::RegionOp region) {
  return llvm::any_of(value.getUses(), [&](OpOperand &use) {
    auto insert = dyn_cast<tensor::InsertSliceOp>(use.getOwner());
    return insert && region->isProperAncestor(insert) &&
           use.getOperandNumber() == insert.getDestMutable().getOperandNumber();
  });
}

// Seed 002's first fix (encoding-block-clone): a producer feeding a
// contraction input that the data-tiling route will encode stays outside, so
// that the set_encoding put on that input can leave the dispatch.
static bool feedsEncodedInput(Value value, dispatch::RegionOp region,
                              const HeuristicOptions &options) {
  if (!options.encodingBlockClone ||
      options.dataTiling != DataTilingMode::Fusion)
    return false;
  return llvm::any_of(value.getUses(), [&](OpOperand &use) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(use.getOwner());
    return linalgOp && region->isProperAncestor(linalgOp) &&
           linalgOp.isDpsInput(&use) && isDataTilingCandidate(linalgOp);
  });
}

// Cloneable ops (transitively through their own inputs) whose results the
// region reads from above.
static SmallVector<Operation *>
getCloneableOps(dispatch::RegionOp region, const HeuristicOptions &options) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(region.getBody(), captured);
  SmallVector<Value> worklist(captured.begin(), captured.end());
  llvm::SetVector<Operation *> cloneable;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || cloneable.contains(def) ||
        !isCloneableIntoDispatchOp(def, options) ||
        hasUnfusableUseInRegion(value, region) ||
        feedsEncodedInput(value, region, options))
      continue;
    cloneable.insert(def);
    forEachUsedValue(def, [&](Value used) { worklist.push_back(used); });
  }
  return cloneable.takeVector();
}

void cloneProducersIntoRegion(RewriterBase &rewriter, dispatch::RegionOp region,
                              const HeuristicOptions &options) {
  while (true) {
    SmallVector<Operation *> ops = getCloneableOps(region, options);
    if (ops.empty())
      return;
    // Each clone must follow the clones of its inputs.
    bool sorted = computeTopologicalSorting(ops);
    assert(sorted && "cloneable producers form a cycle");
    (void)sorted;
    IRMapping mapping;
    Block &body = region.getBody().front();
    rewriter.setInsertionPointToStart(&body);
    for (Operation *op : ops) {
      Operation *clone = rewriter.clone(*op, mapping);
      for (auto [original, cloned] :
           llvm::zip(op->getResults(), clone->getResults()))
        rewriter.replaceUsesWithIf(original, cloned, [&](OpOperand &use) {
          return region->isProperAncestor(use.getOwner());
        });
    }
  }
}

} // namespace dispatchlab
