//===- RaiseSlices.cpp - slices and pads spelled as generics or inserts ---===//
//
// Mirrors the slice raisings of IREE's GlobalOptimization RaiseSpecialOps.
// A generic that reads its source with `tensor.extract` at loop indices or
// zeros reads it through an indexing map instead; a generic that only copies
// its input, fixing some positions, is an `extract_slice`, a view that forms
// no dispatch; an `insert_slice` into a splat constant is a `tensor.pad`.
//
//===----------------------------------------------------------------------===//

#include "globalopt/OutsideDispatch.h"
#include "globalopt/RaisePatterns.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace dispatchlab::globalopt;

namespace {

/// The indexing expression `index` of `extract` becomes: a zero constant
/// stays zero, `linalg.index d` becomes `d` when the source dim and loop `d`
/// have the same static size (so the op stays elementwise). Other constants
/// are refused, as in IREE, whose later lowering does not expect them.
FailureOr<AffineExpr> raiseIndex(Value index, int64_t sourceSize,
                                 ArrayRef<int64_t> resultShape) {
  MLIRContext *context = index.getContext();
  APInt constant;
  if (matchPattern(index, m_ConstantInt(&constant))) {
    if (!constant.isZero())
      return failure();
    return getAffineConstantExpr(0, context);
  }
  auto loop = index.getDefiningOp<linalg::IndexOp>();
  if (!loop)
    return failure();
  int64_t loopSize = resultShape[loop.getDim()];
  if (ShapedType::isDynamic(sourceSize) || sourceSize != loopSize)
    return failure();
  return getAffineDimExpr(loop.getDim(), context);
}

/// The new op's body: the old one, its block arguments shifted by one and
/// `extract` replaced by the new first argument.
void cloneBodyReadingInput(OpBuilder &builder, linalg::GenericOp op,
                           tensor::ExtractOp extract, ValueRange args) {
  IRMapping mapping;
  for (BlockArgument arg : op.getBody()->getArguments())
    mapping.map(arg, args[arg.getArgNumber() + 1]);
  mapping.map(extract.getResult(), args[0]);
  for (Operation &inner : op.getBody()->getOperations())
    if (&inner != extract.getOperation())
      builder.clone(inner, mapping);
}

/// Positions of `input`'s map become the slice: a constant is a unit-size,
/// rank-dropped position; a dim must be the next dim of the identity-mapped
/// output and takes its whole size.
LogicalResult sliceBounds(linalg::GenericOp op, AffineMap inputMap,
                          AffineMap outputMap, RewriterBase &rewriter,
                          SmallVector<OpFoldResult> &offsets,
                          SmallVector<OpFoldResult> &sizes) {
  Value output = op.getDpsInitOperand(0)->get();
  auto outputType = cast<RankedTensorType>(output.getType());
  unsigned next = 0;
  for (AffineExpr expr : inputMap.getResults()) {
    if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
      offsets.push_back(rewriter.getI64IntegerAttr(constant.getValue()));
      sizes.push_back(rewriter.getI64IntegerAttr(1));
      continue;
    }
    if (next >= outputType.getRank() || expr != outputMap.getResult(next))
      return failure();
    offsets.push_back(rewriter.getI64IntegerAttr(0));
    sizes.push_back(tensor::getMixedSize(rewriter, op.getLoc(), output, next));
    ++next;
  }
  return success(next == outputType.getRank());
}

