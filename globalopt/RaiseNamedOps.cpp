//===- RaiseNamedOps.cpp - generics that are named ops in disguise --------===//
//
// Mirrors three raisings of IREE's GlobalOptimization RaiseSpecialOps:
// NamedImplicitCastOpConversion (an elementwise extending cast feeding a
// named contraction or convolution moves into its body, one dispatch less),
// FuseMatmulTranspose / FuseBatchMatmulTranspose (a matmul of a transposed
// RHS reads it transposed instead) and RaiseGenericFill.
//
//===----------------------------------------------------------------------===//

#include "globalopt/OutsideDispatch.h"
#include "globalopt/PrunedAttributes.h"
#include "globalopt/RaisePatterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace dispatchlab::globalopt;

namespace {

/// IREE's getDefiningNonI1ExtendingCastOp for a generic producer: its body
/// is one cast of its input, widening and not from i1. IREE also accepts a
/// cast of a value from outside the body, which folding would turn into a
/// cast of the input; we do not.
CastOpInterface getExtendingCast(linalg::GenericOp producer) {
  if (producer.getNumDpsInputs() != 1 || producer.getNumDpsInits() != 1 ||
      producer.getBody()->getOperations().size() != 2 ||
      !linalg::isElementwise(producer))
    return {};
  Value yielded = producer.getBody()->getTerminator()->getOperand(0);
  auto cast = yielded.getDefiningOp<CastOpInterface>();
  if (!cast)
    return {};
  auto arg = dyn_cast<BlockArgument>(cast->getOperand(0));
  if (!arg || arg.getOwner() != producer.getBody() || arg.getArgNumber() != 0)
    return {};
  unsigned from =
      getElementTypeOrSelf(cast->getOperand(0)).getIntOrFloatBitWidth();
  unsigned to =
      getElementTypeOrSelf(cast->getResult(0)).getIntOrFloatBitWidth();
  return from != 1 && from < to ? cast : CastOpInterface();
}

/// extf always folds; extsi only into an op that extends signed (not a
/// matmul with unsigned cast, not an unsigned pooling); extui never.
bool canFoldCast(Operation *named, CastOpInterface cast) {
  if (isa<arith::ExtFOp>(cast))
    return true;
  if (!isa<arith::ExtSIOp>(cast))
    return false;
  if (auto matmul = dyn_cast<linalg::MatmulOp>(named))
    return matmul.getCast() != linalg::TypeFn::cast_unsigned;
  return !isa<linalg::PoolingNhwcMaxUnsignedOp,
              linalg::PoolingNhwcMinUnsignedOp, linalg::PoolingNwcMaxUnsignedOp,
              linalg::PoolingNwcMinUnsignedOp>(named);
}

/// Reads `operand` of `named` from the cast producer's source and casts in
/// the body instead. Fails, changing nothing, when the operand already has
/// its own element type or its producer is not an identity-mapped cast.
LogicalResult foldCastOperand(Operation *named, OpOperand &operand,
                              RewriterBase &rewriter) {
  Type resultType = getElementTypeOrSelf(named->getResultTypes()[0]);
  auto producer = operand.get().getDefiningOp<linalg::GenericOp>();
  if (getElementTypeOrSelf(operand.get().getType()) != resultType ||
      !producer ||
      !llvm::all_of(producer.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return failure();
  CastOpInterface cast = getExtendingCast(producer);
  if (!cast || !canFoldCast(named, cast))
    return failure();
  Value source = producer.getDpsInputOperand(0)->get();
  unsigned number = operand.getOperandNumber();
  Block *body = &named->getRegion(0).front();
  rewriter.modifyOpInPlace(named, [&] {
    named->setOperand(number, source);
    BlockArgument narrow = body->insertArgument(
        number, getElementTypeOrSelf(source), named->getLoc());
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(body);
    IRMapping mapping;
    mapping.map(cast->getOperand(0), narrow);
    Value widened = rewriter.clone(*cast, mapping)->getResult(0);
    body->getArgument(number + 1).replaceAllUsesWith(widened);
    body->eraseArgument(number + 1);
  });
  return success();
}

template <typename InterfaceTy>
struct RaiseImplicitCast : OpInterfaceRewritePattern<InterfaceTy> {
  using OpInterfaceRewritePattern<InterfaceTy>::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(InterfaceTy op,
                                PatternRewriter &rewriter) const override {
    Operation *named = op.getOperation();
    auto linalgOp = dyn_cast<linalg::LinalgOp>(named);
    if (!isOutsideDispatch(named) || !linalgOp ||
        !linalgOp.hasPureTensorSemantics())
      return failure();
    bool lhs =
        succeeded(foldCastOperand(named, named->getOpOperand(0), rewriter));
    bool rhs =
        succeeded(foldCastOperand(named, named->getOpOperand(1), rewriter));
    return success(lhs || rhs);
  }
};

/// A generic that only swaps the two innermost dims of its input (input map
/// identity, output map transposed), as IREE's matchInner2DTranspose.
bool isInner2DTranspose(Value value, unsigned rank) {
  auto op = value.getDefiningOp<linalg::GenericOp>();
  if (!op || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != rank || op.getNumParallelLoops() != rank)
    return false;
  MLIRContext *context = op.getContext();
  SmallVector<unsigned> swapped = llvm::to_vector(llvm::seq<unsigned>(0, rank));
  std::swap(swapped[rank - 1], swapped[rank - 2]);
  SmallVector<AffineMap> expected = {
      AffineMap::getMultiDimIdentityMap(rank, context),
      AffineMap::getPermutationMap(swapped, context)};
  auto yielded =
      dyn_cast<BlockArgument>(op.getBody()->getTerminator()->getOperand(0));
  return op.getIndexingMapsArray() == expected &&
         llvm::hasSingleElement(*op.getBody()) && yielded &&
         yielded.getOwner() == op.getBody() && yielded.getArgNumber() == 0;
}

/// IREE's FuseMatmulTranspose (rank 2) and FuseBatchMatmulTranspose (rank
/// 3): a plain `OpTy` whose RHS is an inner transpose becomes `TransposedTy`
/// of the transpose's input.
template <typename OpTy, typename TransposedTy, unsigned Rank>
struct RaiseTransposedRhs : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!isOutsideDispatch(op) ||
        !OpTy::isDefaultIndexingMaps(op.getIndexingMaps()))
      return failure();
    Value rhs = op.getDpsInputOperand(1)->get();
    if (!isInner2DTranspose(rhs, Rank))
      return rewriter.notifyMatchFailure(op, "RHS is not a transpose");
    Value source = rhs.template getDefiningOp<linalg::GenericOp>()
                       .getDpsInputOperand(0)
                       ->get();
    Value lhs = op.getDpsInputOperand(0)->get();
    Value init = op.getDpsInitOperand(0)->get();
    SmallVector<NamedAttribute> attrs = prunedAttributes(op);
    rewriter.replaceOp(op, TransposedTy::create(rewriter, op.getLoc(),
                                                op->getResultTypes(),
                                                ValueRange{lhs, source},
                                                ValueRange{init}, attrs));
    return success();
  }
};

