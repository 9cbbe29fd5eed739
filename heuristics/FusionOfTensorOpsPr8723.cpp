//===- FusionOfTensorOpsPr8723.cpp - IREE's elementwise fusion of 2022 ----===//
//
// Mirrors IREE's Flow FusionOfTensorOps around PR #8723 (seed 003's
// elementwise-fusion history). The PR changed two control functions of the
// pass, and each mode has both:
// - which producer generic fuses into its consumer (isFusableBeforePr8723,
//   isFusableAfterPr8723);
// - how reshapes fold into generics. Before the PR (pr8723-base, read at
//   iree-org/iree bd7cd4fe) a collapse_shape folded into its consumer by
//   expansion only when a Linalg op produced its source, and the unit-dim
//   reshapes left after fusion folded into the indexing maps of the generics
//   next to them (upstream's FoldUnitDimsReshapeOpsByLinearization patterns
//   of the time, since removed: ours below). After it (pr8723-v1, -v2; read
//   at a mid-2022 revision) reshapes always fold by expansion unless that
//   recomputes a generic with several users, and then an expand_shape folds
//   into its consumer by collapsing when it keeps that consumer from tile
//   and fuse with every producer.
// IREE ran the pass after upstream FoldUnitExtentDims, as the pipeline does.
// Upstream's patterns of 2022 expanded only all-parallel generics; the
// control functions keep that.
//
// Not modelled: base's last step, pushing the expand_shapes left after
// linearization down through elementwise generics, and the PR's constant
// folding of Linalg ops (weights are parameters here, not constants).
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
#define GEN_PASS_DEF_FUSIONOFTENSOROPSPR8723PASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

static bool isI1Type(Type type) {
  return getElementTypeOrSelf(type).isInteger(1);
}

// A copy whose input is broadcast to a higher rank: what base fused whatever
// its uses ("isBroadcast").
static bool isBroadcastingCopy(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !isAllParallel(generic) || !onlyCopies(generic))
    return false;
  return llvm::any_of(generic.getDpsInputOperands(), [&](OpOperand *input) {
    AffineMap map = generic.getMatchingIndexingMap(input);
    return map.isProjectedPermutation() &&
           map.getNumDims() != map.getNumResults();
  });
}

static bool isAllParallelGeneric(Operation *op) {
  return isa_and_nonnull<linalg::GenericOp>(op) && isAllParallel(op);
}

//===----------------------------------------------------------------------===//
// Elementwise fusion
//===----------------------------------------------------------------------===//

// Before the PR: no fusion into reductions (CPU vectorization did not handle
// them, IREE #5611); a producer fuses if its result has one user, or it is a
// broadcasting copy or yields i1, and every user of the result is a
// linalg.generic (a named-op user computes it anyway).
static bool isFusableBeforePr8723(OpOperand *fusedOperand) {
  auto result = cast<OpResult>(fusedOperand->get());
  Operation *producer = result.getOwner();
  auto consumer = dyn_cast<linalg::GenericOp>(fusedOperand->getOwner());
  if (consumer && consumer.getNumReductionLoops())
    return false;
  bool cheapToRecompute = isBroadcastingCopy(producer) ||
                          llvm::any_of(producer->getResultTypes(), isI1Type);
  if (!cheapToRecompute && !llvm::hasSingleElement(result.getUsers()))
    return false;
  return llvm::all_of(result.getUsers(), llvm::IsaPred<linalg::GenericOp>);
}

// The PR as landed (v2, areFusableOps): i1 producers, single-use producers
// and pure copies fuse, nothing else, so nothing is computed twice. Its first
// version (v1) also fused a producer of a lower-dimensional iteration space
// into each of its consumers, recomputing it in every one ("redundant
// computation").
static bool isFusableAfterPr8723(OpOperand *fusedOperand,
                                 bool allowRedundantComputation) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  if (yieldsOnlyI1(producer) || producer->hasOneUse() || onlyCopies(producer))
    return true;
  auto consumer = dyn_cast<linalg::LinalgOp>(fusedOperand->getOwner());
  return allowRedundantComputation && consumer &&
         cast<linalg::LinalgOp>(producer).getNumLoops() <
             consumer.getNumLoops();
}

//===----------------------------------------------------------------------===//
// Reshape folding
//===----------------------------------------------------------------------===//

// `fusedOperand` links a reshape and a generic: a generic reading a
// collapse_shape, or an expand_shape reading a generic. Base folded the
// first kind only, when a Linalg op produces the collapsed value.
static bool foldsByExpansionBeforePr8723(OpOperand *fusedOperand) {
  auto collapse = fusedOperand->get().getDefiningOp<tensor::CollapseShapeOp>();
  return collapse && isAllParallelGeneric(fusedOperand->getOwner()) &&
         collapse.getSrc().getDefiningOp<linalg::LinalgOp>();
}

