//===- ConvertBatchMatmulToMatmul.cpp - broadcast weights to 2-D matmuls --===//
//
// Mirrors IREE's GlobalOptimization ConvertBatchMatmulToMatmul (as of IREE
// b48a5955). A batch_matmul whose RHS is a 2-D weight broadcast along the
// batch dim (a linalg.broadcast of dimensions [0], or its generalized
// generic) becomes collapse_shape + linalg.matmul on the weight itself +
// expand_shape: the batch and M dims of the LHS and the result are
// collapsed into one. Plain and transpose_b RHS maps are taken; a
// transposed LHS is not (collapsing [batch, K, M] would not match the
// result's [batch*M, N]), nor a broadcast along another dim or one fused
// with a transpose.
//
// IREE's pass matches the broadcast only: a unit-batch batch_matmul whose
// RHS is an expand_shape (or a constant) of rank 3 stays, in IREE as here.
//
//===----------------------------------------------------------------------===//

#include "globalopt/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab::globalopt {
#define GEN_PASS_DEF_CONVERTBATCHMATMULTOMATMULPASS
#include "globalopt/Passes.h.inc"
} // namespace dispatchlab::globalopt

using namespace mlir;

namespace {

/// IREE's getOriginalBroadcastWeight: the 2-D weight `op` broadcasts along
/// dim 0 only, as linalg.broadcast or as the generic GeneralizeLinalgNamedOps
/// makes of it (identity output map, input map (d0, ..., dN) -> (d1, ...,
/// dN) in order, a body yielding its input).
FailureOr<Value> getBroadcastWeight(Operation *op) {
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(op)) {
    ArrayRef<int64_t> dims = broadcast.getDimensions();
    if (dims.size() != 1 || dims[0] != 0)
      return failure();
    return broadcast.getInput();
  }
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1)
    return failure();
  if (generic.getNumParallelLoops() != generic.getNumLoops())
    return failure();
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  AffineMap inputMap = maps[0], outputMap = maps[1];
  if (!outputMap.isIdentity() || !inputMap.isProjectedPermutation())
    return failure();
  if (inputMap.getNumResults() != outputMap.getNumDims() - 1)
    return failure();
  for (auto [i, expr] : llvm::enumerate(inputMap.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || dim.getPosition() != i + 1)
      return failure();
  }
  Block *body = generic.getBody();
  if (body->getNumArguments() != 2)
    return failure();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1 ||
      yield.getOperand(0) != body->getArgument(0))
    return failure();
  return generic.getDpsInputs()[0];
}

int64_t collapsedSize(int64_t a, int64_t b) {
  if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b))
    return ShapedType::kDynamic;
  return a * b;
}

/// [batch, d1, d2] -> [batch * d1, d2].
Value collapseBatch(OpBuilder &builder, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  auto collapsed = RankedTensorType::get(
      {collapsedSize(type.getDimSize(0), type.getDimSize(1)),
       type.getDimSize(2)},
      type.getElementType());
  SmallVector<ReassociationIndices> reassociation = {{0, 1}, {2}};
  return tensor::CollapseShapeOp::create(builder, loc, collapsed, value,
                                         reassociation);
}

/// [batch * M, N] -> `type` ([batch, M, N]); dynamic batch and M sizes are
/// read off the LHS, a dynamic N off the original init, as IREE does.
Value expandBatch(OpBuilder &builder, Location loc, Value value,
                  RankedTensorType type, Value lhs, Value init) {
  SmallVector<OpFoldResult> shape;
  for (int64_t i = 0; i < 3; ++i) {
    if (!type.isDynamicDim(i)) {
      shape.push_back(builder.getIndexAttr(type.getDimSize(i)));
      continue;
    }
    Value index = arith::ConstantIndexOp::create(builder, loc, i);
    shape.push_back(
        tensor::DimOp::create(builder, loc, i < 2 ? lhs : init, index)
            .getResult());
  }
  SmallVector<ReassociationIndices> reassociation = {{0, 1}, {2}};
  return tensor::ExpandShapeOp::create(builder, loc, type, value, reassociation,
                                       shape);
}

/// IREE's ConvertBroadcastBatchMatmulToMatmul.
struct ConvertBroadcastBatchMatmul : OpRewritePattern<linalg::BatchMatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::BatchMatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    Operation *rhsProducer = op.getDpsInputOperand(1)->get().getDefiningOp();
    if (!rhsProducer)
      return rewriter.notifyMatchFailure(op, "RHS is not computed");
    FailureOr<Value> weight = getBroadcastWeight(rhsProducer);
    if (failed(weight))
      return rewriter.notifyMatchFailure(op, "RHS is no batch broadcast");

    // Maps over (batch, m, n, k): the LHS must be (b, m, k) and the result
    // (b, m, n); the RHS (b, k, n) or, transpose_b, (b, n, k).
    MLIRContext *ctx = op.getContext();
    AffineExpr b, m, n, k;
    bindDims(ctx, b, m, n, k);
    auto mapOf = [&](ArrayRef<AffineExpr> results) {
      return AffineMap::get(4, 0, results, ctx);
    };
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    if (maps.size() != 3 || maps[0] != mapOf({b, m, k}) ||
        maps[2] != mapOf({b, m, n}))
      return rewriter.notifyMatchFailure(op, "LHS or result not (b, m, _)");
    bool transposeB;
    if (maps[1] == mapOf({b, k, n}))
      transposeB = false;
    else if (maps[1] == mapOf({b, n, k}))
      transposeB = true;
    else
      return rewriter.notifyMatchFailure(op, "RHS map not (b, k, n)/(b, n, k)");

    Location loc = op.getLoc();
    Value lhs = op.getDpsInputOperand(0)->get();
    Value init = op.getDpsInitOperand(0)->get();
    auto resultType = cast<RankedTensorType>(init.getType());
    Value collapsedLhs = collapseBatch(rewriter, loc, lhs);
    Value collapsedInit = collapseBatch(rewriter, loc, init);
    Type matmulType = collapsedInit.getType();
    SmallVector<Value> inputs = {collapsedLhs, *weight};
    linalg::MatmulOp matmul =
        transposeB ? linalg::MatmulTransposeBOp::create(
                         rewriter, loc, matmulType, inputs, collapsedInit)
                   : linalg::MatmulOp::create(rewriter, loc, matmulType, inputs,
                                              collapsedInit);
    rewriter.replaceOp(op, expandBatch(rewriter, loc, matmul.getResult(0),
                                       resultType, lhs, init));
    return success();
  }
};

struct ConvertBatchMatmulToMatmulPass
    : dispatchlab::globalopt::impl::ConvertBatchMatmulToMatmulPassBase<
          ConvertBatchMatmulToMatmulPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ConvertBroadcastBatchMatmul>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