/// IREE's RaiseGenericFill: an all-parallel generic without inputs whose
/// body yields a value defined outside it.
struct RaiseGenericFill : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isOutsideDispatch(op) || op.getNumDpsInputs() != 0 ||
        op.getNumDpsInits() != 1 ||
        op.getNumParallelLoops() != op.getNumLoops() ||
        !op.getIndexingMapsArray()[0].isIdentity() ||
        !llvm::hasSingleElement(*op.getBody()))
      return failure();
    Value yielded = op.getBody()->getTerminator()->getOperand(0);
    if (auto arg = dyn_cast<BlockArgument>(yielded);
        arg && arg.getOwner() == op.getBody())
      return rewriter.notifyMatchFailure(op, "yields its init");
    SmallVector<NamedAttribute> attrs = prunedAttributes(op);
    rewriter.replaceOpWithNewOp<linalg::FillOp>(
        op, ValueRange{yielded}, ValueRange{op.getDpsInitOperand(0)->get()},
        attrs);
    return success();
  }
};

} // namespace

void dispatchlab::globalopt::populateRaiseNamedOpPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns
      .add<RaiseImplicitCast<linalg::ConvolutionOpInterface>,
           RaiseImplicitCast<linalg::ContractionOpInterface>, RaiseGenericFill>(
          context);
  patterns
      .add<RaiseTransposedRhs<linalg::MatmulOp, linalg::MatmulTransposeBOp, 2>,
           RaiseTransposedRhs<linalg::BatchMatmulOp,
                              linalg::BatchMatmulTransposeBOp, 3>>(context);
}
