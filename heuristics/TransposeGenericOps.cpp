//===- TransposeGenericOps.cpp - normalize generic loop orders ------------===//
//
// Mirrors IREE's DispatchCreation TransposeGenericOps pass. Dispatch
// formation only counts *leading* parallel loops as shared with a root, and
// wants consumers to read roots through identity maps; both patterns reorder
// loops of linalg.generic ops so that holds.
//
//===----------------------------------------------------------------------===//

#include "heuristics/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_TRANSPOSEGENERICOPSPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

namespace {
// Mirrors IREE's MakeReductionInnermostPattern: parallel loops first, each
// group keeping its relative order.
struct ParallelLoopsFirst : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    SmallVector<unsigned> order;
    for (auto [index, iterator] : llvm::enumerate(iterators))
      if (linalg::isParallelIterator(iterator))
        order.push_back(index);
    unsigned numParallel = order.size();
    if (numParallel == 0 ||
        llvm::equal(order, llvm::seq<unsigned>(0, numParallel)))
      return rewriter.notifyMatchFailure(op, "parallel loops already lead");
    for (auto [index, iterator] : llvm::enumerate(iterators))
      if (!linalg::isParallelIterator(iterator))
        order.push_back(index);
    return linalg::interchangeGenericOp(rewriter, op, order);
  }
};

// Mirrors IREE's TransposeGenericOpPattern: an elementwise generic reading a
// single-use named or reduction op through a permutation is interchanged so
// that read becomes the identity (the transpose moves to its other operands
// and its result).
struct IdentityReadOfRoot : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() ||
        op.getNumParallelLoops() != op.getNumLoops())
      return rewriter.notifyMatchFailure(op, "not elementwise on tensors");
    std::optional<AffineMap> permutation;
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto producer = input->get().getDefiningOp<linalg::LinalgOp>();
      if (!producer || !llvm::hasSingleElement(producer->getUsers()) ||
          linalg::isElementwise(producer))
        continue;
      AffineMap map = op.getMatchingIndexingMap(input);
      // As in IREE, one identity read of such a producer settles it.
      if (map.isIdentity())
        return rewriter.notifyMatchFailure(op, "already an identity read");
      if (map.isPermutation() && !permutation)
        permutation = map;
    }
    if (!permutation)
      return rewriter.notifyMatchFailure(op, "no permuted read of a root");
    SmallVector<unsigned> order =
        llvm::map_to_vector(permutation->getResults(), [](AffineExpr expr) {
          return cast<AffineDimExpr>(expr).getPosition();
        });
    return linalg::interchangeGenericOp(rewriter, op, order);
  }
};

struct TransposeGenericOpsPass
    : public dispatchlab::impl::TransposeGenericOpsPassBase<
          TransposeGenericOpsPass> {
  using TransposeGenericOpsPassBase::TransposeGenericOpsPassBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ParallelLoopsFirst, IdentityReadOfRoot>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
