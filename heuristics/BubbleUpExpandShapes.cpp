//===- BubbleUpExpandShapes.cpp - propagate expand_shape upwards ----------===//
//
// An upstream-pattern equivalent of IREE's DispatchCreation
// BubbleUpExpandShapes pass: expand_shape moves above elementwise
// generics (and collapse_shape below them) by expanding the generic's loops,
// so reshapes stop splitting elementwise chains from their producers.
//
// Divergences: IREE's LinalgExt expansion patterns and its
// expand-through-static-extract_slice pattern are not reproduced.
//
//===----------------------------------------------------------------------===//

#include "heuristics/FusionScope.h"
#include "heuristics/OpClassification.h"
#include "heuristics/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_BUBBLEUPEXPANDSHAPESPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

static bool isAllParallelLinalg(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumParallelLoops() == linalgOp.getNumLoops();
}

namespace {
struct BubbleUpExpandShapesPass
    : public dispatchlab::impl::BubbleUpExpandShapesPassBase<
          BubbleUpExpandShapesPass> {
  using BubbleUpExpandShapesPassBase::BubbleUpExpandShapesPassBase;

  void runOnOperation() override {
    // Mirrors IREE's bubble-up control function. `fusedOperand` links a
    // reshape and a Linalg op: either the generic produces the expand_shape's
    // source, or it consumes a collapse_shape's result.
    linalg::ControlFusionFn control = [&](OpOperand *fusedOperand) {
      Operation *producer = fusedOperand->get().getDefiningOp();
      Operation *consumer = fusedOperand->getOwner();
      if (!isInFusionScope(producer, consumer, /*intraDispatch=*/false))
        return false;
      // Extends are cloned into their users' dispatches; a reshape moved
      // past one would block that.
      if (isBitExtendOp(consumer))
        return false;
      if (isa<linalg::GenericOp>(producer))
        return aggressiveReshapeMovement || isAllParallelLinalg(producer);
      // Named ops keep their shapes.
      if (isa<linalg::LinalgOp>(producer))
        return false;
      if (isa<linalg::GenericOp>(consumer))
        return aggressiveReshapeMovement || isAllParallelLinalg(consumer);
      if (isa<linalg::LinalgOp>(consumer))
        return false;
      return true;
    };

    RewritePatternSet patterns(&getContext());
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, control);
    tensor::populateFoldTensorEmptyPatterns(patterns);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, &getContext());
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    GreedyRewriteConfig config;
    config.setMaxIterations(GreedyRewriteConfig::kNoLimit);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
  }
};
} // namespace
