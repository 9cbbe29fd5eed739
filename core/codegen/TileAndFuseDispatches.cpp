//===- TileAndFuseDispatches.cpp - tile loops inside each dispatch --------===//

#include "core/codegen/DataTiledOps.h"
#include "core/codegen/Passes.h"
#include "core/codegen/TileHelpers.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_TILEANDFUSEDISPATCHESPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// For the innermost dim, whose tiles are vectors of `vectorWidth` f32 lanes:
/// the largest multiple of `vectorWidth` not above `target` that divides
/// `extent`, else getFullTileSize. With 16 lanes (AVX-512), 144 channels then
/// go 16 at a time rather than 24 (a full vector and a half-empty one).
int64_t getVectorTileSize(int64_t extent, int64_t target, int64_t vectorWidth) {
  for (int64_t size = target / vectorWidth * vectorWidth; size >= vectorWidth;
       size -= vectorWidth)
    if (extent % size == 0)
      return size;
  return getFullTileSize(extent, target);
}

/// Whether the last `lanes` of a vector dim fill a register of their own:
/// half or a quarter of a 16-lane vector (8 or 4 lanes).
bool isRegisterRemainder(int64_t lanes) {
  return lanes >= 4 && llvm::isPowerOf2_64(lanes);
}

/// The step of a contraction's channel loop of `extent`: the largest divisor
/// up to `target`, or the next smaller one when that would leave exactly
/// two steps. LLVM's machine scheduler hoists the broadcasts of a
/// two-iteration loop (its offsets turned into constant phis) ahead of the
/// FMAs and spills them: a 1x1 convolution of 32 channels spilled 254 times
/// and took as long as one of 64; in four steps of 8 it spills twice and
/// runs 1.5x faster. 24 channels go in three steps of 8.
int64_t getReductionStep(int64_t extent, int64_t target) {
  int64_t size = getFullTileSize(extent, target);
  if (extent == 2 * size && size > 1)
    return getFullTileSize(extent, size - 1);
  return size;
}

/// The reduction step of a tile split into full vectors and a remainder
/// (splitVectorRemainder): with steps of 16, the two parts' broadcasts were
/// hoisted and spilled (114 spills in a 56x56x144 -> 24 convolution).
constexpr int64_t kSplitTileReductionStep = 8;

/// Where to split a parallel loop of `extent` whose tiles would be `size`
/// (for `target`), so that each part tiles well; nothing when they do.
/// `vectorWidth` is 0 unless the loop is the vector dim; `outerDim` says
/// whether a non-unit parallel loop lies outside it, `contracts` whether a
/// contraction accumulates in its tiles (contractsInTiles).
std::optional<int64_t> getSplitPoint(int64_t extent, int64_t size,
                                     int64_t target, int64_t vectorWidth,
                                     bool multiResult, bool outerDim,
                                     bool contracts) {
  // A long extent without a divisor near the target (BERT's 30522-word
  // vocabulary, 131x131 feature maps), any extent above the target with no
  // divisor at all (17x17 maps: 17 tiles of one row), or a row dim with an
  // outer dim whose tiles would be under half the target (9- and 33-wide
  // maps: 3-column tiles, which ran 1x1 convolutions at 2/3 of the
  // 8-column rate) would get slivers of tiles; the op is split instead
  // into a part of full target-sized tiles and a remainder, each tiled on
  // its own (IREE peels the remainder). The remainder of a row dim is
  // then tiled along the outer dim (8 rows of the one column left); with
  // no outer dim it would be tiles of one row, and a vector dim's would be
  // an odd-width vector: those keep their tiles (seed 004's 3x7).
  bool sliver = target > 1 && extent > target && 2 * size < target;
  if (sliver && (extent >= 8 * target ||
                 (!multiResult && (size == 1 || (!vectorWidth && outerDim)))))
    return extent / target * target;
  // Likewise a vector dim of full vectors and a remainder that is a
  // register of its own, half or quarter of one (24 channels: one 24-lane
  // tile, which x86 has no register for, ran at a third of the 16- and
  // 32-channel speed; a 1000-class layer got tiles of 25): the full
  // vectors, then the remainder. A contraction whose whole extent is one
  // tile is split inside it instead (splitVectorRemainder). Other
  // remainders stay in their tile (seed 004's 49 columns).
  int64_t remainder = vectorWidth ? extent % vectorWidth : 0;
  if (!multiResult && vectorWidth && extent > vectorWidth &&
      isRegisterRemainder(remainder))
    return contracts && size == extent
               ? std::nullopt
               : std::optional<int64_t>(extent - remainder);
  // A contraction's tile wider than a vector but no multiple of one keeps
  // its accumulators in odd-width vectors, which LLVM spills (posenet's 17-
  // and 34-channel heads, 17-lane tiles: about 600 spills, 58 GFLOP/s
  // against 210 for 32 channels): the full vectors, then the remainder, of
  // any width.
  if (!multiResult && contracts && vectorWidth && size > vectorWidth &&
      size % vectorWidth != 0)
    return extent - remainder;
  return std::nullopt;
}

/// How the tiles of a dispatch are ordered (getTileInterchange).
enum class TileOrder {
  /// The loops' own order, so that consecutive tiles are contiguous: an
  /// elementwise op over 4096x4096 swept column strips and took 16.5 ms
  /// against 9.0 for the same tensor in one dim.
  Natural,
  /// In a dispatch that reduces (a matmul, a convolution), the innermost
  /// parallel dim's tiles go outside the next one's: a matmul then sweeps
  /// all row tiles against one column panel of the weights while it is in
  /// cache, instead of streaming the whole weight matrix once per row tile
  /// (BERT's 768x30522 vocabulary projection). (Outermost in every
  /// contracting dispatch made ResNet-50 5% faster and MobileBERT 18%
  /// slower.)
  ColumnPanels,
  /// The innermost parallel dim's tiles outside all others: a convolution
  /// whose weights do not stay in L2 reads them once, not once per output
  /// row (ResNet-50's last 3x3 convolution, 9.4 MB of weights over 7 rows:
  /// 3.0 -> 1.4 ms).
  ColumnsFirst,
};

