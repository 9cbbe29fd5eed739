//===- VectorizeDispatches.cpp - Linalg ops of dispatches to vectors ------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_VECTORIZEDISPATCHESPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// `loop * stride + offset` with a constant stride above 1.
struct StridedAccess {
  unsigned loop;
  int64_t stride;
  int64_t offset;
};

std::optional<StridedAccess> matchStridedAccess(AffineExpr expr) {
  int64_t offset = 0;
  if (auto add = dyn_cast<AffineBinaryOpExpr>(expr);
      add && add.getKind() == AffineExprKind::Add)
    if (auto constant = dyn_cast<AffineConstantExpr>(add.getRHS())) {
      expr = add.getLHS();
      offset = constant.getValue();
    }
  auto mul = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!mul || mul.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  auto loop = dyn_cast<AffineDimExpr>(mul.getLHS());
  auto factor = dyn_cast<AffineConstantExpr>(mul.getRHS());
  if (!loop || !factor || factor.getValue() <= 1)
    return std::nullopt;
  return StridedAccess{loop.getPosition(), factor.getValue(), offset};
}

/// Rewrites each input access `d * s + c` (constant s > 1) into `d` on a
/// strided slice of the input starting at c. Once a convolution's window
/// dims are dropped, its stride is the only thing keeping it from being a
/// contraction the vectorizer takes; the slice holds it instead.
linalg::GenericOp sliceStridedInputs(RewriterBase &rewriter,
                                     linalg::GenericOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<Value> inputs = op.getDpsInputs();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  bool changed = false;
  for (auto [index, input] : llvm::enumerate(inputs)) {
    auto type = dyn_cast<RankedTensorType>(input.getType());
    if (!type || !type.hasStaticShape())
      continue;
    AffineMap map = maps[index];
    SmallVector<AffineExpr> results(map.getResults());
    SmallVector<OpFoldResult> offsets, sizes, strides;
    bool strided = false;
    for (auto [dim, expr] : llvm::enumerate(results)) {
      std::optional<StridedAccess> access = matchStridedAccess(expr);
      offsets.push_back(rewriter.getIndexAttr(access ? access->offset : 0));
      sizes.push_back(rewriter.getIndexAttr(access ? ranges[access->loop]
                                                   : type.getDimSize(dim)));
      strides.push_back(rewriter.getIndexAttr(access ? access->stride : 1));
      if (!access)
        continue;
      results[dim] = rewriter.getAffineDimExpr(access->loop);
      strided = true;
    }
    if (!strided)
      continue;
    rewriter.setInsertionPoint(op);
    inputs[index] = tensor::ExtractSliceOp::create(rewriter, op.getLoc(), input,
                                                   offsets, sizes, strides);
    maps[index] = AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                                 rewriter.getContext());
    changed = true;
  }
  if (!changed)
    return op;
  rewriter.modifyOpInPlace(op, [&] {
    op.getInputsMutable().assign(inputs);
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  return op;
}

/// Drops unit loops (a convolution's window dims once tiled to 1, the outer
/// dims of a tile) and strides, so that what remains is a contraction or
/// elementwise op on vectors without leading unit dims.
linalg::LinalgOp simplifyForVectorization(RewriterBase &rewriter,
                                          linalg::LinalgOp op) {
  // An mmt4d tile's unit outer dims and K0 drop only from its generic form,
  // leaving a contraction of an M0 x N0 accumulator.
  if (isa<linalg::Mmt4DOp, linalg::BatchMmt4DOp>(op)) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, op);
    if (succeeded(generic))
      op = *generic;
  }
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic)
    return op;
  linalg::ControlDropUnitDims control;
  control.rankReductionStrategy =
      linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
  rewriter.setInsertionPoint(generic);
  FailureOr<linalg::DropUnitDimsResult> dropped =
      linalg::dropUnitDims(rewriter, generic, control);
  if (succeeded(dropped)) {
    rewriter.replaceOp(generic, dropped->replacements);
    generic = cast<linalg::GenericOp>(dropped->resultOp.getOperation());
  }
  return sliceStridedInputs(rewriter, generic);
}

struct VectorizeDispatchesPass
    : impl::VectorizeDispatchesPassBase<VectorizeDispatchesPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!function->hasAttr(kDispatchFunctionAttr))
      return;
    SmallVector<linalg::LinalgOp> candidates;
    function.walk([&](linalg::LinalgOp op) {
      if (op.hasDynamicShape() || !linalg::hasVectorizationImpl(op))
        return;
      int64_t elements = 1;
      for (int64_t extent : op.getStaticLoopRanges())
        elements *= extent;
      if (elements <= maxVectorElements)
        candidates.push_back(op);
    });
    // Tiles of packs and unpacks (data tiling) too, from their static
    // shapes.
    SmallVector<Operation *> relayouts;
    function.walk([&](Operation *op) {
      if (!isa<linalg::PackOp, linalg::UnPackOp>(op))
        return;
      auto type = cast<RankedTensorType>(op->getResult(0).getType());
      auto source = cast<RankedTensorType>(op->getOperand(0).getType());
      if (type.hasStaticShape() && source.hasStaticShape() &&
          type.getNumElements() <= maxVectorElements)
        relayouts.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : relayouts) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, op);
      if (succeeded(result))
        rewriter.replaceOp(op, result->replacements);
    }
    for (linalg::LinalgOp op : candidates) {
      op = simplifyForVectorization(rewriter, op);
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, op, /*inputVectorSizes=*/{},
                            /*inputScalableVecDims=*/{},
                            /*vectorizeNDExtract=*/true,
                            /*flatten1DDepthwiseConv=*/false,
                            /*assumeDynamicDimsMatchVecSizes=*/false,
                            /*createNamedContraction=*/true);
      // Ops the vectorizer declines stay scalar; they become loops later.
      if (failed(result))
        continue;
      if (result->replacements.empty())
        rewriter.eraseOp(op);
      else
        rewriter.replaceOp(op, result->replacements);
    }

    // A contraction generic vectorizes to broadcasting reads, a multiply and
    // a multi-reduction; folded back into one vector.contract it lowers to
    // outer products (FMAs) instead of a reduction per element.
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    if (failed(applyPatternsGreedily(function, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace dispatchlab
