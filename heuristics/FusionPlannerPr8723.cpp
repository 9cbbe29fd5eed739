//===- FusionPlannerPr8723.cpp - dispatch groups as IREE formed them in 2022 =//
//
// Mirrors the grouping of IREE's DispatchLinalgOnTensors pass of mid-2022
// (Flow/Transforms/DispatchLinalgOnTensors.cpp: decideFusableLinalgOps and the
// sweeps after it), the formation behind seed 003's PR #8723 tables:
// - roots (isRootOp then: named Linalg ops but fill, generics with a
//   reduction loop, tiled LinalgExt ops) in a reverse sweep, each taking the
//   all-parallel Linalg ops that write its inits;
// - then, in program order, a root's only use joins when it is an
//   all-parallel Linalg op reading the root's result with the identity map
//   and writing identity inits; the consumer becomes the group's end, so a
//   chain of such consumers joins;
// - every Linalg op left but fill becomes a dispatch of its own, with no
//   fusion at all. Then a pad read only by a group member is pulled in
//   (IREE cloned pad producers into the dispatch).
// No multi-use producers, no producers through `ins`, no operand limit.
//
//===----------------------------------------------------------------------===//

#include "heuristics/FusionPlanner.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace dispatchlab {
namespace {

// 2022's producer rule: all-parallel Linalg ops writing the root's inits (a
// fill, a broadcast bias).
void fuseInitProducers(Operation *root, FusionGroup &group,
                       FusionTracker &tracker, const HeuristicOptions &knobs) {
  auto dpsRoot = dyn_cast<linalg::LinalgOp>(root);
  if (!dpsRoot)
    return;
  for (OpOperand &init : dpsRoot.getDpsInitsMutable()) {
    Operation *producer = init.get().getDefiningOp();
    if (!isa_and_nonnull<linalg::LinalgOp>(producer) ||
        !isAllParallel(producer) || producer->getBlock() != root->getBlock() ||
        tracker.isFusedOp(producer) ||
        isCloneableIntoDispatchOp(producer, knobs))
      continue;
    tracker.appendToFusionGroup(producer, group);
  }
}

// 2022's consumer rule for the group's current end `op`.
Operation *getFusableConsumer(Operation *op, const FusionTracker &tracker) {
  auto producer = dyn_cast<linalg::LinalgOp>(op);
  if (!producer || op->getNumResults() != 1 || !op->hasOneUse())
    return nullptr;
  OpOperand &use = *op->use_begin();
  auto consumer = dyn_cast<linalg::LinalgOp>(use.getOwner());
  if (!consumer || consumer->getBlock() != op->getBlock() ||
      tracker.isFusedOp(consumer) || !isAllParallel(consumer))
    return nullptr;
  AffineMap consumerMap = consumer.getMatchingIndexingMap(&use);
  AffineMap producerMap =
      producer.getIndexingMapMatchingResult(cast<OpResult>(use.get()));
  if (!consumerMap.isIdentity() ||
      producerMap.getResults() != consumerMap.getResults())
    return nullptr;
  for (OpOperand &init : consumer.getDpsInitsMutable())
    if (!consumer.getMatchingIndexingMap(&init).isIdentity())
      return nullptr;
  return consumer;
}

// IREE cloned a pad producer into the dispatch of each op reading it; one
// owner here, so a pad joins when a group member is its only user, and is a
// dispatch of its own otherwise.
void pullInPads(Block &block, FusionTracker &tracker) {
  for (Operation &op : block) {
    auto pad = dyn_cast<tensor::PadOp>(op);
    if (!pad || tracker.isFusedOp(pad))
      continue;
    Operation *user = pad->hasOneUse() ? *pad->user_begin() : nullptr;
    if (user && user->getBlock() == pad->getBlock() && tracker.isFusedOp(user))
      tracker.appendToFusionGroup(pad, tracker.getFusionGroup(user));
    else
      tracker.createFusionGroup(pad);
  }
}

void decideBlock(Block &block, const HeuristicOptions &knobs,
                 FusionTracker &tracker) {
  SmallVector<Operation *> roots;
  for (Operation &op : llvm::reverse(block)) {
    if (isa_and_nonnull<scf::SCFDialect>(op.getDialect())) {
      for (Region &nested : op.getRegions())
        decideFusionGroupsPr8723(nested, knobs, tracker);
      continue;
    }
    if (tracker.isFusedOp(&op) || !isRootLikeOp(&op))
      continue;
    FusionGroup &group = tracker.createFusionGroup(&op);
    if (knobs.dispatchFusion)
      fuseInitProducers(&op, group, tracker, knobs);
    roots.push_back(&op);
  }

  if (knobs.dispatchFusion) {
    for (Operation *root : llvm::reverse(roots)) {
      FusionGroup &group = tracker.getFusionGroup(root);
      for (Operation *end = root;
           Operation *consumer = getFusableConsumer(end, tracker);
           end = consumer)
        tracker.appendToFusionGroup(consumer, group);
    }
  }

  // Packs did not exist in 2022; they are left-overs as in today's sweep.
  for (Operation &op : block) {
    if (tracker.isFusedOp(&op) || isa<linalg::FillOp>(op) ||
        !isa<linalg::LinalgOp, linalg::PackOp>(op) ||
        isCloneableIntoDispatchOp(&op, knobs) || isWeightPack(&op))
      continue;
    tracker.createFusionGroup(&op);
  }
  pullInPads(block, tracker);
}

} // namespace

void decideFusionGroupsPr8723(Region &region, const HeuristicOptions &knobs,
                              FusionTracker &tracker) {
  for (Block &block : region)
    decideBlock(block, knobs, tracker);
}

} // namespace dispatchlab
