//===- FusionGroup.cpp - planned dispatch groups --------------------------===//

#include "heuristics/FusionGroup.h"

#include "heuristics/OpClassification.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace dispatchlab {

unsigned getNumOuterParallelLoops(Operation *op) {
  unsigned count = 0;
  for (utils::IteratorType type : getIteratorTypes(op)) {
    if (!linalg::isParallelIterator(type))
      break;
    ++count;
  }
  return count;
}

// Mirrors IREE's root loop map: inverseAndBroadcastProjectedPermutation of the
// identity restricted to the outer-parallel loops.
AffineMap getRootLoopMap(Operation *op) {
  MLIRContext *ctx = op->getContext();
  unsigned numLoops = getIteratorTypes(op).size();
  unsigned numParallel = getNumOuterParallelLoops(op);
  SmallVector<AffineExpr> results;
  for (unsigned i = 0; i < numLoops; ++i)
    results.push_back(i < numParallel ? getAffineDimExpr(i, ctx)
                                      : getAffineConstantExpr(0, ctx));
  return AffineMap::get(numParallel, 0, results, ctx);
}

FusionGroup::FusionGroup(Operation *root) : root(root), earliest(root) {
  loopMaps[root] = getRootLoopMap(root);
  for (Operation *def : collectNewExternalDefs(root))
    externalDefs.insert(def);
  for (Value result : root->getResults())
    if (!result.use_empty())
      escapingResults.insert(result);
}

SmallVector<Operation *> FusionGroup::getFusedOperations() const {
  SmallVector<Operation *> ops;
  for (const auto &entry : loopMaps)
    ops.push_back(entry.first);
  return ops;
}

Operation *FusionGroup::ownerInGroup(Operation *op) const {
  Operation *ancestor = root->getBlock()->findAncestorOpInBlock(*op);
  return ancestor && contains(ancestor) ? ancestor : nullptr;
}

// Mirrors IREE's computeIterationSpaceMapping (LinalgExt's LoopMappingUtils).
static FailureOr<AffineMap> composeThroughEdge(AffineMap producerResultMap,
                                               AffineMap consumerOperandMap,
                                               AffineMap sourceMap) {
  // A null map (scatter's original) or maps over different loop counts
  // (scatter's indices) give no mapping.
  if (!producerResultMap || !consumerOperandMap || !sourceMap ||
      consumerOperandMap.getNumResults() != producerResultMap.getNumResults() ||
      producerResultMap.getNumDims() != sourceMap.getNumResults())
    return failure();
  if (!producerResultMap.isProjectedPermutation() ||
      !consumerOperandMap.isProjectedPermutation())
    return failure();
  AffineMap inverse =
      inverseAndBroadcastProjectedPermutation(consumerOperandMap);
  return inverse.compose(producerResultMap).compose(sourceMap);
}

// Merges `map` into `merged` position by position: a constant 0 yields to a
// concrete expression; two different concrete expressions conflict.
static LogicalResult mergeLoopMaps(std::optional<AffineMap> &merged,
                                   AffineMap map) {
  if (!merged) {
    merged = map;
    return success();
  }
  if (merged->getNumResults() != map.getNumResults() ||
      merged->getNumDims() != map.getNumDims())
    return failure();
  SmallVector<AffineExpr> results(merged->getResults());
  for (auto [index, expr] : llvm::enumerate(map.getResults())) {
    auto isZero = [](AffineExpr e) {
      auto constant = dyn_cast<AffineConstantExpr>(e);
      return constant && constant.getValue() == 0;
    };
    if (isZero(expr))
      continue;
    if (isZero(results[index])) {
      results[index] = expr;
      continue;
    }
    if (results[index] != expr)
      return failure();
  }
  merged = AffineMap::get(map.getNumDims(), 0, results, map.getContext());
  return success();
}