// The PR: always, unless the generic producing the reshaped value has other
// users (it would be computed twice).
static bool foldsByExpansionAfterPr8723(OpOperand *fusedOperand) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  if (isa_and_nonnull<linalg::GenericOp>(producer))
    return isAllParallelGeneric(producer) && producer->hasOneUse();
  return isa<tensor::CollapseShapeOp>(producer) &&
         isAllParallelGeneric(fusedOperand->getOwner());
}

// IREE's areLinalgOpsFusableUsingTileAndFuse of mid-2022: a single-result
// Linalg producer read with the identity map by an all-parallel consumer.
static bool fusesByTileAndFuse(OpOperand *use) {
  auto producer = use->get().getDefiningOp<linalg::LinalgOp>();
  auto consumer = dyn_cast<linalg::LinalgOp>(use->getOwner());
  return producer && consumer && producer->getNumResults() == 1 &&
         isAllParallel(consumer) &&
         consumer.getMatchingIndexingMap(use).isIdentity();
}

// The PR's fold by collapsing: an expand_shape into its generic consumer,
// only when the reshape is what blocks tile and fuse (no input of the
// consumer fuses that way already).
static bool foldsByCollapsingAfterPr8723(OpOperand *fusedOperand) {
  auto consumer = dyn_cast<linalg::GenericOp>(fusedOperand->getOwner());
  if (!consumer || !fusedOperand->get().getDefiningOp<tensor::ExpandShapeOp>())
    return false;
  return llvm::none_of(consumer.getDpsInputOperands(), fusesByTileAndFuse);
}

// Each group of a reshape that only adds or drops unit dims has exactly one
// dim of another size (upstream's isUnitDimExpansionOnly of the time).
static bool onlyReshapesUnitDims(ArrayRef<int64_t> expandedShape,
                                 ArrayRef<ReassociationIndices> groups) {
  return llvm::all_of(groups, [&](const ReassociationIndices &group) {
    return llvm::count_if(group, [&](int64_t dim) {
             return expandedShape[dim] != 1;
           }) == 1;
  });
}

// `map` indexes the expanded tensor; the result indexes the collapsed one:
// each group keeps the expression of its one non-unit dim.
static AffineMap linearizeUnitDims(AffineMap map,
                                   ArrayRef<int64_t> expandedShape,
                                   ArrayRef<ReassociationIndices> groups) {
  SmallVector<AffineExpr> results;
  for (const ReassociationIndices &group : groups)
    for (int64_t dim : group)
      if (expandedShape[dim] != 1)
        results.push_back(map.getResult(dim));
  return AffineMap::get(map.getNumDims(), 0, results, map.getContext());
}

static bool loopBoundsComputable(ArrayRef<AffineMap> maps) {
  return static_cast<bool>(inversePermutation(concatAffineMaps(
      maps, maps.front().getContext())));
}

namespace {
// Base's FoldProducerReshapeOpByLinearization (unit dims only): a generic
// reads the source of a unit-dim expand_shape instead, through the map with
// the unit dims dropped.
struct FoldUnitDimExpandIntoReader : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp generic,
                                PatternRewriter &rewriter) const override {
    for (OpOperand *input : generic.getDpsInputOperands()) {
      auto expand = input->get().getDefiningOp<tensor::ExpandShapeOp>();
      AffineMap map = generic.getMatchingIndexingMap(input);
      if (!expand || !map.isPermutation())
        continue;
      ArrayRef<int64_t> shape = expand.getResultType().getShape();
      auto groups = expand.getReassociationIndices();
      if (!onlyReshapesUnitDims(shape, groups))
        continue;
      SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
      maps[input->getOperandNumber()] = linearizeUnitDims(map, shape, groups);
      if (!loopBoundsComputable(maps))
        continue;
      rewriter.modifyOpInPlace(generic, [&] {
        input->set(expand.getSrc());
        generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
      return success();
    }
    return failure();
  }
};

// Base's FoldConsumerReshapeOpByLinearization (unit dims only): a unit-dim
// collapse_shape of a generic's result becomes a copy of the generic writing
// the collapsed init through its output map with the unit dims dropped. The
// original stays for its other users.
struct FoldUnitDimCollapseIntoWriter
    : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::CollapseShapeOp collapse,
                                PatternRewriter &rewriter) const override {
    auto producer = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
    if (!producer || producer->getNumResults() != 1)
      return failure();
    OpOperand *init = producer.getDpsInitOperand(0);
    AffineMap outMap = producer.getMatchingIndexingMap(init);
    ArrayRef<int64_t> shape = collapse.getSrcType().getShape();
    auto groups = collapse.getReassociationIndices();
    if (!outMap.isPermutation() || !onlyReshapesUnitDims(shape, groups))
      return failure();
    SmallVector<AffineMap> maps = producer.getIndexingMapsArray();
    maps.back() = linearizeUnitDims(outMap, shape, groups);
    if (!loopBoundsComputable(maps))
      return failure();
    Value collapsedInit = tensor::CollapseShapeOp::create(
        rewriter, collapse.getLoc(), init->get(), groups);
    auto fused = linalg::GenericOp::create(
        rewriter, producer.getLoc(), collapse.getResultType(),
        producer.getDpsInputs(), collapsedInit, maps,
        producer.getIteratorTypesArray());
    rewriter.cloneRegionBefore(producer.getRegion(), fused.getRegion(),
                               fused.getRegion().begin());
    rewriter.replaceOp(collapse, fused->getResults());
    return success();
  }
};

