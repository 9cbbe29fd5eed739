//===- FusionPlanner.cpp - decide dispatch groups -------------------------===//

#include "heuristics/FusionPlanner.h"

#include "compat/LinalgExtCompatDialect.h"
#include "heuristics/DispatchDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <queue>

using namespace mlir;

namespace dispatchlab {

namespace {
/// The block-level ops a group transitively depends on, walked lazily down to
/// the earliest position asked about. Within one fuseRootWithProducers call
/// the set never changes: every op that call adds is a producer of a member,
/// so it is already in the set, and so is everything it depends on. Caching it
/// turns the per-producer walk over the whole group (quadratic on long
/// groups) into one walk per call.
class GroupDependencies {
public:
  explicit GroupDependencies(const FusionGroup &group) : group(group) {}

  /// True if the group depends on `op` (a block-level op not before `bound`).
  bool contains(Operation *op, Operation *bound);

private:
  void pushUsedValues(Operation *op);

  struct IsBefore {
    bool operator()(Operation *a, Operation *b) const {
      return a->isBeforeInBlock(b);
    }
  };
  const FusionGroup &group;
  Block *block = nullptr;
  /// Dependencies at or after the current bound.
  llvm::DenseSet<Operation *> deps;
  /// Every op seen; those not in `deps` are still in `pending`.
  llvm::DenseSet<Operation *> seen;
  /// Dependencies before the current bound, latest on top.
  std::priority_queue<Operation *, std::vector<Operation *>, IsBefore> pending;
};

/// Planning context shared by the sweeps of one function.
struct Planner {
  const HeuristicOptions &knobs;
  FusionTracker &tracker;