FailureOr<AffineMap>
FusionGroup::getRootParallelLoopToOpMap(Operation *op) const {
  if (!isFusionOp(op))
    return failure();

  bool isConsumer = llvm::any_of(op->getOperands(), [&](Value v) {
    Operation *def = v.getDefiningOp();
    return def && contains(def);
  });

  std::optional<AffineMap> merged;
  if (isConsumer) {
    for (OpOperand &operand : op->getOpOperands()) {
      Operation *producer = operand.get().getDefiningOp();
      if (!producer || !contains(producer) || !isFusionOp(producer))
        continue;
      FailureOr<AffineMap> map =
          composeThroughEdge(getResultMap(cast<OpResult>(operand.get())),
                             getOperandMap(operand), loopMaps.lookup(producer));
      if (failed(map))
        return failure();
      // A consumer sharing no parallel dim with the root cannot be tiled
      // along with it.
      if (map->getNumDims() > 0 &&
          llvm::all_of(map->getResults(), [](AffineExpr e) {
            auto constant = dyn_cast<AffineConstantExpr>(e);
            return constant && constant.getValue() == 0;
          }))
        return failure();
      if (failed(mergeLoopMaps(merged, *map)))
        return failure();
    }
  } else {
    for (OpResult result : op->getResults()) {
      for (OpOperand &use : result.getUses()) {
        Operation *user = use.getOwner();
        if (!contains(user) || !isFusionOp(user))
          continue;
        FailureOr<AffineMap> map = composeThroughEdge(
            getOperandMap(use), getResultMap(result), loopMaps.lookup(user));
        if (failed(map) || failed(mergeLoopMaps(merged, *map)))
          return failure();
      }
    }
    // A producer cannot be less parallel than the root.
    if (merged &&
        compressUnusedDims(*merged).getNumDims() != merged->getNumDims())
      return failure();
  }
  if (!merged)
    return failure();
  return *merged;
}

bool FusionGroup::isFusable(Operation *op) const {
  // Fusion is through operand edges only: a body capturing a group value
  // (say a tensor.extract of a group result) cannot join.
  bool capturesGroupValue = false;
  visitUsedValuesDefinedAbove(op->getRegions(), [&](OpOperand *operand) {
    if (Operation *def = operand->get().getDefiningOp())
      if (ownerInGroup(def))
        capturesGroupValue = true;
  });
  if (capturesGroupValue)
    return false;

  FailureOr<AffineMap> map = getRootParallelLoopToOpMap(op);
  if (failed(map))
    return false;
  // An op with reductions must tile exactly like the root.
  if (getNumOuterParallelLoops(op) != getIteratorTypes(op).size())
    return loopMaps.lookup(root) == *map;
  return true;
}

void FusionGroup::insert(Operation *op) {
  FailureOr<AffineMap> map = getRootParallelLoopToOpMap(op);
  for (Operation *def : collectNewExternalDefs(op))
    externalDefs.insert(def);
  externalDefs.erase(op);
  // Update escaping results before `op` becomes a member.
  for (Value operand : op->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (!def || !contains(def) || !escapingResults.count(operand))
      continue;
    bool usedOutside = llvm::any_of(operand.getUsers(), [&](Operation *user) {
      Operation *owner = root->getBlock()->findAncestorOpInBlock(*user);
      return !owner || (owner != op && !contains(owner));
    });
    if (!usedOutside)
      escapingResults.erase(operand);
  }
  loopMaps[op] = succeeded(map) ? *map : getRootLoopMap(op);
  for (Value result : op->getResults()) {
    bool usedOutside = llvm::any_of(result.getUsers(), [&](Operation *user) {
      Operation *owner = root->getBlock()->findAncestorOpInBlock(*user);
      return !owner || !contains(owner);
    });
    if (usedOutside)
      escapingResults.insert(result);
  }
  if (op->getBlock() == earliest->getBlock() && op->isBeforeInBlock(earliest))
    earliest = op;
  // Uses follow defs, so `op` can only reach ops after it: "unreached" memo
  // entries before it stay exact; otherwise drop them all.
  if (latestUnreached && (op->getBlock() != latestUnreached->getBlock() ||
                          !latestUnreached->isBeforeInBlock(op))) {
    for (auto it = dependsOnGroup.begin(), end = dependsOnGroup.end();
         it != end;) {
      auto current = it++;
      if (!current->second)
        dependsOnGroup.erase(current);
    }
    latestUnreached = nullptr;
  }
}

SmallVector<Operation *>
FusionGroup::collectNewExternalDefs(Operation *op) const {
  SmallVector<Operation *> defs;
  auto consider = [&](Value value) {
    if (!isa<RankedTensorType>(value.getType()))
      return;
    Operation *def = value.getDefiningOp();
    if (!def || def == op || contains(def) ||
        isa<linalg::FillOp, tensor::EmptyOp>(def) || externalDefs.count(def))
      return;
    if (!llvm::is_contained(defs, def))
      defs.push_back(def);
  };
  for (Value operand : op->getOperands())
    consider(operand);
  visitUsedValuesDefinedAbove(op->getRegions(),
                              [&](OpOperand *use) { consider(use->get()); });
  return defs;
}

