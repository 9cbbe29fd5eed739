//===- FusionGroup.h - planned dispatch groups ------------------*- C++ -*-===//
//
// The planning state of dispatch formation: groups of ops that will become
// one dispatch each, and the tracker that gives every op a single owner.
// Mirrors IREE's FusionGroup / FusionTracker (FormDispatchRegions.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_HEURISTICS_FUSIONGROUP_H
#define DISPATCHLAB_HEURISTICS_FUSIONGROUP_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <memory>
#include <vector>

namespace dispatchlab {

/// The loop map of a group root: from its outer-parallel loops to all of its
/// loops, with 0 at loops that are not outer-parallel (as IREE's FusionGroup
/// builds it from getOuterParallelLoops). Outer-parallel loops are the
/// leading run of parallel iterators.
mlir::AffineMap getRootLoopMap(mlir::Operation *op);

/// Number of outer-parallel loops of `op`.
unsigned getNumOuterParallelLoops(mlir::Operation *op);

class FusionGroup {
public:
  explicit FusionGroup(mlir::Operation *root);

  mlir::Operation *getRoot() const { return root; }
  bool contains(mlir::Operation *op) const { return loopMaps.count(op); }
  /// Group ops in insertion order, root first.
  llvm::SmallVector<mlir::Operation *> getFusedOperations() const;
  size_t size() const { return loopMaps.size(); }

  /// Adds `op`, recording its loop map (or its own root-style map when none
  /// can be computed, as IREE does for ops without the fusion interface).
  void insert(mlir::Operation *op);

  /// Mirrors `FusionGroup::getRootParallelLoopToOpMap`: the map from the
  /// root's outer-parallel dims to `op`'s loops, composed through the edges
  /// between `op` and the group. Fails on conflicting edges, on a
  /// consumer sharing no parallel dim with the root, and on a producer less
  /// parallel than the root. The producer check runs once on the merged map
  /// (IREE checks after each merge, which depends on use-list order).
  mlir::FailureOr<mlir::AffineMap>
  getRootParallelLoopToOpMap(mlir::Operation *op) const;

  /// Mirrors `FusionGroup::isFusable`.
  bool isFusable(mlir::Operation *op) const;

  /// Mirrors `FusionGroup::wouldExceedOperandLimit`: distinct outside defining
  /// ops (block arguments, fills and empties free) plus results used outside,
  /// over the group with `op` added, against `limit`. Kept incrementally so
  /// each query costs only `op`'s own operands and uses.
  bool wouldExceedOperandLimit(mlir::Operation *op, unsigned limit) const;

  /// Mirrors `FusionGroup::hasTransitiveDependencyOnFusionGroup`: true if
  /// `consumer` depends on the group through an op outside it, so fusing it
  /// would form a cycle. The walk stops at ops before the group's first op
  /// and at the first group op it reaches.
  bool hasTransitiveDependencyOnFusionGroup(mlir::Operation *consumer) const;

  /// The group's first op in block order.
  mlir::Operation *getEarliestOp() const { return earliest; }

private:
  /// The group op owning `op` at the group's block level, or null.
  mlir::Operation *ownerInGroup(mlir::Operation *op) const;
  /// Counts the values of `candidate` that would escape a group made of the
  /// current members plus `candidate`, and the escaping values of current
  /// members that `candidate` would make internal.
  void countEscapes(mlir::Operation *candidate, unsigned &added,
                    unsigned &removed) const;
  /// Outside defining ops `op` would add to the operand set.
  llvm::SmallVector<mlir::Operation *>
  collectNewExternalDefs(mlir::Operation *op) const;
  /// True if the outside block-level op `op` is reached from the group
  /// through outside ops only (memoized in `dependsOnGroup`).
  bool isReachedFromGroup(mlir::Operation *op) const;

  mlir::Operation *root;
  mlir::Operation *earliest;
  llvm::MapVector<mlir::Operation *, mlir::AffineMap> loopMaps;
  /// Distinct defining ops outside the group feeding it (the operands of
  /// wouldExceedOperandLimit).
  llvm::DenseSet<mlir::Operation *> externalDefs;
  /// Results of group ops with a user outside the group (its results).
  llvm::DenseSet<mlir::Value> escapingResults;
  /// isReachedFromGroup memo, so consumers sharing a long path to the group
  /// walk it once. A true entry stays true as the group grows; false ones are
  /// dropped by `insert` when a member lands at or before `latestUnreached`.
  mutable llvm::DenseMap<mlir::Operation *, bool> dependsOnGroup;
  mutable mlir::Operation *latestUnreached = nullptr;
};

/// Every group, in creation order, and which group owns each op.
class FusionTracker {
public:
  FusionGroup &createFusionGroup(mlir::Operation *root);
  void appendToFusionGroup(mlir::Operation *op, FusionGroup &group);

  bool isFusedOp(mlir::Operation *op) const { return opToGroup.count(op); }
  bool isRootOp(mlir::Operation *op) const {
    return isFusedOp(op) && getFusionGroup(op).getRoot() == op;
  }
  FusionGroup &getFusionGroup(mlir::Operation *op) const {
    return *opToGroup.lookup(op);
  }
  llvm::ArrayRef<std::unique_ptr<FusionGroup>> getGroups() const {
    return groups;
  }

private:
  std::vector<std::unique_ptr<FusionGroup>> groups;
  llvm::DenseMap<mlir::Operation *, FusionGroup *> opToGroup;
};

} // namespace dispatchlab

#endif // DISPATCHLAB_HEURISTICS_FUSIONGROUP_H
