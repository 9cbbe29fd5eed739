//===- TileAndFuseDispatches.cpp - tile loops inside each dispatch --------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_TILEANDFUSEDISPATCHESPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// The largest divisor of `extent` not above `target`: full tiles only.
int64_t getFullTileSize(int64_t extent, int64_t target) {
  for (int64_t size = std::min(extent, target); size > 1; --size)
    if (extent % size == 0)
      return size;
  return 1;
}

/// Whether reduction loop `dim` of `op` slides a window over an input, as a
/// convolution's filter dims do (`oh * stride + kh`): it appears in an input
/// indexing expression combined with another loop.
bool isWindowDim(linalg::LinalgOp op, unsigned dim) {
  for (OpOperand *input : op.getDpsInputOperands())
    for (AffineExpr expr : op.getMatchingIndexingMap(input).getResults())
      if (!isa<AffineDimExpr>(expr) && expr.isFunctionOfDim(dim))
        return true;
  return false;
}

/// For a contraction or convolution generic whose weight-like input has the
/// output's innermost dim (n) but a reduction dim innermost (a PyTorch
/// filter [f, kh, kw, c], a transposed matmul rhs), a linalg.transpose of
/// that input moving n innermost, read by the op instead. Each register
/// tile then reads rows of 32 contiguous n for its outer products rather
/// than transposing a 32x16 tile in registers per reduction step (3.5x
/// slower on a ResNet 1x1 convolution); the transpose runs once per call,
/// outside the tile loops, the way IREE packs a matmul operand for its
/// tiles (data tiling). Returns the transposes created.
SmallVector<Operation *> transposeWeights(RewriterBase &rewriter,
                                          func::FuncOp function) {
  SmallVector<Operation *> transposes;
  function.walk([&](linalg::GenericOp op) {
    if (op.getNumReductionLoops() == 0 || op.hasDynamicShape() ||
        op.getNumDpsInits() != 1)
      return;
    auto n = dyn_cast<AffineDimExpr>(
        op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResults().back());
    if (!n)
      return;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      std::optional<unsigned> position = map.getResultPosition(n);
      if (!type || !map.isProjectedPermutation() || !position)
        continue;
      auto innermost = cast<AffineDimExpr>(map.getResults().back());
      if (op.getIteratorTypesArray()[innermost.getPosition()] !=
          utils::IteratorType::reduction)
        continue;
      SmallVector<int64_t> permutation;
      for (unsigned dim = 0; dim < map.getNumResults(); ++dim)
        if (dim != *position)
          permutation.push_back(dim);
      permutation.push_back(*position);
      rewriter.setInsertionPoint(op);
      Value init = tensor::EmptyOp::create(
          rewriter, op.getLoc(), applyPermutation(type.getShape(), permutation),
          type.getElementType());
      auto transpose = linalg::TransposeOp::create(
          rewriter, op.getLoc(), input->get(), init, permutation);
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      maps[input->getOperandNumber()] = map.getSubMap(llvm::map_to_vector(
          permutation, [](int64_t dim) { return unsigned(dim); }));
      rewriter.modifyOpInPlace(op, [&] {
        input->set(transpose->getResult(0));
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
      transposes.push_back(transpose);
    }
  });
  return transposes;
}

/// The single Linalg op producing every result of `function`, if any. A
/// result inserted into a captured tensor (a consumer's padding, formed into
/// this dispatch) counts as produced by the op computing the inserted value.
linalg::LinalgOp getResultProducer(func::FuncOp function) {
  linalg::LinalgOp producer;
  for (Value value : function.front().getTerminator()->getOperands()) {
    if (auto insert = value.getDefiningOp<tensor::InsertSliceOp>())
      value = insert.getSource();
    auto op = value.getDefiningOp<linalg::LinalgOp>();
    if (!op || (producer && producer != op))
      return {};
    producer = op;
  }
  return producer;
}

struct TileAndFuseDispatchesPass
    : impl::TileAndFuseDispatchesPassBase<TileAndFuseDispatchesPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!function->hasAttr(kDispatchFunctionAttr) || function.isExternal())
      return;
    SmallVector<int64_t> targets(tileSizes.begin(), tileSizes.end());
    if (targets.empty())
      targets = {8, 32};
    IRRewriter rewriter(&getContext());

    linalg::LinalgOp root = getResultProducer(function);
    if (!root || root.hasDynamicShape())
      return;
    unfused = transposeWeights(rewriter, function);
    if (failed(tileAndFuse(rewriter, root, targets)))
      return signalPassFailure();
    // The weight transposes go 16x16 blocks at a time: vector transposes
    // the AVX-512 shuffle lowering handles, instead of a scalar loop nest.
    for (Operation *transpose : unfused)
      if (failed(tileTranspose(rewriter, cast<linalg::TransposeOp>(transpose))))
        return signalPassFailure();

    SmallVector<linalg::LinalgOp> reductions;
    function.walk([&](linalg::LinalgOp op) {
      if (op.getNumReductionLoops() > 0 && !op.hasDynamicShape())
        reductions.push_back(op);
    });
    for (linalg::LinalgOp op : reductions)
      if (failed(tileReductions(rewriter, op)))
        return signalPassFailure();

    // Fused producers write into slices of the dispatch-wide tensor.empty
    // their untiled forms used. Left alone, that empty is shared with the
    // loop's result and bufferizes to a full-size temporary (seed 004);
    // a tile-sized empty per tile is what fusion means.
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyPatternsGreedily(function, std::move(patterns))))
      return signalPassFailure();
  }

  LogicalResult tileAndFuse(RewriterBase &rewriter, linalg::LinalgOp root,
                            ArrayRef<int64_t> targets) {
    SmallVector<int64_t> ranges = root.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators = root.getIteratorTypesArray();
    SmallVector<unsigned> parallel;
    for (auto [index, iterator] : llvm::enumerate(iterators))
      if (iterator == utils::IteratorType::parallel)
        parallel.push_back(index);
    if (parallel.empty())
      return success();

    // Outer parallel loops take tile 1; the innermost ones the targets.
    SmallVector<OpFoldResult> sizes(ranges.size(), rewriter.getIndexAttr(0));
    for (auto [position, loop] : llvm::enumerate(parallel)) {
      int64_t fromInnermost = parallel.size() - 1 - position;
      int64_t target = fromInnermost < int64_t(targets.size())
                           ? targets[targets.size() - 1 - fromInnermost]
                           : 1;
      int64_t size = getFullTileSize(ranges[loop], target);
      // A long extent without a divisor near the target (BERT's 30522-word
      // vocabulary, 131x131 feature maps) would get slivers of tiles; the
      // op is split instead into a part of full target-sized tiles and a
      // remainder, each tiled on its own (IREE peels the remainder).
      if (ranges[loop] >= 8 * target && 2 * size < target) {
        rewriter.setInsertionPoint(root);
        auto [head, tail] = linalg::splitOp(
            rewriter, cast<TilingInterface>(root.getOperation()), loop,
            rewriter.getIndexAttr(ranges[loop] / target * target));
        if (!head || !tail)
          return root.emitOpError("splitting loop ") << loop << " failed";
        SmallVector<Operation *> producers;
        if (failed(sliceProducers(rewriter, head, producers)) ||
            failed(sliceProducers(rewriter, tail, producers)) ||
            failed(tileAndFuse(rewriter, cast<linalg::LinalgOp>(*head),
                               targets)) ||
            failed(
                tileAndFuse(rewriter, cast<linalg::LinalgOp>(*tail), targets)))
          return failure();
        eraseDead(rewriter, producers);
        return success();
      }
      sizes[loop] = rewriter.getIndexAttr(size);
    }

    // One scf.forall over the tiles: they are independent, so they can be
    // spread over threads (IREE distributes the same tiles to workgroups).
    // The innermost parallel dim's tiles go outside the next one's: a
    // matmul then sweeps all row tiles against one column panel of the
    // weights while it is in cache, instead of streaming the whole weight
    // matrix once per row tile (BERT's 768x30522 vocabulary projection).
    SmallVector<int64_t> interchange =
        llvm::to_vector(llvm::seq<int64_t>(0, ranges.size()));
    if (parallel.size() >= 2)
      std::swap(interchange[parallel[parallel.size() - 2]],
                interchange[parallel.back()]);
    scf::SCFTileAndFuseOptions options;
    options.tilingOptions.setTileSizes(sizes)
        .setInterchange(interchange)
        .setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    options.setFusionControlFn(
        [&](tensor::ExtractSliceOp, OpResult producer, bool)
            -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          if (llvm::is_contained(unfused, producer.getOwner()))
            return std::nullopt;
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        });
    rewriter.setInsertionPoint(root);
    FailureOr<scf::SCFTileAndFuseResult> result =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(root.getOperation()), options);
    if (failed(result))
      return root.emitOpError("tile and fuse failed");
    for (OpResult value : root->getResults())
      rewriter.replaceAllUsesWith(value, result->replacements.lookup(value));
    rewriter.eraseOp(root);
    SmallVector<Operation *> producers = result->fusedProducers.takeVector();
    eraseDead(rewriter, producers);
    return success();
  }

  /// Erases the ops of `ops` left without uses (some only once others are
  /// gone), as fused producers are once every consumer has its own copy.
  static void eraseDead(RewriterBase &rewriter, SmallVector<Operation *> &ops) {
    for (bool erased = true; erased;) {
      erased = false;
      for (Operation *&op : ops) {
        if (!op || !op->use_empty())
          continue;
        rewriter.eraseOp(op);
        op = nullptr;
        erased = true;
      }
    }
  }

  /// After splitOp, a part reads slices of the dispatch's intermediate
  /// values; each such slice becomes the producer computed on that slice
  /// only (transitively), so tiling the part fuses the producers again.
  /// The weight transposes stay whole. The original producers are added to
  /// `originals`.
  LogicalResult sliceProducers(RewriterBase &rewriter, TilingInterface part,
                               SmallVector<Operation *> &originals) {
    SmallVector<Operation *> worklist = {part};
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      for (Value operand : op->getOperands()) {
        auto slice = operand.getDefiningOp<tensor::ExtractSliceOp>();
        auto producer = slice ? dyn_cast<OpResult>(slice.getSource()) : nullptr;
        if (!producer || !isa<TilingInterface>(producer.getOwner()) ||
            llvm::is_contained(unfused, producer.getOwner()))
          continue;
        rewriter.setInsertionPoint(slice);
        FailureOr<TilingResult> tiled =
            tensor::replaceExtractSliceWithTiledProducer(rewriter, slice,
                                                         producer);
        if (failed(tiled))
          return slice.emitOpError("producer not sliceable after split");
        rewriter.replaceOp(slice, tiled->tiledValues.front());
        originals.push_back(producer.getOwner());
        llvm::append_range(worklist, tiled->tiledOps);
      }
    }
    return success();
  }

  LogicalResult tileTranspose(RewriterBase &rewriter, linalg::TransposeOp op) {
    SmallVector<int64_t> ranges =
        cast<linalg::LinalgOp>(op.getOperation()).getStaticLoopRanges();
    // The output's innermost dim and the one read innermost from the input.
    unsigned inner = ranges.size() - 1;
    unsigned source = llvm::find(op.getPermutation(), int64_t(inner)) -
                      op.getPermutation().begin();
    SmallVector<OpFoldResult> sizes(ranges.size(), rewriter.getIndexAttr(1));
    sizes[inner] = rewriter.getIndexAttr(getFullTileSize(ranges[inner], 16));
    if (source != inner)
      sizes[source] =
          rewriter.getIndexAttr(getFullTileSize(ranges[source], 16));
    return tileWithSizes(rewriter, op, sizes, "the weight transpose");
  }

  /// Producers left outside the tile loops (the weight transposes).
  SmallVector<Operation *> unfused;

  LogicalResult tileReductions(RewriterBase &rewriter, linalg::LinalgOp op) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<OpFoldResult> sizes(ranges.size(), rewriter.getIndexAttr(0));
    bool tiled = false;
    for (auto [index, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
      if (iterator != utils::IteratorType::reduction)
        continue;
      // Filter window dims go one position at a time, as IREE's CPU
      // convolution strategy tiles them to 1: each step is then a
      // matmul-like contraction over channels (or, depthwise, an
      // elementwise multiply-add) once unit dims are dropped.
      int64_t size = isWindowDim(op, index)
                         ? 1
                         : getFullTileSize(ranges[index], reductionTileSize);
      if (size == ranges[index])
        continue;
      sizes[index] = rewriter.getIndexAttr(size);
      tiled = true;
    }
    if (!tiled)
      return success();
    return tileWithSizes(rewriter, op, sizes, "reduction loops");
  }

  /// Tiles `op` by `sizes` (0: untiled) into scf.for loops and replaces it.
  static LogicalResult tileWithSizes(RewriterBase &rewriter, Operation *op,
                                     ArrayRef<OpFoldResult> sizes,
                                     StringRef what) {
    scf::SCFTilingOptions options;
    options.setTileSizes(sizes);
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> result =
        scf::tileUsingSCF(rewriter, cast<TilingInterface>(op), options);
    if (failed(result))
      return op->emitOpError("tiling ") << what << " failed";
    rewriter.replaceOp(op, result->replacements);
    return success();
  }
};

} // namespace
} // namespace dispatchlab
