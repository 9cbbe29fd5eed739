//===- FoldUnitExtentDims.cpp - IREE's unit-extent-dim folding -----------===//
//
// Mirrors IREE's DispatchCreation FoldUnitExtentDimsForFuncPass for the ops
// our IR holds: upstream's linalg unit-extent-dim folding under IREE's
// control, then upstream's clean-up patterns.
//
//===----------------------------------------------------------------------===//

#include "heuristics/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_FOLDUNITEXTENTDIMSPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

// IREE's getControlDropUnitDimsOptions: upstream's choice of dims (every
// loop of a generic, every dim of a pad), except that ops already inside a
// dispatch keep theirs. IREE's encoding-aware reshape builders reduce to
// upstream's reassociative reshapes on our encoding-free tensors.
static linalg::ControlDropUnitDims unitDimsOutsideDispatches() {
  linalg::ControlDropUnitDims options;
  options.rankReductionStrategy =
      linalg::ControlDropUnitDims::RankReductionStrategy::ReassociativeReshape;
  auto upstreamChoice = options.controlFn;
  options.controlFn = [=](Operation *op) {
    if (!op || op->getParentOfType<dispatch::RegionOp>())
      return SmallVector<unsigned>{};
    return upstreamChoice(op);
  };
  return options;
}

namespace {
struct FoldUnitExtentDimsPass
    : public dispatchlab::impl::FoldUnitExtentDimsPassBase<
          FoldUnitExtentDimsPass> {
  using FoldUnitExtentDimsPassBase::FoldUnitExtentDimsPassBase;

  void runOnOperation() override {
    Operation *func = getOperation();
    linalg::ControlDropUnitDims options = unitDimsOutsideDispatches();
    {
      // Upstream's folding patterns must not run under a greedy driver.
      RewritePatternSet patterns(&getContext());
      linalg::populateFoldUnitExtentDimsPatterns(patterns, options);
      walkAndApplyPatterns(func, std::move(patterns));
    }
    RewritePatternSet cleanup(&getContext());
    linalg::populateMoveInitOperandsToInputPattern(cleanup);
    linalg::populateFoldUnitExtentDimsCanonicalizationPatterns(cleanup,
                                                               options);
    if (failed(applyPatternsGreedily(func, std::move(cleanup))))
      return signalPassFailure();
  }
};
} // namespace
