//===- FormSplitReductionDispatches.cpp - split reductions by tiling ------===//
//
// Mirrors IREE's DispatchCreation FormSplitReductionDispatches: an op
// carrying `iree_linalg_ext.split_reduction = [sizes]` (one size per
// reduction loop) is tiled along its reduction loops with upstream's
// partial-reduction tiling (outer-parallel strategy) into an scf.forall that
// computes partial results, its destination's producers and bit-extends on
// its inputs fused into the loop. The loop gets a dispatch of its own; the op
// merging the partial results is left for FormDispatchRegions.
//
// Divergences: IREE maps the forall's loops with its own
// split-reduction mapping attribute; ours carries none. IREE's
// extract_slice-of-broadcast folding and its pad-fusion option are not
// reproduced. Tiling leaves the original op and the fused producers dead;
// ours erases them (IREE leaves them to a later canonicalization, which our
// formation stage does not run), and drops the attribute from the tiled op so
// that running the pass again splits nothing twice.
//
//===----------------------------------------------------------------------===//

#include "heuristics/DispatchRegionBuilder.h"
#include "heuristics/OpClassification.h"
#include "heuristics/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_FORMSPLITREDUCTIONDISPATCHESPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

static constexpr StringLiteral kSplitReductionAttr =
    "iree_linalg_ext.split_reduction";

static SmallVector<unsigned> getReductionDims(TilingInterface op) {
  SmallVector<unsigned> dims;
  for (auto [index, type] : llvm::enumerate(op.getLoopIteratorTypes()))
    if (type == utils::IteratorType::reduction)
      dims.push_back(index);
  return dims;
}

/// The split sizes `op` asks for, one per reduction loop (IREE's
/// getSplitReductionSizes, plus the checks IREE leaves to assertions).
static FailureOr<SmallVector<int64_t>> readSplitSizes(Operation *op,
                                                      size_t numReductions) {
  auto sizes = dyn_cast<ArrayAttr>(op->getAttr(kSplitReductionAttr));
  SmallVector<int64_t> result;
  for (Attribute size : sizes ? sizes.getValue() : ArrayRef<Attribute>{}) {
    auto integer = dyn_cast<IntegerAttr>(size);
    if (!integer || integer.getInt() < 1)
      break;
    result.push_back(integer.getInt());
  }
  if (!sizes || result.size() != sizes.size() || result.size() != numReductions)
    return op->emitOpError() << "'" << kSplitReductionAttr
                             << "' must list one positive integer per "
                                "reduction loop ("
                             << numReductions << ")";
  return result;
}

/// Tile sizes of every loop: parallel loops untiled, reduction loops split.
static SmallVector<OpFoldResult> getTileSizes(TilingInterface op,
                                              ArrayRef<int64_t> splitSizes) {
  Builder builder(op.getContext());
  SmallVector<OpFoldResult> tileSizes;
  const int64_t *split = splitSizes.begin();
  for (utils::IteratorType type : op.getLoopIteratorTypes())
    tileSizes.push_back(builder.getIndexAttr(
        type == utils::IteratorType::reduction ? *split++ : 0));
  return tileSizes;
}

static scf::SCFTileAndFuseOptions
getTileAndFuseOptions(TilingInterface op, ArrayRef<int64_t> splitSizes) {
  scf::SCFTilingOptions tiling;
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  tiling.setReductionTilingStrategy(
      ReductionTilingStrategy::PartialReductionOuterParallel);
  tiling.setTileSizes(getTileSizes(op, splitSizes));
  tiling.setReductionDims(getReductionDims(op));

  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(std::move(tiling));
  // IREE's control function: fuse along the destination, and bit-extends
  // along the inputs.
  options.setFusionControlFn(
      [](tensor::ExtractSliceOp slice, OpResult, bool isDestArg)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        Operation *source = slice.getSource().getDefiningOp();
        if (isDestArg || (source && isBitExtendOp(source)))
          return scf::SCFTileAndFuseOptions::ControlFnResult{false};
        return std::nullopt;
      });
  return options;
}

/// Erases `ops` (the tiled op, then its fused producers nearest first) once
/// dead, recording them in `erased`.
static void eraseDeadOps(RewriterBase &rewriter, ArrayRef<Operation *> ops,
                         llvm::SmallPtrSetImpl<Operation *> &erased) {
  for (Operation *op : ops) {
    if (!op->use_empty())
      continue;
    erased.insert(op);
    rewriter.eraseOp(op);
  }
}

/// Mirrors IREE's tileOpAndWrapInDispatch.
static LogicalResult splitIntoDispatch(RewriterBase &rewriter,
                                       TilingInterface op,
                                       ArrayRef<int64_t> splitSizes,
                                       SmallPtrSetImpl<Operation *> &erased) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, op, getTileAndFuseOptions(op, splitSizes));
  if (failed(tiled))
    return op.emitOpError("cannot be tiled for split reduction");
  for (auto [original, replacement] : tiled->replacements)
    rewriter.replaceAllUsesWith(original, replacement);
  // The tiled op computes a partial result; split once, not again.
  tiled->tiledAndFusedOps.front()->removeAttr(kSplitReductionAttr);
  SmallVector<Operation *> dead{op};
  llvm::append_range(dead, tiled->fusedProducers);
  eraseDeadOps(rewriter, dead, erased);
  if (tiled->loops.empty())
    return success();
  Operation *loop = tiled->loops.front();
  dispatch::DispatchDialect::setRootAttr(loop);
  if (failed(wrapOpsInDispatchRegion(rewriter, {loop})))
    return loop->emitOpError("cannot be wrapped in a dispatch region");
  return success();
}

namespace {
struct FormSplitReductionDispatchesPass
    : public dispatchlab::impl::FormSplitReductionDispatchesPassBase<
          FormSplitReductionDispatchesPass> {
  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    SmallVector<PartialReductionOpInterface> candidates;
    func.walk([&](PartialReductionOpInterface op) {
      if (op->hasAttr(kSplitReductionAttr))
        candidates.push_back(op);
    });
    if (candidates.empty())
      return;

    IRRewriter rewriter(func.getContext());
    // A candidate may be fused into, and erased with, an earlier one.
    llvm::SmallPtrSet<Operation *, 8> erased;
    for (PartialReductionOpInterface op : candidates) {
      if (erased.contains(op))
        continue;
      auto tileable = cast<TilingInterface>(op.getOperation());
      FailureOr<SmallVector<int64_t>> sizes =
          readSplitSizes(op, getReductionDims(tileable).size());
      if (failed(sizes) ||
          failed(splitIntoDispatch(rewriter, tileable, *sizes, erased)))
        return signalPassFailure();
    }

    // IREE's cleanup of the slices tiling leaves inside the dispatches.
    RewritePatternSet patterns(func.getContext());
    linalg::populateSwapExtractSliceWithFillPatterns(patterns);
    tensor::populateMergeConsecutiveInsertExtractSlicePatterns(patterns);
    if (failed(applyPatternsGreedily(func, std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