/// The order of the tile loops among `loops`, `parallel` the tiled ones.
SmallVector<int64_t>
getTileInterchange(size_t loops, ArrayRef<unsigned> parallel, TileOrder order) {
  SmallVector<int64_t> interchange =
      llvm::to_vector(llvm::seq<int64_t>(0, loops));
  if (order == TileOrder::Natural || parallel.size() < 2)
    return interchange;
  if (order == TileOrder::ColumnPanels) {
    std::swap(interchange[parallel[parallel.size() - 2]],
              interchange[parallel.back()]);
    return interchange;
  }
  SmallVector<unsigned> columnsFirst = {parallel.back()};
  llvm::append_range(columnsFirst, parallel.drop_back());
  for (auto [slot, loop] : llvm::zip(parallel, columnsFirst))
    interchange[slot] = loop;
  return interchange;
}

/// Bytes of the inputs of `op` its outermost parallel loop does not index:
/// what every row tile reads again (a matmul's or convolution's weights).
int64_t getWeightBytes(linalg::LinalgOp op) {
  SmallVector<unsigned> parallel;
  op.getParallelDims(parallel);
  if (parallel.empty())
    return 0;
  int64_t bytes = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!type || !type.hasStaticShape() ||
        !type.getElementType().isIntOrFloat() ||
        op.getMatchingIndexingMap(input).isFunctionOfDim(parallel.front()))
      continue;
    bytes += type.getNumElements() * type.getElementTypeBitWidth() / 8;
  }
  return bytes;
}

