//===- SinkReshapes.cpp - push expand_shape past its consumers ------------===//
//
// An upstream-pattern equivalent of IREE's DispatchCreation SinkReshapes
// pass: an expand_shape left after a Linalg op (typically a named op
// BubbleUpExpandShapes could not cross) is folded into its elementwise
// consumer by collapsing that consumer's loops, so producer and consumer can
// share a dispatch.
//
// Divergence: IREE's "is the consumer already fusable with another producer"
// test weighs parallel-loop counts in several steps; this keeps only its
// main rule (a single-use Linalg producer with as many parallel loops as the
// consumer wins, so the reshape stays).
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
#define GEN_PASS_DEF_SINKRESHAPESPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

// Producers dispatch formation can tile and fuse with a consumer.
static bool isTileAndFusable(Operation *op) {
  return isa_and_nonnull<linalg::LinalgOp, linalg::UnPackOp>(op) ||
         isFusionOp(op);
}

// Mirrors IREE's shouldSinkExpandShapeOp (simplified, see file comment).
static bool shouldSinkExpandShape(OpOperand *operand) {
  auto expand = operand->get().getDefiningOp<tensor::ExpandShapeOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
  if (!expand || !consumer ||
      !isInFusionScope(expand, consumer, /*intraDispatch=*/false))
    return false;
  if (consumer.getNumParallelLoops() != consumer.getNumLoops() ||
      isBitExtendOp(consumer))
    return false;
  // A reshaped function argument (e.g. a parameter) has no producer to fuse.
  Operation *source = expand.getSrc().getDefiningOp();
  if (!source || !isTileAndFusable(source))
    return false;
  for (OpOperand &other : consumer->getOpOperands()) {
    auto producer = other.get().getDefiningOp<linalg::LinalgOp>();
    if (producer && producer->hasOneUse() &&
        producer.getNumParallelLoops() == consumer.getNumParallelLoops())
      return false;
  }
  return true;
}

namespace {
struct SinkReshapesPass
    : public dispatchlab::impl::SinkReshapesPassBase<SinkReshapesPass> {
  using SinkReshapesPassBase::SinkReshapesPassBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateFoldReshapeOpsByCollapsingPatterns(patterns,
                                                       shouldSinkExpandShape);
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
