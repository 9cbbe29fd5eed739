//===- TileDataTiledDispatches.cpp - tiles of packed dispatches -----------===//
//
// Mirrors IREE's CPU tiling of data-tiled dispatches (Mmt4dTilingExpert and
// the pack/unpack tile sizes of KernelDispatch.cpp): a dispatch computing
// on packed layouts is tiled so that each tile is whole inner tiles. One
// ending in an unpack (the mmt4d's, with its elementwise consumers) takes
// one M0 x N0 tile of the result per step, which is one 1x1 tile of the
// mmt4d: nothing is recomputed. One ending in the mmt4d itself (the late
// route, where IREE does not fuse an mmt4d with its consumers) takes that
// 1x1 outer tile per step. A pack takes a vector's worth of inner
// tiles of its innermost outer dim per step; one fed by a reduction (the
// late route fuses a pack into a LayerNorm or softmax) takes whole rows,
// reduced once, and packs them a vector's worth at a time. The mmt4d's K1
// loop is then tiled like any reduction.
//
//===----------------------------------------------------------------------===//

#include "core/codegen/DataTiledOps.h"
#include "core/codegen/Passes.h"
#include "core/codegen/TileHelpers.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_TILEDATATILEDDISPATCHESPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// The one op computing every result of `function`, if there is one.
Operation *getSoleResultProducer(func::FuncOp function) {
  Operation *root = nullptr;
  for (Value value : function.front().getTerminator()->getOperands()) {
    Operation *def = value.getDefiningOp();
    if (!def || !isa<TilingInterface>(def) || (root && def != root))
      return nullptr;
    root = def;
  }
  return root;
}

/// Per dim of `unpack`'s result: its inner tile, or 1.
SmallVector<int64_t> getUnpackTiles(linalg::UnPackOp unpack) {
  SmallVector<int64_t> tiles(unpack.getDestType().getRank(), 1);
  for (auto [dim, tile] :
       llvm::zip(unpack.getInnerDimsPos(), unpack.getStaticInnerTiles()))
    tiles[dim] = tile;
  return tiles;
}

std::optional<SmallVector<int64_t>> getLoopTiles(linalg::LinalgOp op);

/// Per dim of `value`: the tile that keeps whole inner tiles of an unpack
/// it is computed from, elementwise, or 1; nothing if it is not.
std::optional<SmallVector<int64_t>> getValueTiles(Value value) {
  Operation *def = value.getDefiningOp();
  if (auto unpack = dyn_cast_if_present<linalg::UnPackOp>(def))
    return getUnpackTiles(unpack);
  auto op = dyn_cast_if_present<linalg::LinalgOp>(def);
  if (!op || op.getNumDpsInits() != 1)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> loops = getLoopTiles(op);
  AffineMap result = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!loops || !result.isPermutation())
    return std::nullopt;
  return llvm::map_to_vector(result.getResults(), [&](AffineExpr expr) {
    return (*loops)[cast<AffineDimExpr>(expr).getPosition()];
  });
}

/// Per loop of the elementwise `op`: the tiles of the first input computed
/// from an unpack, through its map (a projected permutation); 1 elsewhere.
std::optional<SmallVector<int64_t>> getLoopTiles(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() != 0)
    return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    std::optional<SmallVector<int64_t>> tiles = getValueTiles(input->get());
    if (!tiles || !map.isProjectedPermutation())
      continue;
    SmallVector<int64_t> sizes(op.getNumLoops(), 1);
    for (auto [dim, expr] : llvm::enumerate(map.getResults()))
      sizes[cast<AffineDimExpr>(expr).getPosition()] = (*tiles)[dim];
    return sizes;
  }
  return std::nullopt;
}

/// Per loop of a (batch_)mmt4d: 1 for the batch, M1 and N1 loops, 0 (the
/// whole extent) for K1 and the inner tiles.
SmallVector<int64_t> getOuterTileSizes(linalg::LinalgOp mmt4d) {
  SmallVector<utils::IteratorType> iterators = mmt4d.getIteratorTypesArray();
  SmallVector<int64_t> sizes(iterators.size(), 0);
  for (auto [index, iterator] :
       llvm::enumerate(ArrayRef<utils::IteratorType>(iterators).drop_back(3)))
    if (iterator == utils::IteratorType::parallel)
      sizes[index] = 1;
  return sizes;
}