  bool isCloneable(Operation *op) const {
    return isCloneableIntoDispatchOp(op, knobs);
  }
  bool isFusableWithConsumer(OpOperand &use) const;
  bool isFusableWithProducer(OpOperand &use, bool fuseWithTruncate) const;
  bool areAllGroupUsesFusableWithProducer(Operation *producer,
                                          const FusionGroup &group,
                                          bool fuseWithTruncate) const;
  bool hasExternalUserBlockingProducerFusion(Operation *root,
                                             Operation *producer,
                                             const FusionGroup &group,
                                             GroupDependencies &deps) const;
  SmallVector<OpOperand *> getFusableUses(Operation *op) const;
  void fuseRootWithProducers(Operation *root, FusionGroup &group,
                             bool fuseWithTruncate);
  void fuseRootsWithConsumers(ArrayRef<Operation *> roots);
  void growRoots(ArrayRef<Operation *> roots);
  void decide(Region &region);
};
} // namespace

/// Number of static loop ranges that are not 1 (dynamic counts as non-unit).
static unsigned getNumNonUnitLoops(Operation *op) {
  return llvm::count_if(getStaticLoopRanges(op),
                        [](int64_t size) { return size != 1; });
}

// Mirrors IREE's buffer-reuse test for conv epilogues: can `operand` (an
// input) share storage with one of the consumer's inits?
static bool canReuseInitBuffer(linalg::GenericOp consumer, OpOperand *operand) {
  if (consumer.getNumLoops() != consumer.getNumParallelLoops() ||
      consumer.isDpsInit(operand))
    return false;
  AffineMap inputMap = consumer.getMatchingIndexingMap(operand);
  for (OpOperand &init : consumer.getDpsInitsMutable()) {
    if (consumer.payloadUsesValueFromOperand(&init))
      continue;
    if (consumer.getMatchingIndexingMap(&init) == inputMap &&
        init.get().getType() == operand->get().getType())
      return true;
  }
  return false;
}

namespace {
/// An unpack producer fuses unless the consumer reduces over one of its
/// packed dims, or the consumer is elementwise over the whole unpacked
/// result (IREE's isFusableWithConsumer, unpack case).
bool isFusableWithUnPackProducer(linalg::UnPackOp unpack, OpOperand &use) {
  auto linalgConsumer = dyn_cast<linalg::LinalgOp>(use.getOwner());
  if (!linalgConsumer)
    return false;
  AffineMap map = linalgConsumer.getMatchingIndexingMap(&use);
  SmallVector<utils::IteratorType> iterators =
      linalgConsumer.getIteratorTypesArray();
  bool reducesPackedDim =
      llvm::any_of(unpack.getInnerDimsPos(), [&](int64_t pos) {
        auto dim = dyn_cast<AffineDimExpr>(map.getResult(pos));
        return dim && linalg::isReductionIterator(iterators[dim.getPosition()]);
      });
  bool elementwiseOverResult =
      linalg::isElementwise(linalgConsumer) &&
      linalgConsumer.getNumLoops() == unpack.getDestType().getRank();
  return !reducesPackedDim || elementwiseOverResult;
}

/// A pack-like consumer takes a pad, or a Linalg producer writing its result
/// with the identity map (IREE's isFusableWithConsumer, pack case).
bool isFusableWithPackLikeConsumer(OpOperand &use) {
  Operation *producer = use.get().getDefiningOp();
  if (isa<tensor::PadOp>(producer))
    return true;
  if (auto linalgProducer = dyn_cast<linalg::LinalgOp>(producer))
    return linalgProducer
        .getIndexingMapMatchingResult(cast<OpResult>(use.get()))
        .isIdentity();
  return false;
}

/// Conv buffer-reuse rule: a named conv's result read as an input must be
/// able to reuse one of the consumer's init buffers.
bool convResultReusesABuffer(Operation *producer, Operation *consumer) {
  auto dpsConsumer = dyn_cast<DestinationStyleOpInterface>(consumer);
  if (!dpsConsumer || !isa<linalg::ConvolutionOpInterface>(producer))
    return true;
  auto genericConsumer = dyn_cast<linalg::GenericOp>(consumer);
  for (OpOperand *input : dpsConsumer.getDpsInputOperands()) {
    if (input->get().getDefiningOp() != producer)
      continue;
    if (!genericConsumer || !canReuseInitBuffer(genericConsumer, input))
      return false;
  }
  return true;
}
} // namespace

// Mirrors IREE's isFusableWithConsumer (FormDispatchRegions.cpp); the first
// rule that decides wins.
bool Planner::isFusableWithConsumer(OpOperand &use) const {
  Operation *producer = use.get().getDefiningOp();
  Operation *consumer = use.getOwner();

  if (isCloneable(consumer))
    return false;

  if (auto unpack = dyn_cast<linalg::UnPackOp>(producer))
    return isFusableWithUnPackProducer(unpack, use);
  if (isPackLikeOp(consumer))
    return isFusableWithPackLikeConsumer(use);

  if (isa<tensor::PadOp>(consumer))
    return knobs.fusePadWithProducers && isa<linalg::LinalgOp>(producer);

  if (auto insertSlice = dyn_cast<tensor::InsertSliceOp>(consumer)) {
    // How a pad rewritten to fill + insert_slice lands in its producer's
    // dispatch.
    return insertSlice.getSource() == use.get() && use.get().hasOneUse() &&
           insertSlice.getDest().getDefiningOp<linalg::FillOp>();
  }

  if (isa<linalg::Mmt4DOp, linalg::BatchMmt4DOp>(producer))
    return false;

  if (!isFusionOp(producer) || !isFusionOp(consumer))
    return false;

  // Reductions never join as consumers.
  if (!isAllParallel(consumer))
    return false;

  FusionGroup &group = tracker.getFusionGroup(producer);
  if (!group.isFusable(consumer))
    return false;
  if (group.wouldExceedOperandLimit(consumer, knobs.maxOperands))
    return false;

  // Raw loop-count rule (unit dims included), outside aggressive mode.
  if (!knobs.aggressiveFusion && getNumLoops(producer) < getNumLoops(consumer))
    return false;

  // A consumer may not iterate over more non-unit dims than the root; IREE
  // counts only roots with loops of their own (LinalgFusionOpInterface), so
  // an unpack root lets a chain of consumers in.
  Operation *root = group.getRoot();
  if (isFusionOp(root) &&
      getNumNonUnitLoops(consumer) > getNumNonUnitLoops(root))
    return false;

  if (knobs.aggressiveFusion)
    return true;

  return convResultReusesABuffer(producer, consumer);
}

// Mirrors IREE's isFusableWithProducer (FormDispatchRegions.cpp).
bool Planner::isFusableWithProducer(OpOperand &use,
                                    bool fuseWithTruncate) const {
  Operation *producer = use.get().getDefiningOp();
  Operation *consumer = use.getOwner();

  // Truncate ordering: a truncate first gets the chance to join the group
  // computing its wide input.
  if (!fuseWithTruncate && isBitTruncateOp(producer))
    return false;

  if (isa<tensor::PadOp>(consumer))
    return knobs.fusePadWithProducers && isa<linalg::LinalgOp>(producer);

  if (knobs.fusePadWithConsumers && isa<tensor::PadOp>(producer)) {
    auto linalgConsumer = dyn_cast<linalg::LinalgOp>(consumer);
    if (linalgConsumer && linalg::isaConvolutionOpInterface(linalgConsumer))
      return true;
  }

  // Attention takes no producers (IREE: "TODO: Enable some producer
  // fusions"); its mask is cloned in instead.
  if (isa<linalg_ext::AttentionOp, linalg_ext::OnlineAttentionOp>(consumer))
    return false;

  if (auto pack = dyn_cast<linalg::PackOp>(consumer)) {
    if (isa<tensor::PadOp>(producer))
      return true;
    auto linalgProducer = dyn_cast<linalg::LinalgOp>(producer);
    if (!linalgProducer)
      return false;
    if (!pack.getInnerTiles().empty())
      return false;
    return linalgProducer
        .getIndexingMapMatchingResult(cast<OpResult>(use.get()))
        .isIdentity();
  }

  if (!isFusionOp(producer) || !isFusionOp(consumer))
    return false;

  // Outside aggressive mode producers join only through the DPS init.
  if (!knobs.aggressiveFusion) {
    auto dpsConsumer = dyn_cast<DestinationStyleOpInterface>(consumer);
    if (dpsConsumer && !dpsConsumer.isDpsInit(&use))
      return false;
  }

  FusionGroup &group = tracker.getFusionGroup(consumer);
  if (!group.isFusable(producer))
    return false;
  return !group.wouldExceedOperandLimit(producer, knobs.maxOperands);
}

// Mirrors areAllFusionGroupUsesFusableWithProducer: uses outside the group
// are left to hasExternalUserBlockingProducerFusion.
bool Planner::areAllGroupUsesFusableWithProducer(Operation *producer,
                                                 const FusionGroup &group,
                                                 bool fuseWithTruncate) const {
  Block *block = producer->getBlock();
  for (OpOperand &use : producer->getUses()) {
    Operation *owner = use.getOwner();
    Operation *ownerInBlock = block->findAncestorOpInBlock(*owner);
    if (!ownerInBlock || !group.contains(ownerInBlock))
      continue;
    if (ownerInBlock != owner || !isFusableWithProducer(use, fuseWithTruncate))
      return false;
  }
  return true;
}

// Mirrors IREE's hasExternalUserBlockingProducerFusion (RegionOpUtils.cpp). A
// user of `producer` that sits before the root would be moved after the
// dispatch; that is impossible if the group depends on it, or if it is a
// dispatch already.
bool Planner::hasExternalUserBlockingProducerFusion(
    Operation *root, Operation *producer, const FusionGroup &group,
    GroupDependencies &deps) const {
  Block *block = root->getBlock();
  SmallVector<Operation *> earlyUsers;
  for (Operation *user : producer->getUsers()) {
    Operation *owner = block->findAncestorOpInBlock(*user);
    if (!owner || group.contains(owner) || !owner->isBeforeInBlock(root))
      continue;
    if (isa<dispatch::RegionOp>(owner))
      return true;
    earlyUsers.push_back(owner);
  }
  if (earlyUsers.empty())
    return false;

  // Early users follow `producer`, so the group depends on one exactly when it
  // is among the group's dependencies at or after `producer`.
  return llvm::any_of(earlyUsers, [&](Operation *user) {
    return deps.contains(user, producer);
  });
}

void GroupDependencies::pushUsedValues(Operation *op) {
  auto push = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return;
    Operation *owner = block->findAncestorOpInBlock(*def);
    if (owner && seen.insert(owner).second)
      pending.push(owner);
  };
  for (Value operand : op->getOperands())
    push(operand);
  visitUsedValuesDefinedAbove(op->getRegions(),
                              [&](OpOperand *use) { push(use->get()); });
}