/// IREE's RaiseInsertSliceToPad: the destination's splat is the padding
/// value, the offsets the low padding, what is left the high padding.
struct RaiseInsertSliceToPad : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rewriter) const override {
    if (!isOutsideDispatch(insert))
      return failure();
    if (insert.getSourceType().getRank() != insert.getResultType().getRank() ||
        !insert.hasUnitStride())
      return rewriter.notifyMatchFailure(insert, "rank-reducing or strided");
    auto dest = insert.getDest().getDefiningOp<arith::ConstantOp>();
    auto splat = dest ? dyn_cast<SplatElementsAttr>(dest.getValue()) : nullptr;
    if (!splat)
      return rewriter.notifyMatchFailure(insert, "not into a splat constant");
    Location loc = insert.getLoc();
    AffineExpr dim, size, offset;
    bindDims(rewriter.getContext(), dim, size, offset);
    SmallVector<OpFoldResult> low = insert.getMixedOffsets();
    SmallVector<OpFoldResult> high;
    for (auto [extent, lowPad, inserted] : llvm::zip_equal(
             splat.getType().getShape(), low, insert.getMixedSizes()))
      high.push_back(affine::makeComposedFoldedAffineApply(
          rewriter, loc, dim - size - offset,
          {rewriter.getIndexAttr(extent), inserted, lowPad}));
    Value padding = arith::ConstantOp::create(rewriter, dest.getLoc(),
                                              splat.getSplatValue<TypedAttr>());
    rewriter.replaceOpWithNewOp<tensor::PadOp>(
        insert, insert.getResultType(), insert.getSource(), low, high, padding);
    return success();
  }
};

} // namespace

FailureOr<linalg::GenericOp>
dispatchlab::globalopt::raiseTensorExtractToInput(linalg::GenericOp op,
                                                  RewriterBase &rewriter) {
  if (!op.hasPureTensorSemantics() || !linalg::isElementwise(op) ||
      op->getNumResults() != 1)
    return failure();
  auto extracts = op.getBody()->getOps<tensor::ExtractOp>();
  if (!llvm::hasSingleElement(extracts))
    return failure();
  tensor::ExtractOp extract = *extracts.begin();
  ArrayRef<int64_t> sourceShape = extract.getTensor().getType().getShape();
  ArrayRef<int64_t> resultShape =
      cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  SmallVector<AffineExpr> exprs;
  for (auto [index, position] : llvm::enumerate(extract.getIndices())) {
    FailureOr<AffineExpr> expr =
        raiseIndex(position, sourceShape[index], resultShape);
    if (failed(expr))
      return failure();
    exprs.push_back(*expr);
  }
  SmallVector<Value> inputs = op.getInputs();
  inputs.insert(inputs.begin(), extract.getTensor());
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps.insert(maps.begin(), AffineMap::get(op.getNumLoops(), 0, exprs,
                                           rewriter.getContext()));
  return linalg::GenericOp::create(
      rewriter, op.getLoc(), op.getResultTypes(), inputs, op.getOutputs(), maps,
      op.getIteratorTypesArray(),
      [&](OpBuilder &builder, Location, ValueRange args) {
        cloneBodyReadingInput(builder, op, extract, args);
      });
}

FailureOr<Operation *>
dispatchlab::globalopt::raiseToExtractSlice(linalg::GenericOp op,
                                            RewriterBase &rewriter) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1)
    return failure();
  auto yielded =
      dyn_cast<BlockArgument>(op.getBody()->getTerminator()->getOperand(0));
  if (!yielded || yielded.getOwner() != op.getBody() ||
      yielded.getArgNumber() != 0)
    return failure();
  AffineMap inputMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outputMap.getNumResults() >= inputMap.getNumResults() ||
      !outputMap.isIdentity())
    return failure();
  SmallVector<OpFoldResult> offsets, sizes;
  if (failed(sliceBounds(op, inputMap, outputMap, rewriter, offsets, sizes)))
    return failure();
  SmallVector<OpFoldResult> strides(inputMap.getNumResults(),
                                    rewriter.getI64IntegerAttr(1));
  return tensor::ExtractSliceOp::create(
             rewriter, op.getLoc(),
             cast<RankedTensorType>(op->getResult(0).getType()),
             op.getDpsInputOperand(0)->get(), offsets, sizes, strides)
      .getOperation();
}

void dispatchlab::globalopt::populateRaisePadPatterns(
    RewritePatternSet &patterns) {
  patterns.add<RaiseInsertSliceToPad>(patterns.getContext());
}