/// Whether a Linalg op of `function` reduces: a pack fed by a reduction (a
/// LayerNorm's or softmax's rows) then takes whole rows per tile, so that
/// each row is reduced once rather than once per inner tile of the pack.
bool hasReduction(func::FuncOp function) {
  return function
      .walk([](linalg::LinalgOp op) {
        return op.getNumReductionLoops() ? WalkResult::interrupt()
                                         : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Tiles `op` by `sizes` (0: untiled) without fusing anything, replacing
/// it by the tile loop; `what` names it in the error.
LogicalResult tileAlone(RewriterBase &rewriter, TilingInterface op,
                        ArrayRef<int64_t> sizes, StringRef what) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, op, options);
  if (failed(result))
    return op->emitOpError("tiling ") << what << " failed";
  rewriter.replaceOp(op, result->replacements);
  return success();
}

/// Tiles each pack whose innermost outer dim is wider than `target` in
/// steps of `target` of it, fusing nothing: the pack of a row tile, after
/// its producers computed the rows once.
LogicalResult tileWidePacks(RewriterBase &rewriter, func::FuncOp function,
                            int64_t target) {
  SmallVector<linalg::PackOp> packs;
  function.walk([&](linalg::PackOp pack) {
    int64_t extent = pack.getDestType().getDimSize(pack.getSourceRank() - 1);
    if (ShapedType::isStatic(extent) && extent > target)
      packs.push_back(pack);
  });
  for (linalg::PackOp pack : packs) {
    SmallVector<int64_t> sizes(pack.getSourceRank(), 1);
    sizes.back() = getFullTileSize(
        pack.getDestType().getDimSize(pack.getSourceRank() - 1), target);
    if (failed(tileAlone(rewriter, cast<TilingInterface>(pack.getOperation()),
                         sizes, "the pack of a row tile")))
      return failure();
  }
  return success();
}

/// Tile sizes for the loops of `root` (0: untiled), or failure when it is
/// not one of the shapes data tiling gives a dispatch.
FailureOr<SmallVector<int64_t>> getRootTileSizes(Operation *root,
                                                 int64_t vectorWidth) {
  if (auto pack = dyn_cast<linalg::PackOp>(root)) {
    ArrayRef<int64_t> outer =
        pack.getDestType().getShape().take_front(pack.getSourceRank());
    SmallVector<int64_t> sizes(outer.size(), 1);
    sizes.back() = hasReduction(pack->getParentOfType<func::FuncOp>())
                       ? 0
                       : getFullTileSize(outer.back(), vectorWidth);
    return sizes;
  }
  if (auto unpack = dyn_cast<linalg::UnPackOp>(root))
    return getUnpackTiles(unpack);
  if (isa<linalg::Mmt4DOp, linalg::BatchMmt4DOp>(root))
    return getOuterTileSizes(cast<linalg::LinalgOp>(root));
  auto linalgOp = dyn_cast<linalg::LinalgOp>(root);
  std::optional<SmallVector<int64_t>> sizes =
      linalgOp ? getLoopTiles(linalgOp) : std::nullopt;
  if (!sizes)
    return failure();
  return *sizes;
}

/// Tiles `root` by `sizes` into one scf.forall with every producer fused.
/// A dim its tile does not divide is split first into whole tiles and the
/// rest, each tiled on its own: every tile stays statically shaped.
LogicalResult tileRoot(RewriterBase &rewriter, TilingInterface root,
                       SmallVector<int64_t> sizes) {
  SmallVector<Range> domain = root.getIterationDomain(rewriter);
  for (auto [dim, range] : llvm::enumerate(domain)) {
    std::optional<int64_t> extent = getConstantIntValue(range.size);
    if (!extent)
      return success();
    int64_t size = sizes[dim];
    if (size == 0)
      continue;
    if (*extent <= size || *extent % size == 0) {
      sizes[dim] = std::min(size, *extent);
      continue;
    }
    llvm::SetVector<Operation *> originals;
    SmallVector<int64_t> tailSizes(sizes);
    tailSizes[dim] = *extent % size;
    auto keepNone = [](Operation *) { return false; };
    auto parts = splitAndSliceProducers(
        rewriter, root, dim, *extent / size * size, originals, keepNone);
    if (failed(parts) || failed(tileRoot(rewriter, parts->first, sizes)) ||
        failed(tileRoot(rewriter, parts->second, tailSizes)))
      return failure();
    SmallVector<Operation *> dead = originals.takeVector();
    eraseDead(rewriter, dead);
    return success();
  }

  scf::SCFTileAndFuseOptions options;
  options.tilingOptions
      .setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes))
      .setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  rewriter.setInsertionPoint(root);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, root, options);
  if (failed(result))
    return root->emitOpError("tile and fuse failed");
  for (OpResult value : root->getResults())
    rewriter.replaceAllUsesWith(value, result->replacements.lookup(value));
  rewriter.eraseOp(root);
  SmallVector<Operation *> fused = result->fusedProducers.takeVector();
  eraseDead(rewriter, fused);
  return success();
}

/// Tiles the K1 loop of a (batch_)mmt4d like any reduction; K0 is 1.
LogicalResult tileReduction(RewriterBase &rewriter, linalg::LinalgOp op,
                            int64_t target) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> sizes(ranges.size(), 0);
  bool tiled = false;
  for (auto [index, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (iterator != utils::IteratorType::reduction || ranges[index] <= target)
      continue;
    sizes[index] = getFullTileSize(ranges[index], target);
    tiled = true;
  }
  if (!tiled)
    return success();
  return tileAlone(rewriter, cast<TilingInterface>(op.getOperation()), sizes,
                   "the K1 loop");
}

struct TileDataTiledDispatchesPass
    : impl::TileDataTiledDispatchesPassBase<TileDataTiledDispatchesPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!function->hasAttr(kDispatchFunctionAttr) || function.isExternal() ||
        !containsDataTiledOps(function))
      return;
    IRRewriter rewriter(&getContext());
    // Another shape (several result ops) stays untiled: correct, scalar.
    if (Operation *root = getSoleResultProducer(function))
      if (FailureOr<SmallVector<int64_t>> sizes =
              getRootTileSizes(root, vectorWidth);
          succeeded(sizes) &&
          failed(tileRoot(rewriter, cast<TilingInterface>(root), *sizes)))
        return signalPassFailure();

    SmallVector<linalg::LinalgOp> mmt4ds;
    function.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::Mmt4DOp, linalg::BatchMmt4DOp>(op) &&
          !op.hasDynamicShape())
        mmt4ds.push_back(op);
    });
    for (linalg::LinalgOp op : mmt4ds)
      if (failed(tileReduction(rewriter, op, reductionTileSize)))
        return signalPassFailure();
    if (failed(tileWidePacks(rewriter, function, vectorWidth)))
      return signalPassFailure();

    // A tile-sized empty per tile, not slices of a dispatch-wide one.
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyPatternsGreedily(function, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace dispatchlab
