//===- FusionPlanner.h - decide dispatch groups -----------------*- C++ -*-===//
//
// The planning half of FormDispatchRegions: which ops become roots and which
// producers and consumers join them. Nothing is rewritten here, so the plan
// can be inspected (and benchmarked) on its own.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_HEURISTICS_FUSIONPLANNER_H
#define DISPATCHLAB_HEURISTICS_FUSIONPLANNER_H

#include "heuristics/FusionGroup.h"
#include "heuristics/OpClassification.h"

#include "mlir/IR/Region.h"

namespace dispatchlab {

/// The FormDispatchRegions knobs, as IREE's pass options plus our own.
struct FusionKnobs {
  bool aggressiveFusion = false;
  bool fuseMultiUseProducers = true;
  bool fusePadWithConsumers = false;
  bool fusePadWithProducers = false;
  /// IREE's truncate ordering; false = truncates fuse in every producer pass.
  bool deferTruncates = true;
  /// False: every root is alone in its group (the no-fusion reference).
  bool dispatchFusion = true;
  unsigned maxOperands = 16;
  CloneableOptions cloneable;
};

/// Mirrors IREE's `decideFusableLinalgOps` over `region` (spec section 4):
/// the root sweep with producer/consumer/truncate passes, then the fallback
/// sweep, recursing into scf regions.
void decideFusionGroups(mlir::Region &region, const FusionKnobs &knobs,
                        FusionTracker &tracker);

} // namespace dispatchlab

#endif // DISPATCHLAB_HEURISTICS_FUSIONPLANNER_H