struct FusionOfTensorOpsPr8723Pass
    : public dispatchlab::impl::FusionOfTensorOpsPr8723PassBase<
          FusionOfTensorOpsPr8723Pass> {
  using FusionOfTensorOpsPr8723PassBase::FusionOfTensorOpsPr8723PassBase;

  bool isFusable(OpOperand *fusedOperand) const;
  LogicalResult fuseAndExpand();
  LogicalResult foldLeftoverReshapes();

  void runOnOperation() override {
    if (!isPr8723Mode(mode)) {
      getOperation()->emitError("fusion-of-tensor-ops-pr8723 takes only the "
                                "pr8723-* modes");
      return signalPassFailure();
    }
    if (failed(fuseAndExpand()) || failed(foldLeftoverReshapes()))
      return signalPassFailure();
  }
};
} // namespace

bool FusionOfTensorOpsPr8723Pass::isFusable(OpOperand *fusedOperand) const {
  Operation *producer = fusedOperand->get().getDefiningOp();
  Operation *consumer = fusedOperand->getOwner();
  if (!isInFusionScope(producer, consumer, /*intraDispatch=*/false))
    return false;
  // IREE's binding-count guard of the time.
  if (getNumFusedOperandValues(fusedOperand) >= maxOperands)
    return false;
  if (mode == ElementwiseFusionMode::Pr8723Base)
    return isFusableBeforePr8723(fusedOperand);
  return isFusableAfterPr8723(fusedOperand,
                              mode == ElementwiseFusionMode::Pr8723V1);
}

// The pass's first fixed point: elementwise fusion and fold by expansion in
// one pattern set, as IREE ran them.
LogicalResult FusionOfTensorOpsPr8723Pass::fuseAndExpand() {
  bool base = mode == ElementwiseFusionMode::Pr8723Base;
  RewritePatternSet patterns(&getContext());
  linalg::populateElementwiseOpsFusionPatterns(
      patterns, [&](OpOperand *operand) { return isFusable(operand); });
  linalg::populateFoldReshapeOpsByExpansionPatterns(
      patterns, [&](OpOperand *operand) {
        if (!isInFusionScope(operand->get().getDefiningOp(),
                             operand->getOwner(), /*intraDispatch=*/false))
          return false;
        return base ? foldsByExpansionBeforePr8723(operand)
                    : foldsByExpansionAfterPr8723(operand);
      });
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, &getContext());
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns,
                                                       &getContext());
  GreedyRewriteConfig config;
  config.setMaxIterations(GreedyRewriteConfig::kNoLimit);
  return applyPatternsGreedily(getOperation(), std::move(patterns), config);
}

// The second fixed point: base linearizes the unit-dim reshapes left, the PR
// folds blocking expand_shapes by collapsing.
LogicalResult FusionOfTensorOpsPr8723Pass::foldLeftoverReshapes() {
  RewritePatternSet patterns(&getContext());
  if (mode == ElementwiseFusionMode::Pr8723Base)
    patterns.add<FoldUnitDimExpandIntoReader, FoldUnitDimCollapseIntoWriter>(
        &getContext());
  else
    linalg::populateFoldReshapeOpsByCollapsingPatterns(
        patterns, foldsByCollapsingAfterPr8723);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, &getContext());
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns,
                                                       &getContext());
  return applyPatternsGreedily(getOperation(), std::move(patterns));
}
