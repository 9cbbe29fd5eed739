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

namespace dispatchlab {
#define GEN_PASS_DEF_FORMDISPATCHREGIONSPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

namespace {
struct FormDispatchRegionsPass
    : public dispatchlab::impl::FormDispatchRegionsPassBase<
          FormDispatchRegionsPass> {
  using FormDispatchRegionsPassBase::FormDispatchRegionsPassBase;

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (func.isExternal())
      return;

    FusionKnobs knobs;
    knobs.aggressiveFusion = aggressiveFusion;
    knobs.fuseMultiUseProducers = fuseMultiUseProducers;
    knobs.fusePadWithConsumers = fusePadWithConsumers;
    knobs.fusePadWithProducers = fusePadWithProducers;
    knobs.deferTruncates = deferTruncates;
    knobs.dispatchFusion = dispatchFusion;
    knobs.maxOperands = maxOperands;
    knobs.cloneable.aggressive = aggressiveFusion;
    knobs.cloneable.inlineConstantBytes = inlineConstantBytes;

    FusionTracker tracker;
    decideFusionGroups(func.getFunctionBody(), knobs, tracker);

    IRRewriter rewriter(func.getContext());
    for (const auto &group : tracker.getGroups()) {
      if (failed(wrapOpsInDispatchRegion(rewriter,
                                         group->getFusedOperations()))) {
        group->getRoot()->emitOpError(
            "dispatch group would form a cycle with an op outside it");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
