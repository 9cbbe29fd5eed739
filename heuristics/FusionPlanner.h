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
#include "heuristics/HeuristicOptions.h"
#include "heuristics/OpClassification.h"

#include "mlir/IR/Region.h"

namespace dispatchlab {

/// Mirrors IREE's `decideFusableLinalgOps` over `region`
/// (FormDispatchRegions.cpp): the root sweep with producer/consumer/truncate
/// passes, then the fallback sweep, recursing into scf regions.
void decideFusionGroups(mlir::Region &region, const HeuristicOptions &knobs,
                        FusionTracker &tracker);

/// Mirrors the grouping of IREE's DispatchLinalgOnTensors of mid-2022
/// (`dispatch-formation=pr8723`): roots with their init producers and
/// single-use identity consumer chains, every other Linalg op alone.
void decideFusionGroupsPr8723(mlir::Region &region,
                              const HeuristicOptions &knobs,
                              FusionTracker &tracker);

} // namespace dispatchlab

#endif // DISPATCHLAB_HEURISTICS_FUSIONPLANNER_H