/// The tile order of `function`'s dispatch: weights above a quarter of a
/// 2 MB L2 (the rest holds the input rows and the output) go columns first.
TileOrder getTileOrder(func::FuncOp function) {
  constexpr int64_t kL2WeightBytes = 512 * 1024;
  TileOrder order = TileOrder::Natural;
  function.walk([&](linalg::LinalgOp op) {
    if (op.getNumReductionLoops() == 0)
      return;
    if (getWeightBytes(op) > kL2WeightBytes)
      order = TileOrder::ColumnsFirst;
    else if (order == TileOrder::Natural)
      order = TileOrder::ColumnPanels;
  });
  return order;
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

/// Whether `op` has a loop of extent 0: it computes nothing, and the
/// upstream tiling helpers divide by that extent.
bool hasEmptyLoop(linalg::LinalgOp op) {
  return llvm::is_contained(op.getStaticLoopRanges(), 0);
}

/// The Linalg ops producing the results of `function`, in program order. A
/// result inserted into a captured tensor (a consumer's padding, formed into
/// this dispatch) counts as produced by the op computing the inserted value.
/// Fails if a result comes from anything else.
FailureOr<SmallVector<linalg::LinalgOp>>
getResultProducers(func::FuncOp function) {
  llvm::SetVector<Operation *> producers;
  for (Value value : function.front().getTerminator()->getOperands()) {
    if (auto insert = value.getDefiningOp<tensor::InsertSliceOp>())
      value = insert.getSource();
    auto op = value.getDefiningOp<linalg::LinalgOp>();
    if (!op || op->getBlock() != &function.front())
      return failure();
    producers.insert(op);
  }
  SmallVector<linalg::LinalgOp> result = llvm::map_to_vector(
      producers, [](Operation *op) { return cast<linalg::LinalgOp>(op); });
  llvm::sort(result, [](linalg::LinalgOp a, linalg::LinalgOp b) {
    return a->isBeforeInBlock(b);
  });
  return result;
}

/// Whether the body of `op` extracts elements from a tensor at computed
/// indices (a resize, an embedding lookup, a FactorRepeatedGathers table).
bool extractsElements(linalg::LinalgOp op) {
  return !op.getBlock()->getOps<tensor::ExtractOp>().empty();
}

/// The Linalg ops of `function`'s body read only through extracts (the
/// tables FactorRepeatedGathers built): no result op fuses them.
SmallVector<linalg::LinalgOp> getExtractedOnlyOps(func::FuncOp function) {
  SmallVector<linalg::LinalgOp> ops;
  for (auto op : function.front().getOps<linalg::LinalgOp>())
    if (!op->use_empty() && !op.hasDynamicShape() &&
        llvm::all_of(op->getUsers(), llvm::IsaPred<tensor::ExtractOp>))
      ops.push_back(op);
  return ops;
}

/// The ops of `op`'s block that `op` depends on, through operands and
/// values its regions capture.
llvm::SetVector<Operation *> getProducerSlice(Operation *op) {
  BackwardSliceOptions options;
  options.omitBlockArguments = true;
  options.omitUsesFromAbove = false;
  Block *block = op->getBlock();
  options.filter = [block](Operation *candidate) {
    return candidate->getBlock() == block;
  };
  llvm::SetVector<Operation *> slice;
  (void)getBackwardSlice(op, &slice, options);
  return slice;
}

/// Whether some result of `op` is read by something other than what tiling
/// and fusion rewrite (TilingInterface ops, the slices tiling takes, the
/// tile loops taking it as their destination): returned, inserted into a
/// captured tensor, or yielded from an enclosing tile loop. Such a
/// producer, fused, must also write its tiles to a result of the loop.
bool hasUseOutsideFusion(Operation *op) {
  for (Operation *user : op->getUsers())
    if (!isa<TilingInterface, tensor::ExtractSliceOp, LoopLikeOpInterface>(
            user))
      return true;
  return false;
}

/// How a tile loop fuses `producer` read through `slice`: a producer used
/// outside the fusion yields its tiles, which the loop writes as they are
/// only if the tiles partition it: statically shaped and read through a
/// permutation (a convolution's overlapping windows, a padded or broadcast
/// read would write elements twice or from dynamic tiles). Such a producer
/// is not fused and gets a tile loop of its own instead.
std::optional<scf::SCFTileAndFuseOptions::ControlFnResult>
getFusion(tensor::ExtractSliceOp slice, Operation *producer) {
  if (!hasUseOutsideFusion(producer))
    return scf::SCFTileAndFuseOptions::ControlFnResult{};
  if (!slice.getType().hasStaticShape())
    return std::nullopt;
  for (OpOperand &use : slice->getUses()) {
    auto consumer = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (!consumer || !consumer.getMatchingIndexingMap(&use).isPermutation())
      return std::nullopt;
  }
  return scf::SCFTileAndFuseOptions::ControlFnResult{
      /*yieldProducerReplacement=*/true};
}

struct TileAndFuseDispatchesPass
    : impl::TileAndFuseDispatchesPassBase<TileAndFuseDispatchesPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    // Data-tiled dispatches are tiled by TileDataTiledDispatches.
    if (!function->hasAttr(kDispatchFunctionAttr) || function.isExternal() ||
        containsDataTiledOps(function))
      return;
    if (vectorWidth < 1) {
      function.emitError("vector-width must be positive, got ")
          << vectorWidth.getValue();
      return signalPassFailure();
    }
    SmallVector<int64_t> targets(tileSizes.begin(), tileSizes.end());
    if (targets.empty())
      targets = {8, 32};
    IRRewriter rewriter(&getContext());
    tileArgumentCopies(rewriter, function);

    FailureOr<SmallVector<linalg::LinalgOp>> resultOps =
        getResultProducers(function);
    // A dispatch with an empty op stays untiled: its loops run zero times.
    if (failed(resultOps) || llvm::any_of(*resultOps, [](linalg::LinalgOp op) {
          return op.hasDynamicShape() || hasEmptyLoop(op);
        }))
      return;
    // TransposeWeights' copies of weights left in the dispatch (those of
    // model inputs) run outside the tile loops, tiled on their own.
    unfused.clear();
    function.walk([&](linalg::TransposeOp transpose) {
      if (transpose->hasAttr(kWeightTransposeAttr))
        unfused.push_back(transpose);
    });
    multiResult = resultOps->size() > 1;
    tileOrder = getTileOrder(function);
    for (linalg::LinalgOp op : getExtractedOnlyOps(function))
      if (failed(tileAndFuse(rewriter, op, targets)))
        return signalPassFailure();
    if (failed(tileResultOps(rewriter, function, *resultOps, targets)))
      return signalPassFailure();
    // The weight transposes go in square blocks of vectorWidth: vector
    // transposes LowerVectors turns into shuffles, instead of a scalar loop
    // nest.
    for (Operation *transpose : unfused)
      if (failed(tileTranspose(rewriter, cast<linalg::TransposeOp>(transpose))))
        return signalPassFailure();

    SmallVector<linalg::LinalgOp> reductions;
    function.walk([&](linalg::LinalgOp op) {
      if (op.getNumReductionLoops() > 0 && !op.hasDynamicShape() &&
          !hasEmptyLoop(op))
        reductions.push_back(op);
    });
    for (linalg::LinalgOp op : reductions)
      if (failed(tileReductions(rewriter, op)))
        return signalPassFailure();
    if (failed(tileWideElementwiseOps(rewriter, function,
                                      llvm::product_of(targets))))
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

  /// A dispatch copying an argument into a slice of another (a padded
  /// tensor's interior; IREE's flow.tensor.update, a dispatch of its own
  /// here) gets a tile loop too: one scf.forall over blocks of up to 8 along
  /// the copied tensor's outermost non-unit dim, so `run --threads` spreads
  /// it, each thread copying a contiguous block as it wrote one. Left whole
  /// it ran on the calling thread: mobilenet_v2's padded input took 0.012
  /// ms on one thread and 0.047 ms on two, reading what the other core
  /// wrote.
  static void tileArgumentCopies(RewriterBase &rewriter,
                                 func::FuncOp function) {
    for (Value result : function.front().getTerminator()->getOperands()) {
      auto insert = result.getDefiningOp<tensor::InsertSliceOp>();
      if (!insert || !isa<BlockArgument>(insert.getSource()) ||
          !insert.hasUnitStride() || !insert.getSourceType().hasStaticShape() ||
          insert.getSourceType().getRank() != insert.getDestType().getRank())
        continue;
      ArrayRef<int64_t> shape = insert.getSourceType().getShape();
      const int64_t *outer =
          llvm::find_if(shape, [](int64_t extent) { return extent != 1; });
      if (outer == shape.end())
        continue;
      unsigned dim = outer - shape.begin();
      int64_t size = getFullTileSize(shape[dim], 8);
      Location loc = insert.getLoc();
      rewriter.setInsertionPoint(insert);
      auto loop = scf::ForallOp::create(
          rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(shape[dim])},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(size)},
          ValueRange{insert.getDest()}, std::nullopt);
      rewriter.setInsertionPointToStart(loop.getBody());
      Value index = loop.getInductionVars().front();
      SmallVector<OpFoldResult> offsets(shape.size(), rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes =
          getAsIndexOpFoldResult(rewriter.getContext(), shape);
      SmallVector<OpFoldResult> strides(shape.size(), rewriter.getIndexAttr(1));
      offsets[dim] = index;
      sizes[dim] = rewriter.getIndexAttr(size);
      Value block = tensor::ExtractSliceOp::create(
          rewriter, loc, insert.getSource(), offsets, sizes, strides);
      SmallVector<OpFoldResult> at = insert.getMixedOffsets();
      AffineExpr base, step;
      bindSymbols(rewriter.getContext(), base, step);
      at[dim] = affine::makeComposedFoldedAffineApply(
          rewriter, loc, base + step, {at[dim], index});
      rewriter.setInsertionPointToStart(loop.getTerminator().getBody());
      tensor::ParallelInsertSliceOp::create(rewriter, loc, block,
                                            loop.getRegionIterArgs().front(),
                                            at, sizes, strides);
      rewriter.replaceOp(insert, loop.getResults());
    }
  }

  /// Tiles the ops computing the dispatch's results. One that another
  /// result op depends on is fused into that op's tile loop and writes its
  /// tiles from there, as IREE's CPU tiling yields a fused producer's tile
  /// when the producer is also used outside the root. Result ops no other
  /// one depends on (siblings: consumers of shared producers) each get a
  /// tile loop of their own, after any shared producer with reduction
  /// loops got its own: a matmul is computed once, not once per consumer,
  /// as IREE fuses a producer into several consumers only if it is
  /// elementwise (FuseMultiUseElementwiseProducer); shared elementwise
  /// producers are recomputed in each consumer's tiles.
  LogicalResult tileResultOps(RewriterBase &rewriter, func::FuncOp function,
                              ArrayRef<linalg::LinalgOp> resultOps,
                              ArrayRef<int64_t> targets) {
    SmallVector<llvm::SetVector<Operation *>> slices = llvm::map_to_vector(
        resultOps, [](linalg::LinalgOp op) { return getProducerSlice(op); });
    SmallVector<linalg::LinalgOp> last;
    for (linalg::LinalgOp op : resultOps)
      if (llvm::none_of(slices, [&](const llvm::SetVector<Operation *> &slice) {
            return slice.contains(op);
          }))
        last.push_back(op);

    if (last.size() > 1) {
      llvm::DenseMap<Operation *, unsigned> readers;
      for (auto [index, op] : llvm::enumerate(resultOps))
        if (llvm::is_contained(last, op))
          for (Operation *producer : slices[index])
            ++readers[producer];
      SmallVector<linalg::LinalgOp> shared;
      for (auto [producer, count] : readers) {
        auto linalgOp = dyn_cast<linalg::LinalgOp>(producer);
        if (count > 1 && linalgOp && linalgOp.getNumReductionLoops() > 0 &&
            !llvm::is_contained(unfused, producer))
          shared.push_back(linalgOp);
      }
      llvm::sort(shared, [](linalg::LinalgOp a, linalg::LinalgOp b) {
        return a->isBeforeInBlock(b);
      });
      for (linalg::LinalgOp op : shared)
        if (failed(tileAndFuse(rewriter, op, targets)))
          return failure();
    }
    for (linalg::LinalgOp op : last)
      if (failed(tileAndFuse(rewriter, op, targets)))
        return failure();
    if (!multiResult)
      return success();
    // Result ops not fused into another's loop (see getFusion) get their
    // own; in program order, so that none is fused into an earlier one.
    llvm::SetVector<Operation *> left;
    for (Value value : function.front().getTerminator()->getOperands()) {
      if (auto insert = value.getDefiningOp<tensor::InsertSliceOp>())
        value = insert.getSource();
      if (auto op = value.getDefiningOp<linalg::LinalgOp>())
        left.insert(op);
    }
    SmallVector<Operation *> ordered = left.takeVector();
    llvm::sort(ordered, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    for (Operation *op : ordered)
      if (failed(tileAndFuse(rewriter, cast<linalg::LinalgOp>(op), targets)))
        return failure();
    return success();
  }

  /// Splits `root` at `at` along `loop` and tiles each part on its own,
  /// with its producers sliced to the part.
  LogicalResult splitAndTile(RewriterBase &rewriter, linalg::LinalgOp root,
                             unsigned loop, int64_t at,
                             ArrayRef<int64_t> targets) {
    // Head and tail often slice the same producer: each listed once, so
    // that erasing it leaves no dangling entry.
    llvm::SetVector<Operation *> producers;
    // The weight transposes stay whole.
    auto keepWhole = [&](Operation *op) {
      return llvm::is_contained(unfused, op);
    };
    auto parts = splitAndSliceProducers(
        rewriter, cast<TilingInterface>(root.getOperation()), loop, at,
        producers, keepWhole);
    if (failed(parts) ||
        failed(tileAndFuse(rewriter, cast<linalg::LinalgOp>(*parts->first),
                           targets)) ||
        failed(tileAndFuse(rewriter, cast<linalg::LinalgOp>(*parts->second),
                           targets)))
      return failure();
    SmallVector<Operation *> originals = producers.takeVector();
    eraseDead(rewriter, originals);
    return success();
  }

  /// Adds to `loops` the loops of `root` along which its tiles would each
  /// recompute a whole reduction fused into them: those that do not index
  /// the slice of a reduction's result the tile reads, directly or through
  /// the fused ops in between. `rootToOp` maps root loops to `op`'s.
  void collectRecomputingLoops(linalg::LinalgOp root, linalg::LinalgOp op,
                               AffineMap rootToOp, llvm::BitVector &loops,
                               unsigned depth = 0) {
    if (depth > 8)
      return;
    MLIRContext *context = root->getContext();
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto result = dyn_cast<OpResult>(input->get());
      auto producer =
          result ? dyn_cast<linalg::LinalgOp>(result.getOwner()) : nullptr;
      if (!producer || producer->getBlock() != op->getBlock() ||
          llvm::is_contained(unfused, producer.getOperation()))
        continue;
      AffineMap access = op.getMatchingIndexingMap(input).compose(rootToOp);
      AffineMap written = producer.getIndexingMapMatchingResult(result);
      if (!written.isProjectedPermutation())
        continue;
      if (producer.getNumReductionLoops() > 0)
        for (unsigned loop = 0; loop < root.getNumLoops(); ++loop)
          if (!access.isFunctionOfDim(loop))
            loops.set(loop);
      SmallVector<AffineExpr> toProducer(producer.getNumLoops(),
                                         getAffineConstantExpr(0, context));
      for (auto [position, expr] : llvm::enumerate(written.getResults()))
        toProducer[cast<AffineDimExpr>(expr).getPosition()] =
            access.getResult(position);
      collectRecomputingLoops(
          root, producer,
          AffineMap::get(root.getNumLoops(), 0, toProducer, context), loops,
          depth + 1);
    }
  }

  LogicalResult tileAndFuse(RewriterBase &rewriter, linalg::LinalgOp root,
                            ArrayRef<int64_t> targets) {
    const int64_t reductionTargets[] = {1, 8};
    // 8 pixels of up to 512 channels (runs of 2 KB): see tileReductions.
    const int64_t columnReductionTargets[] = {8, 512};
    // One row per tile where the body extracts elements: indices computed
    // from the outer loops are then the same for the whole tile, so a row
    // read along the innermost loop is a contiguous load, not a gather (a
    // FactorRepeatedGathers table: DeepLab's resize 1.95 -> 0.26 ms with
    // its tables against 8 x 32 tiles); a lookup by an input's element
    // gathers from one row instead of 8 (MiniLM's embeddings 0.12-0.14 ->
    // 0.08 ms). Not under a fused contraction, whose register tiles those
    // would be (MobileBERT's embedding projection: 1.5 -> 3.9 ms).
    const int64_t extractTargets[] = {1, 2 * vectorWidth};
    if (root.getNumReductionLoops() == 0 && extractsElements(root) &&
        !contractsInTiles(root))
      targets = extractTargets;
    else if (multiResult && isRowReduction(root))
      targets = reductionTargets;
    else if (isPlainColumnReduction(root))
      targets = columnReductionTargets;
    SmallVector<int64_t> ranges = root.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators = root.getIteratorTypesArray();
    SmallVector<unsigned> parallel;
    // Unit dims take no target: a depthwise convolution's channel
    // multiplier (1, innermost) would otherwise leave tiles of one pixel.
    for (auto [index, iterator] : llvm::enumerate(iterators))
      if (iterator == utils::IteratorType::parallel && ranges[index] != 1)
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
      // Channels of an odd number of vectors go in three-vector tiles; when
      // three do not divide them, the first three are split off and the
      // rest (an even number) go two at a time.
      bool threeVectors =
          fromInnermost == 0 && hasOddVectorChannels(root, ranges[loop], target,
                                                     /*outerDim=*/position > 0);
      if (threeVectors && ranges[loop] % (3 * vectorWidth) != 0)
        return splitAndTile(rewriter, root, loop, 3 * vectorWidth, targets);
      int64_t size = threeVectors ? 3 * vectorWidth
                     : fromInnermost == 0
                         ? getVectorTileSize(ranges[loop], target, vectorWidth)
                         : getFullTileSize(ranges[loop], target);
      if (std::optional<int64_t> at =
              getSplitPoint(ranges[loop], size, target,
                            fromInnermost == 0 ? vectorWidth : 0, multiResult,
                            /*outerDim=*/position > 0,
                            /*contracts=*/contractsInTiles(root)))
        return splitAndTile(rewriter, root, loop, *at, targets);
      sizes[loop] = rewriter.getIndexAttr(size);
    }

    // A loop along which each tile would recompute a fused reduction (a
    // LayerNorm's or softmax's normalization over the row it reduces) is
    // not tiled: the tile takes whole rows, as IREE's CPU backend tiles
    // such dispatches by their reduction's parallel loops only. Only for
    // elementwise roots: a contraction's register tiles must stay small.
    llvm::BitVector recomputing(ranges.size());
    if (root.getNumReductionLoops() == 0)
      collectRecomputingLoops(
          root, root,
          AffineMap::getMultiDimIdentityMap(ranges.size(), root->getContext()),
          recomputing);
    for (unsigned loop : recomputing.set_bits())
      if (iterators[loop] == utils::IteratorType::parallel)
        sizes[loop] = rewriter.getIndexAttr(0);

    setPermutedTileSizes(rewriter, root, parallel, sizes);

    // One scf.forall over the tiles: they are independent, so they can be
    // spread over threads (IREE distributes the same tiles to workgroups).
    scf::SCFTileAndFuseOptions options;
    options.tilingOptions.setTileSizes(sizes)
        .setInterchange(getTileInterchange(ranges.size(), parallel, tileOrder))
        .setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    options.setFusionControlFn(
        [&](tensor::ExtractSliceOp slice, OpResult producer, bool)
            -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          if (llvm::is_contained(unfused, producer.getOwner()))
            return std::nullopt;
          return getFusion(slice, producer.getOwner());
        });
    rewriter.setInsertionPoint(root);
    FailureOr<scf::SCFTileAndFuseResult> result =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(root.getOperation()), options);
    if (failed(result))
      return root.emitOpError("tile and fuse failed");
    replaceFused(rewriter, root, *result);
    return success();
  }

  /// Replaces `root`, tiled into `result`, and the fused producers the tile
  /// loops yield, then erases the producers left unused.
  static void replaceFused(RewriterBase &rewriter, Operation *root,
                           scf::SCFTileAndFuseResult &result) {
    for (OpResult value : root->getResults())
      rewriter.replaceAllUsesWith(value, result.replacements.lookup(value));
    rewriter.eraseOp(root);
    // Only uses after the loops can read its results; an op in between
    // keeps reading the untiled producer.
    DominanceInfo dominance;
    Operation *loop = result.loops.front();
    for (Operation *producer : result.fusedProducers)
      for (OpResult value : producer->getResults())
        if (Value replacement = result.replacements.lookup(value))
          rewriter.replaceUsesWithIf(value, replacement, [&](OpOperand &use) {
            return dominance.properlyDominates(loop, use.getOwner());
          });
    SmallVector<Operation *> producers = result.fusedProducers.takeVector();
    eraseDead(rewriter, producers);
  }

  LogicalResult tileTranspose(RewriterBase &rewriter, linalg::TransposeOp op) {
    SmallVector<int64_t> ranges =
        cast<linalg::LinalgOp>(op.getOperation()).getStaticLoopRanges();
    // The output's innermost dim and the one read innermost from the input.
    unsigned inner = ranges.size() - 1;
    unsigned source = llvm::find(op.getPermutation(), int64_t(inner)) -
                      op.getPermutation().begin();
    SmallVector<OpFoldResult> sizes(ranges.size(), rewriter.getIndexAttr(1));
    sizes[inner] =
        rewriter.getIndexAttr(getFullTileSize(ranges[inner], vectorWidth));
    if (source != inner)
      sizes[source] =
          rewriter.getIndexAttr(getFullTileSize(ranges[source], vectorWidth));
    return tileWithSizes(rewriter, op, sizes, "the weight transpose");
  }

  /// A reduction such as a sum or max over one loop: no contraction, no
  /// sliding window. In a multi-result dispatch its tiles take a few rows
  /// (8 of the innermost parallel dim, 1 of the others) and its loop adds
  /// each 16-wide step into a per-row vector accumulator, reduced across
  /// once after the loop: IREE's CPU reduction strategy, instead of a
  /// 32x768 tile reduced across at every step.
  static bool isPlainReduction(linalg::LinalgOp op) {
    if (op.getNumReductionLoops() != 1 || op.getNumDpsInits() != 1 ||
        isWindowDim(op, reductionDim(op)))
      return false;
    // One input along the reduced dim: two would be a contraction (one the
    // interface does not recognize: a strided 1x1 convolution's generic),
    // unless they are read through one map: an elementwise product summed
    // down columns (EfficientNet's last pool, x * sigmoid(x) summed over
    // pixels), which upstream's matcher calls a batch_matmul of no M and N.
    if (isColumnProduct(op))
      return true;
    unsigned dim = reductionDim(op);
    if (linalg::isaContractionOpInterface(op) ||
        llvm::count_if(op.getDpsInputOperands(), [&](OpOperand *input) {
          return op.getMatchingIndexingMap(input).isFunctionOfDim(dim);
        }) != 1)
      return false;
    // The partial results start from the combiner's neutral element.
    SmallVector<Operation *> combiners;
    if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) ||
        combiners.size() != 1)
      return false;
    return arith::getNeutralElement(combiners.front()).has_value();
  }

  /// A sum of an elementwise product of inputs read through one map whose
  /// innermost dim is a parallel loop (isColumnReduction).
  static bool isColumnProduct(linalg::LinalgOp op) {
    if (op.getNumDpsInputs() < 2 || !isColumnReduction(op))
      return false;
    AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
    if (llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
          return op.getMatchingIndexingMap(input) != map;
        }))
      return false;
    SmallVector<Operation *> combiners;
    return matchReduction(op.getRegionOutputArgs(), 0, combiners) &&
           combiners.size() == 1 && isa<arith::AddFOp>(combiners.front());
  }

  /// A reduction whose inputs are read innermost along a parallel loop (a
  /// global pool over channels-last pixels): each step adds whole vectors
  /// of the result tile, with no partial result to reduce across (IREE's
  /// CPU backend vectorizes such a reduction along its inner parallel dim);
  /// its tiles and steps are tileReductions'.
  static bool isColumnReduction(linalg::LinalgOp op) {
    return llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (map.getNumResults() == 0)
        return false;
      auto inner = dyn_cast<AffineDimExpr>(map.getResults().back());
      return inner && op.getIteratorTypesArray()[inner.getPosition()] ==
                          utils::IteratorType::parallel;
    });
  }

  /// A reduction that accumulates products into register tiles (a matmul,
  /// a convolution): neither a plain reduction nor a column one.
  static bool isContraction(linalg::LinalgOp op) {
    return op.getNumReductionLoops() > 0 && !isPlainReduction(op) &&
           !isColumnReduction(op);
  }

  /// Whether `op` contracts over channels: a reduction loop that is not a
  /// filter window's, whose input elements each multiply a whole row of
  /// the tile (a matmul's, a 1x1 or kxk convolution's; not a depthwise
  /// convolution's, which has only window loops).
  static bool contractsChannels(linalg::LinalgOp op) {
    if (!isContraction(op))
      return false;
    SmallVector<unsigned> reductions;
    op.getReductionDims(reductions);
    return llvm::any_of(reductions,
                        [&](unsigned dim) { return !isWindowDim(op, dim); });
  }

  /// Whether `root`'s vector dim of `extent` is an odd number of vectors,
  /// three or more, that a channel contraction accumulates in tiles with
  /// rows (`outerDim`): 48, 80, 112 or 144 channels with 16 lanes. Their
  /// tiles had one vector, each reduction step loading a broadcast per
  /// FMA (EfficientNetV2-S's 48-channel projections ran at 100-120
  /// GFLOP/s against 150-160 for 32 channels); three-vector tiles are
  /// split in two contractions, two vectors and one
  /// (splitVectorRemainder), that share the step's broadcasts. A one-row
  /// tile (a squeeze-excite matrix-vector product) shares nothing.
  bool hasOddVectorChannels(linalg::LinalgOp root, int64_t extent,
                            int64_t target, bool outerDim) const {
    int64_t vectors = extent / vectorWidth;
    return extent % vectorWidth == 0 && vectors >= 3 && vectors % 2 == 1 &&
           target >= 2 * vectorWidth && !multiResult && outerDim &&
           holdsInTiles(root, contractsChannels);
  }

  /// Whether `predicate` holds for `root` or an op of its block it reads
  /// from.
  static bool holdsInTiles(linalg::LinalgOp root,
                           function_ref<bool(linalg::LinalgOp)> predicate) {
    auto holds = [&](Operation *op) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      return linalgOp && predicate(linalgOp);
    };
    return holds(root) || llvm::any_of(getProducerSlice(root), holds);
  }

  /// Whether a contraction accumulates in the tiles of `root`: it, or an op
  /// it reads from (a convolution whose result a transpose to NCHW tiles).
  static bool contractsInTiles(linalg::LinalgOp root) {
    return holdsInTiles(root, isContraction);
  }

  /// A plain reduction that is not a column one: its partial results go
  /// along the reduced dim.
  static bool isRowReduction(linalg::LinalgOp op) {
    return isPlainReduction(op) && !isColumnReduction(op);
  }

  /// A plain reduction that is a column one: tileReductions sweeps its rows.
  static bool isPlainColumnReduction(linalg::LinalgOp op) {
    return isPlainReduction(op) && isColumnReduction(op);
  }

  /// An elementwise op whose output's innermost dim is taken by another
  /// loop than its input's (getPermutedLoops) is tiled by those two loops,
  /// as IREE's CPU tile sizes give each operand's innermost dim a vector
  /// (getMinTilingSizesForEachDim; setTransposeLikeOpRootConfig):
  /// - an output innermost dim narrower than a vector (a few planes
  ///   interleaved, NCHW to NHWC) takes all the planes by one vector along
  ///   the input's innermost dim: each tile reads a vector from every plane
  ///   and writes whole contiguous vectors, which LowerVectors flattens.
  ///   The default tiles (1 plane x 8 rows x 32 columns) wrote every third
  ///   float in three passes: ResNet-50's input copy 0.118 -> 0.036 ms.
  /// - otherwise a square block of one vector along both (IREE's 16x16
  ///   transpose tiles with AVX-512): rows of the input in, a register
  ///   transpose (LowerVectors' shuffles), rows of the output out. The
  ///   default tiles (8 x 32 along the input's dims) wrote single floats
  ///   down the output's columns, 192 lines a tile at one stride: BERT's key
  ///   transpose took 0.17-0.26 ms in most processes, 0.025 ms this way
  ///   (docs/codegen.md).
  void setPermutedTileSizes(RewriterBase &rewriter, linalg::LinalgOp root,
                            ArrayRef<unsigned> parallel,
                            SmallVectorImpl<OpFoldResult> &sizes) {
    std::optional<PermutedLoops> loops = getPermutedLoops(root);
    if (!loops)
      return;
    SmallVector<int64_t> ranges = root.getStaticLoopRanges();
    bool interleave = ranges[loops->written] < vectorWidth;
    if (!interleave && (ranges[loops->written] % vectorWidth != 0 ||
                        ranges[loops->read] % vectorWidth != 0))
      return;
    for (unsigned loop : parallel)
      sizes[loop] = rewriter.getIndexAttr(1);
    sizes[loops->written] = rewriter.getIndexAttr(interleave ? 0 : vectorWidth);
    sizes[loops->read] = rewriter.getIndexAttr(
        getVectorTileSize(ranges[loops->read], vectorWidth, vectorWidth));
  }

  /// The loops of a permuting elementwise op: the one its output's
  /// innermost dim takes and the one its input's innermost dim takes.
  struct PermutedLoops {
    unsigned written;
    unsigned read;
  };

  /// The loops of an elementwise op (all loops parallel, one result) whose
  /// output's innermost dim is taken by another loop than the innermost dim
  /// of its first input read in full (a permutation): a transpose, or an
  /// NCHW image's 3 channels interleaved into NHWC. Only for inputs the
  /// dispatch reads from memory: a permutation of a fused producer's result
  /// (a convolution's NHWC tile written out as NCHW) keeps the producer's
  /// register tiles.
  static std::optional<PermutedLoops> getPermutedLoops(linalg::LinalgOp op) {
    if (!isa<linalg::GenericOp>(op.getOperation()) ||
        op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0)
      return std::nullopt;
    AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (!output.isPermutation())
      return std::nullopt;
    std::optional<unsigned> read;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (!map.isProjectedPermutation() ||
          input->get().getDefiningOp<TilingInterface>())
        return std::nullopt;
      if (!read && map.isPermutation())
        read = getInnermostLoop(op, map);
    }
    std::optional<unsigned> written = getInnermostLoop(op, output);
    if (!read || !written || read == written)
      return std::nullopt;
    return PermutedLoops{*written, *read};
  }

  /// The loop of `op` indexing the innermost non-unit dim of the operand
  /// read through `map` (a permutation), if its extent is static.
  static std::optional<unsigned> getInnermostLoop(linalg::LinalgOp op,
                                                  AffineMap map) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    for (AffineExpr expr : llvm::reverse(map.getResults())) {
      unsigned loop = cast<AffineDimExpr>(expr).getPosition();
      if (ShapedType::isDynamic(ranges[loop]))
        return std::nullopt;
      if (ranges[loop] != 1)
        return loop;
    }
    return std::nullopt;
  }

  static unsigned reductionDim(linalg::LinalgOp op) {
    SmallVector<unsigned> dims;
    op.getReductionDims(dims);
    return dims.front();
  }

  /// Producers left outside the tile loops (the weight transposes).
  SmallVector<Operation *> unfused;
  /// Whether the dispatch returns the results of several ops.
  bool multiResult = false;
  /// The dispatch's tile order (getTileInterchange).
  TileOrder tileOrder = TileOrder::Natural;

  LogicalResult tileReductions(RewriterBase &rewriter, linalg::LinalgOp op) {
    bool fusesIntoReductionSteps =
        multiResult || isRowReduction(op) || isColumnProduct(op);
    bool splitInTile =
        !multiResult && isContraction(op) && getVectorRemainder(op).has_value();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<OpFoldResult> sizes(ranges.size(), rewriter.getIndexAttr(0));
    bool tiled = false;
    for (auto [index, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
      if (iterator != utils::IteratorType::reduction)
        continue;
      // Filter window dims go one position at a time, as IREE's CPU
      // convolution strategy tiles them to 1: each step is then a
      // matmul-like contraction over channels once unit dims are dropped
      // (depthwise, a 1-D convolution of one row: DecomposeDepthwiseConvs).
      int64_t size =
          isWindowDim(op, index) || isColumnReduction(op) ? 1
          : splitInTile
              ? getReductionStep(ranges[index], kSplitTileReductionStep)
              : getReductionStep(ranges[index], reductionTileSize);
      if (size == ranges[index])
        continue;
      sizes[index] = rewriter.getIndexAttr(size);
      tiled = true;
    }
    // A column reduction's tile (a global pool's: 8 pixels, up to 512
    // channels) steps through its rows in memory order, each row one vector
    // of columns at a time added into the partial sums in memory: each step
    // then reads the next bytes of the row. Stepping down one strip of rows
    // at a time read 8 runs of 64-128 bytes a row apart per step
    // (EfficientNet's squeeze-excite pools: their reduction class 2.3-2.6 ->
    // 1.9-2.2 ms). Steps of two vectors spilled a fused SiLU's 16 values
    // around its exponential, two spills and reloads a vector.
    SmallVector<int64_t> interchange;
    if (isPlainColumnReduction(op)) {
      SmallVector<unsigned> parallelDims;
      op.getParallelDims(parallelDims);
      unsigned inner = parallelDims.back();
      int64_t size = getVectorTileSize(ranges[inner], vectorWidth, vectorWidth);
      if (size < ranges[inner]) {
        sizes[inner] = rewriter.getIndexAttr(size);
        tiled = true;
        interchange = llvm::to_vector(llvm::seq<int64_t>(0, ranges.size()));
        llvm::erase(interchange, int64_t(inner));
        interchange.push_back(inner);
      }
    }
    if (!tiled)
      return success();
    if (!fusesIntoReductionSteps) {
      Operation *tiledOp = nullptr;
      if (failed(tileWithSizes(rewriter, op, sizes, "reduction loops",
                               interchange, &tiledOp)))
        return failure();
      return splitInTile ? splitVectorRemainder(rewriter, tiledOp) : success();
    }
    // A result op fused into a reduction's tile (a LayerNorm's centred
    // input, returned next to its sum of squares) is only vectorizable a
    // reduction step at a time: it is fused into the reduction loop and
    // yields its tile from there. Producers with reductions of their own
    // and values from outside the tile are not recomputed per step. A
    // column product's factors are computed a row step at a time the same
    // way: the sigmoid of EfficientNet's x * sigmoid(x) computed for the
    // whole tile first made its pool slower (docs/codegen.md).
    scf::SCFTileAndFuseOptions options;
    if (isRowReduction(op))
      options.tilingOptions
          .setReductionTilingStrategy(
              ReductionTilingStrategy::PartialReductionOuterReduction)
          .setReductionDims({reductionDim(op)});
    options.tilingOptions.setTileSizes(sizes);
    if (!interchange.empty())
      options.tilingOptions.setInterchange(interchange);
    // In a single-result dispatch a column product fuses the factors only
    // it reads (while fusing, the slice being fused reads them too).
    bool columnProduct = isColumnProduct(op);
    auto readByOthers = [&](OpResult producer, Operation *slice) {
      return llvm::any_of(producer.getUsers(), [&](Operation *user) {
        return user != op.getOperation() && user != slice;
      });
    };
    options.setFusionControlFn(
        [&](tensor::ExtractSliceOp slice, OpResult producer, bool isDestination)
            -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          auto linalgOp = dyn_cast<linalg::LinalgOp>(producer.getOwner());
          if (isDestination || !linalgOp ||
              linalgOp.getNumReductionLoops() > 0 ||
              linalgOp->getBlock() != op->getBlock() ||
              llvm::is_contained(unfused, linalgOp.getOperation()) ||
              (!multiResult && (columnProduct ? readByOthers(producer, slice)
                                              : !producer.hasOneUse())))
            return std::nullopt;
          return getFusion(slice, linalgOp);
        });
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTileAndFuseResult> result =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(result))
      return op->emitOpError("tiling reduction loops failed");
    replaceFused(rewriter, op, *result);
    return success();
  }

  /// Splits the reduction step `tiled` of a tile whose vector dim is full
  /// vectors and a register-sized remainder (24 channels: 16 and 8) into
  /// one op per part, so that both accumulate in registers of their own
  /// while sharing the step's input broadcasts; two tile loops (one per
  /// part) each loaded them (EfficientNetV2-S's 24-channel convolutions).
  LogicalResult splitVectorRemainder(RewriterBase &rewriter, Operation *tiled) {
    auto op = dyn_cast_if_present<linalg::LinalgOp>(tiled);
    std::optional<std::pair<unsigned, int64_t>> split =
        op ? getVectorRemainder(op) : std::nullopt;
    if (!split)
      return success();
    rewriter.setInsertionPoint(op);
    linalg::splitOp(rewriter, cast<TilingInterface>(op.getOperation()),
                    split->first, rewriter.getIndexAttr(split->second));
    return success();
  }

  /// The innermost parallel loop of a tile `op` and where its full vectors
  /// end, if the rest is a register of its own (4 or 8 lanes); or, in a
  /// three-vector tile of a channel contraction (hasOddVectorChannels),
  /// where its first two vectors end.
  std::optional<std::pair<unsigned, int64_t>>
  getVectorRemainder(linalg::LinalgOp op) const {
    SmallVector<unsigned> parallel;
    op.getParallelDims(parallel);
    if (op.hasDynamicShape() || parallel.empty())
      return std::nullopt;
    int64_t extent = op.getStaticLoopRanges()[parallel.back()];
    if (extent == 3 * vectorWidth && contractsChannels(op))
      return std::make_pair(parallel.back(), 2 * vectorWidth);
    int64_t remainder = extent % vectorWidth;
    if (extent <= vectorWidth || !isRegisterRemainder(remainder))
      return std::nullopt;
    return std::make_pair(parallel.back(), extent - remainder);
  }

  /// An elementwise op left wider than a register tile (`tileElements`, the
  /// targets' product) inside a tile (a softmax's exp over whole rows, kept
  /// untiled along the row so that its reductions are not recomputed) goes
  /// vectorWidth columns at a time: as one n-D vector op it kept the whole
  /// tile in registers and spilled every intermediate of the exp
  /// polynomial. IREE's CPU backend tiles every op of a dispatch to its
  /// vector tile sizes after distribution (the vector_common_parallel
  /// tiling level).
  LogicalResult tileWideElementwiseOps(RewriterBase &rewriter,
                                       func::FuncOp function,
                                       int64_t tileElements) {
    SmallVector<linalg::GenericOp> wide;
    function.walk([&](linalg::GenericOp op) {
      if (op.getNumReductionLoops() > 0 || op.hasDynamicShape() ||
          !op->getParentOfType<scf::ForallOp>())
        return;
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      if (ranges.empty() || ranges.back() <= vectorWidth ||
          ranges.back() % vectorWidth != 0 ||
          llvm::product_of(ranges) <= tileElements)
        return;
      wide.push_back(op);
    });
    for (linalg::GenericOp op : wide) {
      SmallVector<OpFoldResult> sizes(op.getNumLoops(),
                                      rewriter.getIndexAttr(0));
      sizes.back() = rewriter.getIndexAttr(vectorWidth);
      if (failed(tileWithSizes(rewriter, op, sizes, "a wide elementwise op")))
        return failure();
    }
    return success();
  }

  /// Tiles `op` by `sizes` (0: untiled) into scf.for loops, ordered by
  /// `interchange` if given, and replaces it.
  static LogicalResult tileWithSizes(RewriterBase &rewriter, Operation *op,
                                     ArrayRef<OpFoldResult> sizes,
                                     StringRef what,
                                     ArrayRef<int64_t> interchange = {},
                                     Operation **tiled = nullptr) {
    scf::SCFTilingOptions options;
    options.setTileSizes(sizes);
    if (!interchange.empty())
      options.setInterchange(interchange);
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> result =
        scf::tileUsingSCF(rewriter, cast<TilingInterface>(op), options);
    if (failed(result))
      return op->emitOpError("tiling ") << what << " failed";
    rewriter.replaceOp(op, result->replacements);
    if (tiled && result->tiledOps.size() == 1)
      *tiled = result->tiledOps.front();
    return success();
  }
};

} // namespace
} // namespace dispatchlab