// A dependency at or after `bound` depends on the group only through ops
// after it, so walking down to `bound` finds all of them; ops before it wait
// in `pending` for a lower bound.
bool GroupDependencies::contains(Operation *op, Operation *bound) {
  if (!block) {
    block = group.getRoot()->getBlock();
    for (Operation *member : group.getFusedOperations())
      pushUsedValues(member);
  }
  while (!pending.empty() && !pending.top()->isBeforeInBlock(bound)) {
    Operation *dep = pending.top();
    pending.pop();
    deps.insert(dep);
    pushUsedValues(dep);
  }
  return deps.contains(op);
}

// Mirrors IREE's getFusableUses (FormDispatchRegions.cpp).
SmallVector<OpOperand *> Planner::getFusableUses(Operation *op) const {
  if (!knobs.aggressiveFusion) {
    llvm::SetVector<Operation *> consumers;
    for (Operation *user : op->getUsers())
      if (!isa<tensor::DimOp>(user))
        consumers.insert(user);
    if (consumers.size() != 1)
      return {};
  }
  SmallVector<OpOperand *> uses;
  for (OpResult result : op->getResults())
    for (OpOperand &use : result.getUses())
      if (!isa<tensor::DimOp>(use.getOwner()) &&
          use.getOwner()->getBlock() == op->getBlock())
        uses.push_back(&use);
  llvm::stable_sort(uses, [](OpOperand *a, OpOperand *b) {
    return a->getOwner() != b->getOwner() &&
           a->getOwner()->isBeforeInBlock(b->getOwner());
  });
  return uses;
}

