//===- DecomposeConcat.cpp - inner-dim concats to insert_slices -----------===//
//
// Mirrors IREE's GlobalOptimization DecomposeConcat. A concat along dim 0
// stays (IREE writes it in place as tensor updates); any other becomes
// empty + one insert_slice per input, which fuse into their producers'
// dispatches. With outer-dim-concat, a concat along a dim after the
// outermost non-unit dim is transposed to run along that dim first.
//
//===----------------------------------------------------------------------===//

#include "globalopt/OutsideDispatch.h"
#include "globalopt/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab::globalopt {
#define GEN_PASS_DEF_DECOMPOSECONCATPASS
#include "globalopt/Passes.h.inc"
} // namespace dispatchlab::globalopt

using namespace mlir;

namespace {

Value transpose(OpBuilder &builder, Location loc, Value source,
                ArrayRef<int64_t> permutation) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(builder, loc, source);
  applyPermutationToVector(sizes, permutation);
  Value empty = tensor::EmptyOp::create(builder, loc, sizes,
                                        getElementTypeOrSelf(source.getType()));
  return linalg::TransposeOp::create(builder, loc, source, empty, permutation)
      ->getResult(0);
}

/// IREE's TransposeInnerConcatenation.
struct TransposeToOuterDim : OpRewritePattern<tensor::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    if (!dispatchlab::globalopt::isOutsideDispatch(concat))
      return failure();
    ArrayRef<int64_t> shape = concat.getResultType().getShape();
    int64_t outer =
        llvm::find_if(shape, [](int64_t d) { return d != 1; }) - shape.begin();
    int64_t dim = concat.getDim();
    if (dim <= outer)
      return rewriter.notifyMatchFailure(concat, "already outermost");
    SmallVector<int64_t> permutation =
        computePermutationVector(concat.getRank(), {dim}, {outer});
    Location loc = concat.getLoc();
    SmallVector<Value> inputs =
        llvm::map_to_vector(concat.getInputs(), [&](Value input) {
          return transpose(rewriter, loc, input, permutation);
        });
    auto type = RankedTensorType::get(applyPermutation(shape, permutation),
                                      concat.getResultType().getElementType());
    Value outerConcat =
        tensor::ConcatOp::create(rewriter, loc, type, outer, inputs);
    rewriter.replaceOp(concat, transpose(rewriter, loc, outerConcat,
                                         invertPermutationVector(permutation)));
    return success();
  }
};

/// IREE's DecomposeNonOuterDimConcats, through upstream's
/// decomposeOperation.
struct DecomposeInnerDimConcat : OpRewritePattern<tensor::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    if (!dispatchlab::globalopt::isOutsideDispatch(concat))
      return failure();
    if (concat.getDim() == 0)
      return rewriter.notifyMatchFailure(concat, "dim-0 concats stay");
    FailureOr<SmallVector<Value>> decomposed =
        concat.decomposeOperation(rewriter);
    if (failed(decomposed))
      return rewriter.notifyMatchFailure(concat, "cannot decompose");
    rewriter.replaceOp(concat, decomposed->front());
    return success();
  }
};

struct DecomposeConcatPass
    : dispatchlab::globalopt::impl::DecomposeConcatPassBase<
          DecomposeConcatPass> {
  using DecomposeConcatPassBase::DecomposeConcatPassBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeInnerDimConcat>(&getContext());
    // Transposition first (IREE's benefit 2), so the transposed concat
    // then stays as an outer-dim one.
    if (outerDimConcat)
      patterns.add<TransposeToOuterDim>(&getContext(), /*benefit=*/2);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
