//===- SinkLayoutTransposes.cpp - keep activations channels-last ----------===//
//
// The importer's convolutions and pools run in NHWC between transposes from
// and back to NCHW. Sinking the NCHW-ward transposes through the elementwise
// ops after them lets them meet the NHWC-ward transposes of the next layer
// and cancel, so activations between layers stay channels-last as the
// layers compute them. The rules are IREE's transpose sinking
// (GlobalOptimization/PropagateLinalgTranspose), see Passes.td.
//
//===----------------------------------------------------------------------===//

#include "core/onnx/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_SINKLAYOUTTRANSPOSESPASS
#include "core/onnx/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace {

/// `source` transposed by `perm`.
Value transposed(OpBuilder &builder, Location loc, Value source,
                 ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(source.getType());
  Value init = tensor::EmptyOp::create(builder, loc,
                                       applyPermutation(type.getShape(), perm),
                                       type.getElementType());
  return linalg::TransposeOp::create(builder, loc, source, init, perm)
      ->getResult(0);
}

/// Elementwise generics whose result can be computed in another layout: all
/// loops parallel, one static result with an identity map whose init the
/// body does not read, no linalg.index.
bool isRelayoutableElementwise(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.hasIndexSemantics() ||
      op.getNumParallelLoops() != op.getNumLoops())
    return false;
  OpOperand *init = op.getDpsInitOperand(0);
  return op.getMatchingIndexingMap(init).isIdentity() &&
         !op.payloadUsesValueFromOperand(init) &&
         cast<RankedTensorType>(init->get().getType()).hasStaticShape();
}

/// The permutation by which every identity-read input of `op` is a
/// transpose, or none when one such input is not, or two differ.
std::optional<SmallVector<int64_t>>
commonInputPermutation(linalg::GenericOp op) {
  std::optional<SmallVector<int64_t>> common;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!op.getMatchingIndexingMap(input).isIdentity())
      continue;
    auto transpose = input->get().getDefiningOp<linalg::TransposeOp>();
    if (!transpose)
      return std::nullopt;
    ArrayRef<int64_t> perm = transpose.getPermutation();
    if (common && ArrayRef<int64_t>(*common) != perm)
      return std::nullopt;
    common = SmallVector<int64_t>(perm);
  }
  return common;
}

bool isRankPreserving(tensor::ExtractSliceOp slice) {
  return slice.getSourceType().getRank() == slice.getResultType().getRank();
}

/// Whether every user of `op`'s result can take the transpose sunk below
/// `op`: another transpose (which it cancels or composes with), a slice or
/// an elementwise op it may sink through next. A reduction reading the
/// transposed result would read it across its innermost dim instead, which
/// is slower than the transpose saved (EfficientNet-B0's squeeze pools).
bool usersTakeTranspose(linalg::GenericOp op) {
  return llvm::all_of(op->getUsers(), [](Operation *user) {
    auto generic = dyn_cast<linalg::GenericOp>(user);
    auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
    return isa<linalg::TransposeOp>(user) ||
           (slice && isRankPreserving(slice)) ||
           (generic && isRelayoutableElementwise(generic));
  });
}

/// elementwise(transpose(a, P), transpose(b, P), bcast) ->
/// transpose(elementwise(a, b, bcast read through its map composed with P), P)
struct SinkTransposesThroughElementwise : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isRelayoutableElementwise(op))
      return rewriter.notifyMatchFailure(op, "not a relayoutable elementwise");
    std::optional<SmallVector<int64_t>> perm = commonInputPermutation(op);
    if (!perm)
      return rewriter.notifyMatchFailure(op, "inputs not transposed alike");
    if (!usersTakeTranspose(op))
      return rewriter.notifyMatchFailure(op, "a user would read it transposed");

    // Loop i of `op` is loop perm[i] of the new op, which iterates over the
    // transposes' input shape.
    AffineMap toNewLoops = AffineMap::getPermutationMap(*perm, getContext());
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<Value> operands;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap &map = maps[input->getOperandNumber()];
      if (map.isIdentity()) {
        operands.push_back(
            input->get().getDefiningOp<linalg::TransposeOp>().getInput());
        continue;
      }
      map = map.compose(toNewLoops);
      operands.push_back(input->get());
    }
    // The body does not read the init, so an empty tensor will do.
    auto type = cast<RankedTensorType>(op.getResult(0).getType());
    operands.push_back(tensor::EmptyOp::create(
        rewriter, op.getLoc(),
        applyPermutation(type.getShape(), invertPermutationVector(*perm)),
        type.getElementType()));

    auto sunk = cast<linalg::GenericOp>(
        mlir::clone(rewriter, op, operands.back().getType(), operands));
    sunk.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    rewriter.replaceOp(
        op, transposed(rewriter, op.getLoc(), sunk->getResult(0), *perm));
    return success();
  }
};

/// extract_slice(transpose(x, P)) -> transpose(extract_slice(x), P), for
/// slices that keep their rank (IREE's SinkTransposeThroughExtractSlice, which
/// also requires the new slice to be contiguous: here any slice will do, as
/// the transpose it meets next is what matters).
struct SinkTransposeThroughExtractSlice
    : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getSource().getDefiningOp<linalg::TransposeOp>();
    if (!transpose)
      return rewriter.notifyMatchFailure(op, "source is no transpose");
    if (!isRankPreserving(op))
      return rewriter.notifyMatchFailure(op, "rank-reducing slice");
    SmallVector<int64_t> inverse =
        invertPermutationVector(transpose.getPermutation());
    SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = op.getMixedSizes();
    SmallVector<OpFoldResult> strides = op.getMixedStrides();
    applyPermutationToVector(offsets, inverse);
    applyPermutationToVector(sizes, inverse);
    applyPermutationToVector(strides, inverse);
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, op.getLoc(), transpose.getInput(), offsets, sizes, strides);
    rewriter.replaceOp(op, transposed(rewriter, op.getLoc(), slice,
                                      transpose.getPermutation()));
    return success();
  }
};

struct SinkLayoutTransposesPass
    : dispatchlab::impl::SinkLayoutTransposesPassBase<
          SinkLayoutTransposesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SinkTransposesThroughElementwise,
                 SinkTransposeThroughExtractSlice>(&getContext());
    // Upstream's canonicalization composes transposes, and cancels inverse
    // ones (IREE's ComposeTransposes).
    linalg::TransposeOp::getCanonicalizationPatterns(patterns, &getContext());
    tensor::EmptyOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
