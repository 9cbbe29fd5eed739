//===- RaiseSoftmax.cpp - generic softmax chains to linalg.softmax --------===//
//
// Mirrors the softmax raising of IREE's GlobalOptimization RaiseSpecialOps.
// The chain, read back from its last op:
//
//   root = exp * reciprocal(sum)   or   exp / sum
//   sum  = reduce_add(exp)           (innermost dim, zero fill)
//   exp  = exp(sub)
//   sub  = x - max
//   max  = reduce_max(x)             (innermost dim, -inf or lowest fill)
//
// A reduced value reaches its consumer through an operand map that drops the
// innermost loop, or through a pass-through generic broadcasting it.
//
//===----------------------------------------------------------------------===//

#include "globalopt/OutsideDispatch.h"
#include "globalopt/RaisePatterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace {

/// `value`'s producer if it is a generic with `inputs` inputs and one init.
linalg::GenericOp getGeneric(Value value, unsigned inputs) {
  auto op = value.getDefiningOp<linalg::GenericOp>();
  if (!op || op.getNumDpsInputs() != inputs || op.getNumDpsInits() != 1)
    return {};
  return op;
}

bool isIdentity(linalg::GenericOp op, OpOperand *operand) {
  return op.getMatchingIndexingMap(operand).isIdentity();
}

/// The map is (d0, ..., dn) -> (d0, ..., dn-1): the operand is broadcast
/// along the innermost loop ((d0) -> () for one loop, as IREE's
/// IsProjected(-1) accepts).
bool dropsInnermost(linalg::GenericOp op, OpOperand *operand) {
  unsigned loops = op.getNumLoops();
  if (loops == 0)
    return false;
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(loops, op.getContext());
  return op.getMatchingIndexingMap(operand) ==
         AffineMap::get(loops, 0, identity.getResults().drop_back(),
                        op.getContext());
}

/// The one op of `op`'s body before its yield, when the yield returns it.
Operation *getBodyOp(linalg::GenericOp op) {
  Block *body = op.getBlock();
  if (body->getOperations().size() != 2)
    return nullptr;
  Operation *inner = &body->front();
  Operation *yield = body->getTerminator();
  if (yield->getNumOperands() != 1 ||
      yield->getOperand(0).getDefiningOp() != inner ||
      inner->getNumResults() != 1)
    return nullptr;
  return inner;
}

bool isArgument(Value value, linalg::GenericOp op, unsigned index) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && arg.getOwner() == op.getBlock() && arg.getArgNumber() == index;
}

/// The body is `OpTy(arg0, arg1[, ...])`, or `OpTy(arg1, arg0)` when it
/// commutes.
template <typename OpTy>
bool hasBody(linalg::GenericOp op, bool commutes = false) {
  auto inner = dyn_cast_or_null<OpTy>(getBodyOp(op));
  if (!inner)
    return false;
  bool inOrder =
      llvm::all_of(llvm::enumerate(inner->getOperands()), [&](auto indexed) {
        return isArgument(indexed.value(), op, indexed.index());
      });
  if (inOrder || !commutes || inner->getNumOperands() != 2)
    return inOrder;
  return isArgument(inner->getOperand(0), op, 1) &&
         isArgument(inner->getOperand(1), op, 0);
}

bool isFillOf(Value value, function_ref<bool(const APFloat &)> accepts) {
  auto fill = value.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return false;
  auto constant = fill.getInputs()[0].getDefiningOp<arith::ConstantFloatOp>();
  return constant && accepts(constant.value());
}

/// The input `value` reduces along its innermost dim with an `OpTy` body
/// from a fill `accepts`, or null.
template <typename OpTy>
Value matchInnermostReduction(Value value,
                              function_ref<bool(const APFloat &)> accepts) {
  linalg::GenericOp op = getGeneric(value, 1);
  if (!op)
    return {};
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators.empty() || !linalg::isReductionIterator(iterators.back()) ||
      !llvm::all_of(ArrayRef(iterators).drop_back(),
                    linalg::isParallelIterator))
    return {};
  OpOperand *input = op.getDpsInputOperand(0);
  OpOperand *init = op.getDpsInitOperand(0);
  if (!isIdentity(op, input) || !dropsInnermost(op, init) ||
      !hasBody<OpTy>(op, /*commutes=*/true) || !isFillOf(init->get(), accepts))
    return {};
  return input->get();
}

/// `value`'s producer if it is an all-parallel generic computing `OpTy` of
/// its `inputs` inputs, its first input and its init identity-mapped.
template <typename OpTy>
linalg::GenericOp matchElementwise(Value value, unsigned inputs) {
  linalg::GenericOp op = getGeneric(value, inputs);
  if (!op || op.getNumReductionLoops() != 0 ||
      !isIdentity(op, op.getDpsInitOperand(0)) ||
      !isIdentity(op, op.getDpsInputOperand(0)) || !hasBody<OpTy>(op))
    return {};
  return op;
}

