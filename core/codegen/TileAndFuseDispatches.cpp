//===- TileAndFuseDispatches.cpp - tile loops inside each dispatch --------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
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
    if (failed(tileAndFuse(rewriter, root, targets)))
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
      sizes[loop] =
          rewriter.getIndexAttr(getFullTileSize(ranges[loop], target));
    }

    scf::SCFTileAndFuseOptions options;
    options.tilingOptions.setTileSizes(sizes);
    rewriter.setInsertionPoint(root);
    FailureOr<scf::SCFTileAndFuseResult> result =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(root.getOperation()), options);
    if (failed(result))
      return root.emitOpError("tile and fuse failed");
    for (OpResult value : root->getResults())
      rewriter.replaceAllUsesWith(value, result->replacements.lookup(value));
    rewriter.eraseOp(root);
    // The fused producers are dead now (some only once others are gone).
    SmallVector<Operation *> producers = result->fusedProducers.takeVector();
    for (bool erased = true; erased;) {
      erased = false;
      for (Operation *&producer : producers) {
        if (!producer || !producer->use_empty())
          continue;
        rewriter.eraseOp(producer);
        producer = nullptr;
        erased = true;
      }
    }
    return success();
  }

  LogicalResult tileReductions(RewriterBase &rewriter, linalg::LinalgOp op) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<OpFoldResult> sizes(ranges.size(), rewriter.getIndexAttr(0));
    bool tiled = false;
    for (auto [index, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
      if (iterator != utils::IteratorType::reduction)
        continue;
      int64_t size = getFullTileSize(ranges[index], reductionTileSize);
      if (size == ranges[index])
        continue;
      sizes[index] = rewriter.getIndexAttr(size);
      tiled = true;
    }
    if (!tiled)
      return success();
    scf::SCFTilingOptions options;
    options.setTileSizes(sizes);
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> result = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(result))
      return op.emitOpError("tiling reduction loops failed");
    rewriter.replaceOp(op, result->replacements);
    return success();
  }
};

} // namespace
} // namespace dispatchlab