void FusionGroup::countEscapes(Operation *candidate, unsigned &added,
                               unsigned &removed) const {
  added = removed = 0;
  Block *block = root->getBlock();
  for (Value result : candidate->getResults()) {
    if (llvm::any_of(result.getUsers(), [&](Operation *user) {
          Operation *owner = block->findAncestorOpInBlock(*user);
          return !owner || (owner != candidate && !contains(owner));
        }))
      ++added;
  }
  llvm::SmallDenseSet<Value> seen;
  for (Value operand : candidate->getOperands()) {
    if (!escapingResults.count(operand) || !seen.insert(operand).second)
      continue;
    bool stillEscapes = llvm::any_of(operand.getUsers(), [&](Operation *user) {
      Operation *owner = block->findAncestorOpInBlock(*user);
      return !owner || (owner != candidate && !contains(owner));
    });
    if (!stillEscapes)
      ++removed;
  }
}

bool FusionGroup::wouldExceedOperandLimit(Operation *op, unsigned limit) const {
  unsigned numOperands = externalDefs.size() - externalDefs.count(op) +
                         collectNewExternalDefs(op).size();
  unsigned added, removed;
  countEscapes(op, added, removed);
  unsigned numResults = escapingResults.size() - removed + added;
  return numOperands + numResults > limit;
}

// Same answer as IREE's backward walk from `consumer`, stopping at group ops
// and at ops before the group, but per op instead of per query: whether an
// outside op is reached from the group is memoized across queries (see
// isReachedFromGroup), so consumers sharing a long path walk it once.
bool FusionGroup::hasTransitiveDependencyOnFusionGroup(
    Operation *consumer) const {
  Block *block = root->getBlock();
  bool depends = false;
  auto check = [&](Value value) {
    Operation *def = value.getDefiningOp();
    // A direct use of a group value is the edge fusion is about.
    if (depends || !def || contains(def))
      return;
    Operation *owner = block->findAncestorOpInBlock(*def);
    // Ops outside this block, or before the group's first op, dominate the
    // whole group and cannot depend on it.
    if (!owner || owner->isBeforeInBlock(earliest))
      return;
    depends = contains(owner) || isReachedFromGroup(owner);
  };
  for (Value operand : consumer->getOperands())
    check(operand);
  visitUsedValuesDefinedAbove(consumer->getRegions(),
                              [&](OpOperand *use) { check(use->get()); });
  return depends;
}

// Depth-first over what `start` reads. On success every op on the stack reads
// the next one down to a reached op, so all are reached; an op whose inputs
// are all exhausted is not reached by the current members.
bool FusionGroup::isReachedFromGroup(Operation *start) const {
  auto memo = dependsOnGroup.find(start);
  if (memo != dependsOnGroup.end())
    return memo->second;
  Block *block = root->getBlock();
  auto getInputs = [&](Operation *op) {
    SmallVector<Operation *> inputs;
    auto add = [&](Value value) {
      Operation *def = value.getDefiningOp();
      if (!def)
        return;
      Operation *owner = block->findAncestorOpInBlock(*def);
      if (owner && !owner->isBeforeInBlock(earliest))
        inputs.push_back(owner);
    };
    for (Value operand : op->getOperands())
      add(operand);
    visitUsedValuesDefinedAbove(op->getRegions(),
                                [&](OpOperand *use) { add(use->get()); });
    return inputs;
  };
  struct Frame {
    Operation *op;
    SmallVector<Operation *> inputs;
    unsigned next = 0;
  };
  SmallVector<Frame> stack;
  llvm::SmallPtrSet<Operation *, 16> onStack;
  stack.push_back({start, getInputs(start)});
  onStack.insert(start);
  while (!stack.empty()) {
    Frame &frame = stack.back();
    if (frame.next == frame.inputs.size()) {
      dependsOnGroup[frame.op] = false;
      if (!latestUnreached || latestUnreached->isBeforeInBlock(frame.op))
        latestUnreached = frame.op;
      onStack.erase(frame.op);
      stack.pop_back();
      continue;
    }
    Operation *input = frame.inputs[frame.next++];
    auto it = dependsOnGroup.find(input);
    if (contains(input) || (it != dependsOnGroup.end() && it->second)) {
      for (Frame &reached : stack)
        dependsOnGroup[reached.op] = true;
      return true;
    }
    if (it != dependsOnGroup.end() || !onStack.insert(input).second)
      continue;
    stack.push_back({input, getInputs(input)});
  }
  return false;
}

FusionGroup &FusionTracker::createFusionGroup(Operation *root) {
  groups.push_back(std::make_unique<FusionGroup>(root));
  opToGroup[root] = groups.back().get();
  return *groups.back();
}

void FusionTracker::appendToFusionGroup(Operation *op, FusionGroup &group) {
  assert(!isFusedOp(op) && "op already in a group");
  group.insert(op);
  opToGroup[op] = &group;
}

} // namespace dispatchlab