/// The value `operand` of `consumer` broadcasts along the innermost loop.
Value getBroadcastSource(linalg::GenericOp consumer, OpOperand *operand) {
  if (dropsInnermost(consumer, operand))
    return operand->get();
  if (!isIdentity(consumer, operand))
    return {};
  linalg::GenericOp broadcast = getGeneric(operand->get(), 1);
  if (!broadcast || broadcast.getNumReductionLoops() != 0 ||
      broadcast.getBlock()->getOperations().size() != 1 ||
      !isArgument(broadcast.getBlock()->getTerminator()->getOperand(0),
                  broadcast, 0) ||
      !dropsInnermost(broadcast, broadcast.getDpsInputOperand(0)) ||
      !isIdentity(broadcast, broadcast.getDpsInitOperand(0)))
    return {};
  return broadcast.getDpsInputOperand(0)->get();
}

/// The sum the root normalizes by: `exp * reciprocal(sum)` (the form ONNX
/// Softmax imports to through TOSA) or `exp / sum`.
Value matchNormalizer(linalg::GenericOp root) {
  OpOperand *denominator = root.getDpsInputOperand(1);
  if (hasBody<arith::DivFOp>(root))
    return getBroadcastSource(root, denominator);
  if (!hasBody<arith::MulFOp>(root, /*commutes=*/true) ||
      !dropsInnermost(root, denominator))
    return {};
  linalg::GenericOp reciprocal = getGeneric(denominator->get(), 1);
  if (!reciprocal || reciprocal.getNumReductionLoops() != 0 ||
      !isIdentity(reciprocal, reciprocal.getDpsInputOperand(0)) ||
      !isIdentity(reciprocal, reciprocal.getDpsInitOperand(0)))
    return {};
  auto divide = dyn_cast_or_null<arith::DivFOp>(getBodyOp(reciprocal));
  auto one = divide ? divide.getLhs().getDefiningOp<arith::ConstantFloatOp>()
                    : arith::ConstantFloatOp();
  if (!one || !one.value().isExactlyValue(1.0) ||
      !isArgument(divide.getRhs(), reciprocal, 0))
    return {};
  return reciprocal.getDpsInputOperand(0)->get();
}

/// The softmax input when `root` ends a softmax chain.
FailureOr<Value> matchSoftmax(linalg::GenericOp root) {
  if (root.getNumDpsInputs() != 2 || root.getNumDpsInits() != 1 ||
      root.getNumReductionLoops() != 0 || root.getNumLoops() == 0 ||
      !isIdentity(root, root.getDpsInputOperand(0)) ||
      !isIdentity(root, root.getDpsInitOperand(0)))
    return failure();
  Value sum = matchNormalizer(root);
  Value exp = root.getDpsInputOperand(0)->get();
  linalg::GenericOp expOp = matchElementwise<math::ExpOp>(exp, 1);
  if (!sum || !expOp ||
      matchInnermostReduction<arith::AddFOp>(
          sum, [](const APFloat &f) { return f.isZero(); }) != exp)
    return failure();
  linalg::GenericOp sub =
      matchElementwise<arith::SubFOp>(expOp.getDpsInputOperand(0)->get(), 2);
  if (!sub)
    return failure();
  Value source = sub.getDpsInputOperand(0)->get();
  Value max = getBroadcastSource(sub, sub.getDpsInputOperand(1));
  if (!max)
    return failure();
  // The stabilizing max starts from -inf or the lowest float; maximumf
  // (NaN-propagating, TOSA's default) and maxnumf both count, as in IREE.
  auto lowest = [](const APFloat &f) {
    return f.isNegative() && (f.isInfinity() || f.isLargest());
  };
  Value reduced = matchInnermostReduction<arith::MaximumFOp>(max, lowest);
  if (!reduced)
    reduced = matchInnermostReduction<arith::MaxNumFOp>(max, lowest);
  if (reduced != source)
    return failure();
  return source;
}

struct RaiseSoftmax : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp root,
                                PatternRewriter &rewriter) const override {
    if (!dispatchlab::globalopt::isOutsideDispatch(root))
      return failure();
    FailureOr<Value> source = matchSoftmax(root);
    if (failed(source))
      return rewriter.notifyMatchFailure(root, "not the end of a softmax");
    rewriter.replaceOpWithNewOp<linalg::SoftmaxOp>(
        root, root->getResultTypes(), *source, root.getDpsInitOperand(0)->get(),
        root.getNumLoops() - 1);
    return success();
  }
};

} // namespace

void dispatchlab::globalopt::populateRaiseSoftmaxPatterns(
    RewritePatternSet &patterns) {
  patterns.add<RaiseSoftmax>(patterns.getContext());
}
