//===- DetachElementwiseFromNamedOps.cpp - zero-fill contraction inits ----===//
//
// Mirrors IREE's GlobalOptimization DetachElementwiseFromNamedOps. A
// contraction or convolution accumulating into a computed tensor (TOSA's
// convolutions accumulate into their broadcast bias) accumulates into zero
// instead, and a separate elementwise add applies the former init: the
// contraction's init is then a fill, which formation clones, and the add is
// an ordinary consumer.
//
//===----------------------------------------------------------------------===//

#include "globalopt/OutsideDispatch.h"
#include "globalopt/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab::globalopt {
#define GEN_PASS_DEF_DETACHELEMENTWISEFROMNAMEDOPSPASS
#include "globalopt/Passes.h.inc"
} // namespace dispatchlab::globalopt

using namespace mlir;

namespace {

bool isNonSplatConstant(Value value) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  auto elements =
      constant ? dyn_cast<ElementsAttr>(constant.getValue()) : ElementsAttr();
  return elements && !elements.isSplat();
}

/// IREE's rule: detach inits computed by a Linalg op other than a fill, and
/// non-splat constants; function arguments and fills stay.
bool needsDetach(Value init) {
  Operation *producer = init.getDefiningOp();
  return isNonSplatConstant(init) ||
         (isa_and_nonnull<linalg::LinalgOp>(producer) &&
          !isa<linalg::FillOp>(producer));
}

struct DetachElementwise : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!dispatchlab::globalopt::isOutsideDispatch(op) ||
        (!linalg::isaContractionOpInterface(op) &&
         !linalg::isaConvolutionOpInterface(op)) ||
        !op.hasPureTensorSemantics() || op.getNumDpsInits() != 1)
      return failure();
    OpOperand *initOperand = op.getDpsInitOperand(0);
    Value init = initOperand->get();
    auto type = cast<RankedTensorType>(init.getType());
    if (!needsDetach(init) || !type.getElementType().isIntOrFloat())
      return failure();
    if (!op.getMatchingIndexingMap(initOperand).isProjectedPermutation())
      return rewriter.notifyMatchFailure(op, "init map is no permutation");

    Location loc = op.getLoc();
    Type elementType = type.getElementType();
    Value empty = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, init), elementType);
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getZeroAttr(elementType));
    Value fill = linalg::FillOp::create(rewriter, loc, zero, empty).result();
    rewriter.modifyOpInPlace(op, [&] { op.setDpsInitOperand(0, fill); });

    rewriter.setInsertionPointAfter(op);
    unsigned rank = type.getRank();
    SmallVector<AffineMap> maps(3, rewriter.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto add = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{op->getResult(0), init}, fill, maps,
        iterators, [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          Value sum = isa<FloatType>(elementType)
                          ? arith::AddFOp::create(b, bodyLoc, args[0], args[1])
                                .getResult()
                          : arith::AddIOp::create(b, bodyLoc, args[0], args[1])
                                .getResult();
          linalg::YieldOp::create(b, bodyLoc, sum);
        });
    rewriter.replaceAllUsesExcept(op->getResult(0), add->getResult(0), add);
    return success();
  }
};

/// A splat-constant init of a Linalg or LinalgExt op becomes empty + fill,
/// which formation clones instead of materializing the constant (IREE's
/// DetachSplatConstantOutsOperands, instantiated for both). LinalgExt is
/// named by its dialect: its ops live in a library above this one.
struct DetachSplatConstantInit
    : OpInterfaceRewritePattern<DestinationStyleOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(DestinationStyleOpInterface op,
                                PatternRewriter &rewriter) const override {
    bool linalgExt = op->getDialect() &&
                     op->getDialect()->getNamespace() == "iree_linalg_ext";
    if ((!isa<linalg::LinalgOp>(op.getOperation()) && !linalgExt) ||
        !dispatchlab::globalopt::isOutsideDispatch(op))
      return failure();
    bool changed = false;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      auto constant = init.get().getDefiningOp<arith::ConstantOp>();
      auto splat = constant ? dyn_cast<SplatElementsAttr>(constant.getValue())
                            : SplatElementsAttr();
      if (!splat || !splat.getElementType().isIntOrFloat())
        continue;
      Location loc = constant.getLoc();
      Value empty = tensor::EmptyOp::create(
          rewriter, loc, splat.getType().getShape(), splat.getElementType());
      Value scalar = arith::ConstantOp::create(
          rewriter, loc, cast<TypedAttr>(splat.getSplatValue<Attribute>()));
      Value fill =
          linalg::FillOp::create(rewriter, loc, scalar, empty).result();
      rewriter.modifyOpInPlace(op, [&] { init.set(fill); });
      changed = true;
    }
    return success(changed);
  }
};

struct DetachElementwiseFromNamedOpsPass
    : dispatchlab::globalopt::impl::DetachElementwiseFromNamedOpsPassBase<
          DetachElementwiseFromNamedOpsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DetachElementwise, DetachSplatConstantInit>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
