//===- DispatchRegionBuilder.h - materialize dispatch regions --*- C++ -*-===//

#ifndef DISPATCHLAB_HEURISTICS_DISPATCHREGIONBUILDER_H
#define DISPATCHLAB_HEURISTICS_DISPATCHREGIONBUILDER_H

#include "heuristics/DispatchDialect.h"
#include "heuristics/OpClassification.h"

#include "mlir/IR/PatternMatch.h"

namespace dispatchlab {

/// Moves `ops` (all in one block) into a new `dispatch.region` placed after
/// the last of them. Results used outside become region results. Ops between
/// the group's ops that depend on the group are moved after the region, as
/// IREE's movePrecedingOpsIntoDispatchRegion moves external users of fused
/// producers. Fails, leaving the IR unchanged, if the group would form a
/// cycle with an outside op.
mlir::FailureOr<dispatch::RegionOp>
wrapOpsInDispatchRegion(mlir::RewriterBase &rewriter,
                        llvm::ArrayRef<mlir::Operation *> ops);

/// Moves `consumer`, whose operands are results of `region` or values
/// defined before it, to the end of `region`, which returns its results
/// instead of those it read when nothing else reads them (IREE's
/// moveFollowingOpIntoDispatchRegion).
mlir::LogicalResult moveConsumerIntoDispatchRegion(mlir::RewriterBase &rewriter,
                                                   mlir::Operation *consumer,
                                                   dispatch::RegionOp region);

/// Mirrors IREE's cloneProducersToRegion: repeatedly clones cloneable
/// producers of captured values into `region` until none is left.
void cloneProducersIntoRegion(mlir::RewriterBase &rewriter,
                              dispatch::RegionOp region,
                              const HeuristicOptions &options);

} // namespace dispatchlab

#endif // DISPATCHLAB_HEURISTICS_DISPATCHREGIONBUILDER_H
