//===- RaiseRotateHalf.cpp - rotate-half as one generic -------------------===//
//
// Mirrors the concatenate-negate-and-slice raisings of IREE's
// GlobalOptimization RaiseSpecialOps. Rotary position embeddings rotate
// half of the innermost dim: x = [a, b] becomes [-b, a], spelled as two
// extract_slices, a negating generic and a concat (or two insert_slices).
// That is four ops for the formation to place; one generic over the input
// seen as [..., 2, n/2] reads both halves:
//
//   out[..., h, j] = h == 0 ? -in[..., 1, j] : in[..., 0, j]
//
//===----------------------------------------------------------------------===//

#include "globalopt/OutsideDispatch.h"
#include "globalopt/RaisePatterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace dispatchlab::globalopt;

namespace {

/// A generic whose one input's negation is all it yields.
bool isNegation(linalg::GenericOp op) {
  Block *body = op.getBlock();
  if (body->getNumArguments() != 2)
    return false;
  auto negate =
      body->getTerminator()->getOperand(0).getDefiningOp<arith::NegFOp>();
  return negate && negate.getOperand() == body->getArgument(0);
}

/// The halves of `source` the pair reads: `first` at offset zero, `second`
/// right after it, both unit-stride and of equal size, the innermost dim
/// being all that is split.
bool areHalves(tensor::ExtractSliceOp first, tensor::ExtractSliceOp second) {
  if (first.getSource() != second.getSource() || !first.hasUnitStride() ||
      !second.hasUnitStride() || !first.hasZeroOffset())
    return false;
  SmallVector<OpFoldResult> sizes = first.getMixedSizes();
  SmallVector<OpFoldResult> offsets = second.getMixedOffsets();
  auto sourceType = cast<RankedTensorType>(first.getSource().getType());
  std::optional<int64_t> half = getConstantIntValue(sizes.back());
  return sizes == second.getMixedSizes() &&
         llvm::all_of(ArrayRef(offsets).drop_back(), isZeroInteger) &&
         offsets.back() == sizes.back() && half &&
         sourceType.getDimSize(sourceType.getRank() - 1) == 2 * *half;
}

/// The two slices of a rotate-half's source.
struct Halves {
  tensor::ExtractSliceOp first;  // kept, at offset zero
  tensor::ExtractSliceOp second; // negated
};

/// The halves `negated` and `kept` rotate: `kept` is the first half,
/// `negated` negates the second.
FailureOr<Halves> matchRotation(Value negated, Value kept, Type resultType) {
  auto negate = negated.getDefiningOp<linalg::GenericOp>();
  auto first = kept.getDefiningOp<tensor::ExtractSliceOp>();
  if (!negate || !isNegation(negate) || !first)
    return failure();
  auto second =
      negate.getDpsInputs()[0].getDefiningOp<tensor::ExtractSliceOp>();
  if (!second || !areHalves(first, second) ||
      first.getSource().getType() != resultType)
    return failure();
  return Halves{first, second};
}

/// The generic of the file comment, writing into `init` (of the source's
/// type) seen as [..., 2, n/2].
Value buildRotation(RewriterBase &rewriter, Location loc, Value source,
                    Value init) {
  auto type = cast<RankedTensorType>(source.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = 2;
  shape.push_back(type.getShape().back() / 2);
  SmallVector<ReassociationIndices> groups;
  for (int64_t dim = 0; dim < rank; ++dim)
    groups.push_back({dim});
  groups.back().push_back(rank);
  auto splitType = RankedTensorType::get(shape, type.getElementType());
  Value input =
      tensor::ExpandShapeOp::create(rewriter, loc, splitType, source, groups);
  Value output =
      tensor::ExpandShapeOp::create(rewriter, loc, splitType, init, groups);
  SmallVector<utils::IteratorType> iterators(rank + 1,
                                             utils::IteratorType::parallel);
  auto body = [&](OpBuilder &b, Location nested, ValueRange) {
    SmallVector<Value> indices;
    for (int64_t dim = 0; dim <= rank; ++dim)
      indices.push_back(linalg::IndexOp::create(b, nested, dim));
    Value one = arith::ConstantIndexOp::create(b, nested, 1);
    Value other = arith::SubIOp::create(b, nested, one, indices[rank - 1]);
    indices[rank - 1] = other;
    Value element = tensor::ExtractOp::create(b, nested, input, indices);
    Value negated = arith::NegFOp::create(b, nested, element);
    Value fromSecond =
        arith::CmpIOp::create(b, nested, arith::CmpIPredicate::eq, other, one);
    linalg::YieldOp::create(b, nested,
                            Value(arith::SelectOp::create(b, nested, fromSecond,
                                                          negated, element)));
  };
  Value rotated =
      linalg::GenericOp::create(rewriter, loc, splitType, ValueRange(), output,
                                rewriter.getMultiDimIdentityMap(rank + 1),
                                iterators, body)
          .getResult(0);
  return tensor::CollapseShapeOp::create(rewriter, loc, type, rotated, groups);
}

/// IREE's InsertSliceNegateAndSlicePattern: the negated second half
/// inserted at offset zero of a tensor, the first half after it.
struct RaiseInsertedRotation : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::InsertSliceOp last,
                                PatternRewriter &rewriter) const override {
    auto first = last.getDest().getDefiningOp<tensor::InsertSliceOp>();
    if (!isOutsideDispatch(last) || !first)
      return failure();
    FailureOr<Halves> halves =
        matchRotation(first.getSource(), last.getSource(), first.getType());
    // The inserts put the halves where the slices took them, swapped.
    auto same = [](OpFoldResult a, OpFoldResult b) { return a == b; };
    if (failed(halves) || !first.isSameAs(halves->first, same) ||
        !last.isSameAs(halves->second, same))
      return rewriter.notifyMatchFailure(last, "not a rotate-half");
    Value source = halves->first.getSource();
    rewriter.replaceOp(
        last, buildRotation(rewriter, last.getLoc(), source, first.getDest()));
    return success();
  }
};

/// IREE's ConcatenateNegateAndSlicePattern: concat(-second, first) along
/// the innermost dim. Unlike IREE's, it checks the slices are the halves.
struct RaiseConcatenatedRotation : OpRewritePattern<tensor::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    ValueRange inputs = concat.getInputs();
    if (!isOutsideDispatch(concat) || inputs.size() != 2 ||
        concat.getDim() != concat.getResultType().getRank() - 1)
      return failure();
    FailureOr<Halves> halves =
        matchRotation(inputs[0], inputs[1], concat.getType());
    if (failed(halves))
      return rewriter.notifyMatchFailure(concat, "not a rotate-half");
    Value source = halves->first.getSource();
    Location loc = concat.getLoc();
    Value init = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, source),
        concat.getResultType().getElementType());
    rewriter.replaceOp(concat, buildRotation(rewriter, loc, source, init));
    return success();
  }
};

} // namespace

void dispatchlab::globalopt::populateRaiseRotateHalfPatterns(
    RewritePatternSet &patterns) {
  patterns.add<RaiseInsertedRotation, RaiseConcatenatedRotation>(
      patterns.getContext());
}
