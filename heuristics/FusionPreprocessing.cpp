//===- FusionPreprocessing.cpp - normalize IR before fusion ---------------===//
//
// Mirrors IREE's DispatchCreation FusionPreprocessing pass:
// makes elementwise generics read their inputs through identity maps (so
// elementwise fusion and formation see aligned loops), folds a padded value
// that is padded again into one fill + insert_slice, resolves tensor.dim of
// op results, and folds pads and slices into pack/unpack ops.
//
// Divergences: the insert_slice fold checks the strides of both slices (IREE
// checks the outer slice twice) and needs the outer slice not to drop dims
// (IREE would assert on it). The pack/unpack folds are upstream's
// populateFoldIntoPackAndUnpackPatterns, which is what IREE uses too. Older
// IREE versions also inlined bit-extend producers into gathers here; that
// rule now belongs to ElementwiseOpFusion and is not reproduced.
//
//===----------------------------------------------------------------------===//

#include "heuristics/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_FUSIONPREPROCESSINGPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

namespace {
// Mirrors IREE's ElementwiseOpInterchangePattern: a single-result elementwise
// generic whose inputs all share one non-identity permutation map is
// interchanged so they become identity reads (the permutation moves to the
// output map).
struct IdentityInputMaps : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!linalg::isElementwise(op) || op.getNumResults() != 1 ||
        op.getNumDpsInputs() == 0)
      return rewriter.notifyMatchFailure(op, "not a 1-result elementwise op");
    AffineMap inputMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
    if (inputMap.isIdentity() || !inputMap.isPermutation() ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isPermutation())
      return rewriter.notifyMatchFailure(op, "no permuted input map");
    if (llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
          return op.getMatchingIndexingMap(input) != inputMap;
        }))
      return rewriter.notifyMatchFailure(op, "inputs read differently");
    SmallVector<unsigned> order =
        llvm::map_to_vector(inputMap.getResults(), [](AffineExpr expr) {
          return cast<AffineDimExpr>(expr).getPosition();
        });
    return linalg::interchangeGenericOp(rewriter, op, order);
  }
};

// Mirrors IREE's FoldSuccessiveTensorInsertSliceOps:
//   %p = insert_slice %a into fill(%c); %q = insert_slice %p into fill(%c)
// becomes %q = insert_slice %a into fill(%c) at the summed offsets, so the
// twice-padded value is one insert_slice that can fuse with %a's producer.
struct FoldNestedFillInsertSlice
    : public OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::InsertSliceOp outer,
                                PatternRewriter &rewriter) const override {
    auto inner = outer.getSource().getDefiningOp<tensor::InsertSliceOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(outer, "source is no insert_slice");
    auto innerFill = inner.getDest().getDefiningOp<linalg::FillOp>();
    auto outerFill = outer.getDest().getDefiningOp<linalg::FillOp>();
    if (!innerFill || !outerFill ||
        innerFill.getDpsInputOperand(0)->get() !=
            outerFill.getDpsInputOperand(0)->get())
      return rewriter.notifyMatchFailure(outer, "not two fills of one value");
    if (!llvm::all_of(inner.getMixedStrides(), isOneInteger) ||
        !llvm::all_of(outer.getMixedStrides(), isOneInteger))
      return rewriter.notifyMatchFailure(outer, "non-unit strides");
    // Offsets are added per dim, so the outer slice must keep every dim.
    if (outer.getSourceType().getRank() != outer.getDestType().getRank())
      return rewriter.notifyMatchFailure(outer, "rank-reducing outer slice");

    AffineExpr d0, d1;
    bindDims(rewriter.getContext(), d0, d1);
    SmallVector<OpFoldResult> offsets;
    for (auto [innerOffset, outerOffset] :
         llvm::zip_equal(inner.getMixedOffsets(), outer.getMixedOffsets()))
      offsets.push_back(affine::makeComposedFoldedAffineApply(
          rewriter, outer.getLoc(), d0 + d1, {innerOffset, outerOffset}));
    SmallVector<OpFoldResult> strides(offsets.size(), rewriter.getIndexAttr(1));
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        outer, inner.getSource(), outer.getDest(), offsets,
        inner.getMixedSizes(), strides);
    return success();
  }
};

struct FusionPreprocessingPass
    : public dispatchlab::impl::FusionPreprocessingPassBase<
          FusionPreprocessingPass> {
  using FusionPreprocessingPassBase::FusionPreprocessingPassBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<IdentityInputMaps, FoldNestedFillInsertSlice>(&getContext());
    // tensor.dim of an op result in terms of the op's operands, as IREE does.
    memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
    memref::populateResolveShapedTypeResultDimsPatterns(patterns);
    linalg::populateFoldIntoPackAndUnpackPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