// Mirrors IREE's fuseRootsWithProducers (FormDispatchRegions.cpp).
void Planner::fuseRootWithProducers(Operation *root, FusionGroup &group,
                                    bool fuseWithTruncate) {
  if (!knobs.dispatchFusion)
    return;
  // Valid for this whole call: it only adds producers of members.
  GroupDependencies deps(group);
  SmallVector<Operation *> worklist = {root};
  while (!worklist.empty()) {
    Operation *candidate = worklist.pop_back_val();
    for (OpOperand &operand : candidate->getOpOperands()) {
      Operation *producer = operand.get().getDefiningOp();
      if (!producer || producer->getBlock() != root->getBlock())
        continue;
      if (isCloneable(producer) || tracker.isFusedOp(producer))
        continue;
      if (!areAllGroupUsesFusableWithProducer(producer, group,
                                              fuseWithTruncate))
        continue;
      // Counts uses, not users: a producer read twice by one op is multi-use.
      if (!knobs.fuseMultiUse &&
          llvm::count_if(producer->getUses(), [](OpOperand &use) {
            return !isa<tensor::DimOp>(use.getOwner());
          }) != 1)
        continue;
      if (hasExternalUserBlockingProducerFusion(root, producer, group, deps))
        continue;
      tracker.appendToFusionGroup(producer, group);
      worklist.push_back(producer);
    }
  }
}

