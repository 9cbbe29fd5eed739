//===- ElementwiseOpFusion.cpp - producer/consumer generic fusion ---------===//
//
// Mirrors IREE's DispatchCreation ElementwiseOpFusion pass: upstream
// linalg elementwise fusion, gated by IREE's control function.
//
// The pr8723-* values of the elementwise-fusion knob run
// FusionOfTensorOpsPr8723 instead (IREE's pass of that time).
//
// Divergences: IREE also inlines bit-extend producers into consumers that
// `tensor.extract` from them ("gather fusion") and fuses LinalgExt ops with
// transposes; neither is reproduced (the first only touches ops that are
// cloned into dispatches anyway, the second has no upstream ops). IREE does
// no reshape propagation in this pass; that lives in BubbleUpExpandShapes and
// SinkReshapes.
//
//===----------------------------------------------------------------------===//

#include "heuristics/FusionScope.h"
#include "heuristics/OpClassification.h"
#include "heuristics/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_ELEMENTWISEOPFUSIONPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

namespace {
struct FusabilityOptions {
  bool fuseMultiReduction;
  bool fuseTruncateOps;
  bool fuseBroadcastOps;
};
} // namespace

// A generic that only copies one input into a higher-rank result.
static bool isPureBroadcast(Operation *op) {
  if (isa<linalg::BroadcastOp>(op))
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return false;
  AffineMap inputMap =
      generic.getMatchingIndexingMap(generic.getDpsInputOperand(0));
  AffineMap outputMap =
      generic.getMatchingIndexingMap(generic.getDpsInitOperand(0));
  if (!outputMap.isIdentity() ||
      inputMap.getNumResults() >= outputMap.getNumResults())
    return false;
  Block &body = generic.getRegion().front();
  return body.getOperations().size() == 1 &&
         body.getTerminator()->getOperand(0) == body.getArgument(0);
}

// Mirrors IREE's areFusableAsElementwiseOps (FusionUtils.cpp), rule by rule
// and in the same order.
static bool areFusableAsElementwiseOps(OpOperand *fusedOperand,
                                       const FusabilityOptions &options) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  Operation *consumer = fusedOperand->getOwner();

  if (yieldsOnlyI1(producer) || onlyCopies(producer))
    return true;

  auto linalgConsumer = dyn_cast<linalg::LinalgOp>(consumer);
  if (!linalgConsumer)
    return false;

  bool consumerAllParallel =
      linalgConsumer.getNumParallelLoops() == linalgConsumer.getNumLoops();
  if (consumerAllParallel &&
      llvm::all_of(linalgConsumer.getBlock()->getArguments(),
                   [](BlockArgument arg) { return arg.use_empty(); }))
    return true;

  // Never recompute a producer for several consumers.
  if (!producer->hasOneUse())
    return false;

  if (!options.fuseBroadcastOps && isPureBroadcast(consumer))
    return false;

  // Extends are cloned into every user dispatch; fusing into a multi-use
  // extend would clone the producer's work too.
  if (isBitExtendOp(consumer) && !consumer->hasOneUse())
    return false;

  // Keep narrowing casts with the wide computation so the dispatch boundary
  // carries the narrow type (IREE: fuseWithTruncate in FormDispatchRegions).
  if (!options.fuseTruncateOps && isBitTruncateOp(producer)) {
    if (isBitExtendOp(consumer))
      return false;
    bool unaryElementwise =
        consumerAllParallel && linalgConsumer.getNumDpsInputs() == 1;
    if (!isBitTruncateOp(consumer) && !unaryElementwise)
      return false;
  }

  if (!consumerAllParallel) {
    if (!linalgConsumer.getMatchingIndexingMap(fusedOperand).isPermutation())
      return false;
    if (!options.fuseMultiReduction &&
        linalgConsumer.getNumReductionLoops() > 1)
      return false;
    if (linalg::isaContractionOpInterface(linalgConsumer) ||
        linalg::isaConvolutionOpInterface(linalgConsumer))
      return false;
  }
  return true;
}

// The control function of `mode`, beside the binding-count guard.
static bool isFusableUnder(ElementwiseFusionMode mode, OpOperand *fusedOperand,
                           const FusabilityOptions &options) {
  switch (mode) {
  case ElementwiseFusionMode::Iree:
    return areFusableAsElementwiseOps(fusedOperand, options);
  case ElementwiseFusionMode::Pr8723Base:
  case ElementwiseFusionMode::Pr8723V1:
  case ElementwiseFusionMode::Pr8723V2:
    llvm_unreachable("pr8723 modes run FusionOfTensorOpsPr8723");
  case ElementwiseFusionMode::Upstream:
  case ElementwiseFusionMode::Off:
    return true;
  }
  llvm_unreachable("unknown elementwise fusion mode");
}

namespace {
struct ElementwiseOpFusionPass
    : public dispatchlab::impl::ElementwiseOpFusionPassBase<
          ElementwiseOpFusionPass> {
  using ElementwiseOpFusionPassBase::ElementwiseOpFusionPassBase;

  void runOnOperation() override {
    if (mode == ElementwiseFusionMode::Off)
      return;
    FusabilityOptions options{fuseMultiReduction, fuseTruncateOps,
                              fuseBroadcastOps};

    linalg::ControlFusionFn control = [&](OpOperand *fusedOperand) {
      Operation *producer = fusedOperand->get().getDefiningOp();
      Operation *consumer = fusedOperand->getOwner();
      if (!isInFusionScope(producer, consumer, intraDispatch))
        return false;
      if (mode == ElementwiseFusionMode::Upstream)
        return true;

      // IREE's binding-count guard.
      if (getNumFusedOperandValues(fusedOperand) >= maxOperands)
        return false;

      return isFusableUnder(mode, fusedOperand, options);
    };

    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    GreedyRewriteConfig config;
    config.setMaxIterations(GreedyRewriteConfig::kNoLimit);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
  }
};
} // namespace