// Mirrors IREE's fuseRootsWithConsumers (FormDispatchRegions.cpp).
void Planner::fuseRootsWithConsumers(ArrayRef<Operation *> roots) {
  if (!knobs.dispatchFusion)
    return;
  for (Operation *root : roots) {
    FusionGroup &group = tracker.getFusionGroup(root);
    SmallVector<Operation *> worklist = {root};
    while (!worklist.empty()) {
      Operation *current = worklist.pop_back_val();
      llvm::MapVector<Operation *, SmallVector<OpOperand *>> usesByConsumer;
      for (OpOperand *use : getFusableUses(current))
        usesByConsumer[use->getOwner()].push_back(use);
      for (auto &[consumer, uses] : usesByConsumer) {
        if (tracker.isFusedOp(consumer))
          continue;
        if (group.hasTransitiveDependencyOnFusionGroup(consumer))
          continue;
        if (!llvm::all_of(uses, [&](OpOperand *use) {
              return isFusableWithConsumer(*use);
            }))
          continue;
        tracker.appendToFusionGroup(consumer, group);
        worklist.push_back(consumer);
      }
    }
  }
}

// The tail both sweeps share: consumers in program order, then producers
// again with truncates allowed.
void Planner::growRoots(ArrayRef<Operation *> reverseRoots) {
  SmallVector<Operation *> roots(llvm::reverse(reverseRoots));
  fuseRootsWithConsumers(roots);
  for (Operation *root : roots)
    fuseRootWithProducers(root, tracker.getFusionGroup(root),
                          /*fuseWithTruncate=*/true);
}

// Mirrors IREE's decideFusableLinalgOps (FormDispatchRegions.cpp).
void Planner::decide(Region &region) {
  const bool firstPassTruncates =
      knobs.truncateOrdering == TruncateOrdering::Eager;
  for (Block &block : region) {
    SmallVector<Operation *> roots;
    for (Operation &op : llvm::reverse(block)) {
      // Unregistered ops have no dialect; they are never scf.
      if (isa_and_nonnull<scf::SCFDialect>(op.getDialect())) {
        for (Region &nested : op.getRegions())
          decide(nested);
        continue;
      }
      if (tracker.isFusedOp(&op) || !isRootLikeOp(&op))
        continue;
      FusionGroup &group = tracker.createFusionGroup(&op);
      fuseRootWithProducers(&op, group, firstPassTruncates);
      roots.push_back(&op);
    }
    growRoots(roots);
  }

  // Fallback sweep: left-over Linalg, pad and pack ops become roots. Fills
  // are left to become splats and bit-extends to be cloned; a weight's pack
  // is const-evaluated in IREE before formation.
  for (Block &block : region) {
    SmallVector<Operation *> roots;
    for (Operation &op : llvm::reverse(block)) {
      if (tracker.isFusedOp(&op))
        continue;
      if (!isa<linalg::LinalgOp, tensor::PadOp, linalg::PackOp>(op) ||
          isCloneable(&op) || isWeightPack(&op))
        continue;
      // IREE's point fix for rope: a gather-like generic read only by
      // attention stays outside any dispatch.
      if (isGatherlikeOp(&op) && llvm::all_of(op.getUsers(), [](Operation *u) {
            return isa<linalg_ext::AttentionOp, linalg_ext::OnlineAttentionOp>(
                u);
          }))
        continue;
      FusionGroup &group = tracker.createFusionGroup(&op);
      fuseRootWithProducers(&op, group, firstPassTruncates);
      roots.push_back(&op);
    }
    growRoots(roots);
  }
}

void decideFusionGroups(Region &region, const HeuristicOptions &knobs,
                        FusionTracker &tracker) {
  if (knobs.dispatchFormation == DispatchFormation::Pr8723)
    return decideFusionGroupsPr8723(region, knobs, tracker);
  Planner{knobs, tracker}.decide(region);
}

} // namespace dispatchlab
