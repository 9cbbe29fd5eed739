//===- FuseDequantizationMatmul.cpp - integer grouped matmuls -------------===//
//
// Mirrors IREE's GlobalOptimization FuseDequantizationMatmul (run only with
// --iree-global-opt-enable-quantized-matmul-reassociation, off by default).
// A contraction reducing over (group, element) reads weights dequantized per
// group, w = (q - zp) * s, with q narrow unsigned integers:
//
//   out[m] = sum_g sum_k a[g, k] * (q[m, g, k] - zp[m, g]) * s[m, g]
//
// The activation is quantized on the fly per group to i16, a = as[g] *
// aq[g, k] (as = max|a| / 32767), and the sums reassociate so that the
// bulk of the work is an integer matmul over k:
//
//   out[m] = sum_g s[m, g] * (as[g] * I[m, g] - zp[m, g] * sum_k a[g, k])
//   I[m, g] = sum_k aq[g, k] * q[m, g, k]                      (i32)
//
// Six generics replace the contraction (group max, scales, group sums,
// quantize, integer matmul, reassociated dequantization); the activation's
// quantization loses precision, which is why IREE keeps it opt-in.
//
//===----------------------------------------------------------------------===//

#include "globalopt/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

namespace dispatchlab::globalopt {
#define GEN_PASS_DEF_FUSEDEQUANTIZATIONMATMULPASS
#include "globalopt/Passes.h.inc"
} // namespace dispatchlab::globalopt

using namespace mlir;

namespace {

/// The width the activation is quantized to, as IREE's pass fixes it.
constexpr unsigned kActivationBits = 16;

/// A contraction generic with exactly two reduction loops.
bool isGroupedContraction(linalg::GenericOp op) {
  return op.getNumLoops() != 0 &&
         linalg::isaContractionOpInterface(
             cast<linalg::LinalgOp>(op.getOperation())) &&
         op.getNumReductionLoops() == 2;
}

/// `value` is the result of an `OpTy` (its first operand then followed).
template <typename OpTy> Operation *definedBy(Value value) {
  Operation *op = value.getDefiningOp();
  return op && isa<OpTy>(op) && op->getNumOperands() != 0 ? op : nullptr;
}

/// IREE's isGroupedDequantizationOp: an all-parallel generic of rank >= 3
/// with two or three inputs yielding mulf(subf(uitofp(extui(x)), _), _),
/// wider out than in.
bool isGroupedDequantization(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 ||
      (op.getNumDpsInputs() != 2 && op.getNumDpsInputs() != 3) ||
      op.getNumLoops() < 3 || op.getNumLoops() != op.getNumParallelLoops())
    return false;
  Operation *mul =
      definedBy<arith::MulFOp>(op.getBody()->getTerminator()->getOperand(0));
  Operation *sub = mul ? definedBy<arith::SubFOp>(mul->getOperand(0)) : nullptr;
  Operation *toFloat =
      sub ? definedBy<arith::UIToFPOp>(sub->getOperand(0)) : nullptr;
  if (!toFloat || !toFloat->getOperand(0).getDefiningOp<arith::ExtUIOp>())
    return false;
  Type in = getElementTypeOrSelf(op.getDpsInputs()[0]);
  Type out = getElementTypeOrSelf(op.getDpsInits()[0]);
  return in.isIntOrFloat() && out.isIntOrFloat() &&
         in.getIntOrFloatBitWidth() < out.getIntOrFloatBitWidth();
}

/// The operands the rewrite reads, named as in the file comment.
struct GroupedMatmul {
  linalg::GenericOp dequant, matmul;
  OpOperand *quantized = nullptr;  // q: the dequantization's identity input
  OpOperand *scales = nullptr;     // s: what the body multiplies by
  OpOperand *zeroPoints = nullptr; // zp: what the body subtracts
  OpOperand *activation = nullptr; // a: the contraction's other input
  OpOperand *weights = nullptr;    // the contraction's dequantized input
};

/// Finds q, s and zp among the dequantization's inputs as IREE's
/// getDequantMatmulInputs does: q by its identity map, s and zp by the body
/// op reading them as second operand.
void findDequantInputs(GroupedMatmul &m) {
  Block *body = m.dequant.getBody();
  for (OpOperand *input : m.dequant.getDpsInputOperands()) {
    AffineMap map = m.dequant.getMatchingIndexingMap(input);
    if (map.isIdentity()) {
      m.quantized = input;
      continue;
    }
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      continue;
    BlockArgument arg = body->getArgument(input->getOperandNumber());
    for (Operation &op : body->without_terminator()) {
      if (!isa<arith::MulFOp, arith::SubFOp>(op) || op.getOperand(1) != arg)
        continue;
      (isa<arith::MulFOp>(op) ? m.scales : m.zeroPoints) = input;
      break;
    }
  }
}

/// Scales or zero points are per group: one rank below the weights as the
/// contraction reads them, or the same rank with a unit innermost dim.
bool isPerGroup(Value value, unsigned weightRank) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && isa<FloatType>(type.getElementType()) &&
         (type.getRank() + 1 == weightRank ||
          (type.getRank() == weightRank && type.getShape().back() == 1));
}

/// IREE's precondition: the activation is read with its two innermost dims
/// as the contraction's two last loops, both reductions, and the types are
/// float.
FailureOr<GroupedMatmul> matchGroupedMatmul(linalg::GenericOp dequant,
                                            linalg::GenericOp matmul) {
  GroupedMatmul m{dequant, matmul};
  findDequantInputs(m);
  bool dequantFirst = matmul.getDpsInputs()[0] == dequant->getResult(0);
  m.activation = matmul.getDpsInputOperand(dequantFirst ? 1 : 0);
  m.weights = matmul.getDpsInputOperand(dequantFirst ? 0 : 1);
  if (!m.quantized || !m.scales || !m.zeroPoints)
    return failure();
  auto activationType = cast<RankedTensorType>(m.activation->get().getType());
  AffineMap map = matmul.getMatchingIndexingMap(m.activation);
  unsigned loops = map.getNumDims();
  SmallVector<utils::IteratorType> iterators = matmul.getIteratorTypesArray();
  if (activationType.getRank() < 2 ||
      !linalg::isReductionIterator(iterators[loops - 1]) ||
      !linalg::isReductionIterator(iterators[loops - 2]) ||
      map.getResults().back() !=
          getAffineDimExpr(loops - 1, map.getContext()) ||
      map.getResults().drop_back().back() !=
          getAffineDimExpr(loops - 2, map.getContext()) ||
      !isa<FloatType>(activationType.getElementType()))
    return failure();
  unsigned weightRank =
      matmul.getMatchingIndexingMap(m.weights).getNumResults();
  // Scales and zero points are read through one map: they need one rank
  // (IREE asserts it).
  Value scales = m.scales->get(), zeroPoints = m.zeroPoints->get();
  if (!isPerGroup(scales, weightRank) || !isPerGroup(zeroPoints, weightRank) ||
      cast<RankedTensorType>(scales.getType()).getRank() !=
          cast<RankedTensorType>(zeroPoints.getType()).getRank())
    return failure();
  return m;
}

/// Builds the generics of the file comment after the contraction.
class Reassociation {
public:
  Reassociation(RewriterBase &rewriter, GroupedMatmul m)
      : b(rewriter), m(m), loc(m.dequant.getLoc()),
        activation(m.activation->get()) {}

  Value build() {
    Value groupMax = reduceGroups([](OpBuilder &b, Location loc, Value in,
                                     Value acc) -> Value {
      return arith::MaximumFOp::create(b, loc, math::AbsFOp::create(b, loc, in),
                                       acc);
    });
    Value scales = activationScales(groupMax);
    Value groupSums = reduceGroups(
        [](OpBuilder &b, Location loc, Value in, Value acc) -> Value {
          return arith::AddFOp::create(b, loc, in, acc);
        });
    Value integer = integerMatmul(quantize(scales));
    return dequantize(integer, scales, groupSums);
  }

private:
  RankedTensorType activationType() const {
    return cast<RankedTensorType>(activation.getType());
  }

  /// The activation reduced over its innermost (element) dim from zero.
  Value reduceGroups(
      function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
    RankedTensorType type = activationType();
    int64_t rank = type.getRank();
    Type element = type.getElementType();
    Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(element, 0));
    Value empty =
        tensor::EmptyOp::create(b, loc, type.getShape().drop_back(), element);
    Value init = linalg::FillOp::create(b, loc, zero, empty).result();
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.back() = utils::IteratorType::reduction;
    AffineMap identity = b.getMultiDimIdentityMap(rank);
    return linalg::GenericOp::create(
               b, loc, init.getType(), activation, init,
               {identity, identity.getMajorSubMap(rank - 1)}, iterators,
               [&](OpBuilder &nested, Location at, ValueRange args) {
                 linalg::YieldOp::create(nested, at,
                                         combine(nested, at, args[0], args[1]));
               })
        .getResult(0);
  }

  /// as = max|a| / (2^(bits-1) - 1), elementwise over the groups.
  Value activationScales(Value groupMax) {
    auto type = cast<RankedTensorType>(groupMax.getType());
    Value range = arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(type.getElementType(),
                       (1 << (kActivationBits - 1)) - 1));
    Value empty =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
    SmallVector<utils::IteratorType> iterators(type.getRank(),
                                               utils::IteratorType::parallel);
    return linalg::GenericOp::create(
               b, loc, type, groupMax, empty, {identity, identity}, iterators,
               [&](OpBuilder &nested, Location at, ValueRange args) {
                 linalg::YieldOp::create(
                     nested, at,
                     Value(arith::DivFOp::create(nested, at, args[0], range)));
               })
        .getResult(0);
  }

  /// aq = fptosi(a / as), symmetric, no zero point.
  Value quantize(Value scales) {
    RankedTensorType type = activationType();
    int64_t rank = type.getRank();
    Type quantType = b.getIntegerType(kActivationBits);
    Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), quantType);
    AffineMap identity = b.getMultiDimIdentityMap(rank);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    return linalg::GenericOp::create(
               b, loc, empty.getType(), ValueRange{activation, scales}, empty,
               {identity, identity.getMajorSubMap(rank - 1), identity},
               iterators,
               [&](OpBuilder &nested, Location at, ValueRange args) {
                 Value scaled =
                     arith::DivFOp::create(nested, at, args[0], args[1]);
                 linalg::YieldOp::create(nested, at,
                                         Value(arith::FPToSIOp::create(
                                             nested, at, quantType, scaled)));
               })
        .getResult(0);
  }

  /// I[..., g] = sum_k extsi(aq) * extui(q): the contraction's loops with
  /// the group loop made parallel and kept in the result.
  Value integerMatmul(Value quantized) {
    linalg::GenericOp matmul = m.matmul;
    unsigned loops = matmul.getNumLoops();
    SmallVector<utils::IteratorType> iterators(loops - 1,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    AffineMap outputMap =
        matmul.getMatchingIndexingMap(matmul.getDpsInitOperand(0));
    SmallVector<AffineExpr> outputExprs(outputMap.getResults());
    outputExprs.push_back(b.getAffineDimExpr(loops - 2));
    SmallVector<int64_t> shape(
        cast<RankedTensorType>(matmul.getDpsInits()[0].getType()).getShape());
    shape.push_back(activationType().getShape().drop_back().back());
    IntegerType accType = b.getI32Type();
    Value zero =
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(accType, 0));
    Value empty = tensor::EmptyOp::create(b, loc, shape, accType);
    Value init = linalg::FillOp::create(b, loc, zero, empty).result();
    SmallVector<AffineMap> maps = {
        matmul.getMatchingIndexingMap(m.activation),
        matmul.getMatchingIndexingMap(m.weights),
        AffineMap::get(loops, 0, outputExprs, b.getContext())};
    return linalg::GenericOp::create(
               b, loc, init.getType(),
               ValueRange{quantized, m.quantized->get()}, init, maps, iterators,
               [&](OpBuilder &nested, Location at, ValueRange args) {
                 Value lhs =
                     arith::ExtSIOp::create(nested, at, accType, args[0]);
                 Value rhs =
                     arith::ExtUIOp::create(nested, at, accType, args[1]);
                 Value product = arith::MulIOp::create(nested, at, lhs, rhs);
                 linalg::YieldOp::create(nested, at,
                                         Value(arith::AddIOp::create(
                                             nested, at, product, args[2])));
               })
        .getResult(0);
  }

  /// `map`'s results but the last, over one loop less; a zero appended
  /// when `value` keeps a unit innermost dim.
  AffineMap groupMap(AffineMap map, unsigned loops, Value value) {
    SmallVector<AffineExpr> exprs(map.getResults().drop_back());
    if (exprs.size() <
        unsigned(cast<RankedTensorType>(value.getType()).getRank()))
      exprs.push_back(b.getAffineConstantExpr(0));
    return AffineMap::get(loops, 0, exprs, b.getContext());
  }

  /// out[...] += s * (as * sitofp(I) - zp * sums), reducing the groups.
  Value dequantize(Value integer, Value scales, Value groupSums) {
    linalg::GenericOp matmul = m.matmul;
    unsigned loops = matmul.getNumLoops() - 1;
    SmallVector<utils::IteratorType> iterators(loops - 1,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    AffineMap activationMap =
        groupMap(matmul.getMatchingIndexingMap(m.activation), loops, groupSums);
    AffineMap weightMap = groupMap(matmul.getMatchingIndexingMap(m.weights),
                                   loops, m.scales->get());
    AffineMap outputMap =
        matmul.getMatchingIndexingMap(matmul.getDpsInitOperand(0));
    SmallVector<AffineMap> maps = {
        b.getMultiDimIdentityMap(loops),
        activationMap,
        activationMap,
        weightMap,
        weightMap,
        AffineMap::get(loops, 0, outputMap.getResults(), b.getContext())};
    Type floatType = getElementTypeOrSelf(m.scales->get());
    Value output = matmul.getDpsInits()[0];
    SmallVector<Value> inputs = {integer, scales, groupSums, m.scales->get(),
                                 m.zeroPoints->get()};
    return linalg::GenericOp::create(
               b, loc, output.getType(), inputs, output, maps, iterators,
               [&](OpBuilder &nested, Location at, ValueRange args) {
                 Value dot =
                     arith::SIToFPOp::create(nested, at, floatType, args[0]);
                 Value scaled = arith::MulFOp::create(
                     nested, at,
                     arith::MulFOp::create(nested, at, dot, args[1]), args[3]);
                 Value offset = arith::MulFOp::create(
                     nested, at,
                     arith::MulFOp::create(nested, at, args[4], args[3]),
                     args[2]);
                 Value group =
                     arith::SubFOp::create(nested, at, scaled, offset);
                 linalg::YieldOp::create(
                     nested, at,
                     Value(arith::AddFOp::create(nested, at, group, args[5])));
               })
        .getResult(0);
  }

  RewriterBase &b;
  GroupedMatmul m;
  Location loc;
  Value activation;
};

bool hasStaticShapes(linalg::GenericOp op) {
  auto isStatic = [](Value value) {
    return cast<ShapedType>(value.getType()).hasStaticShape();
  };
  return isStatic(op.getDpsInputs()[0]) && isStatic(op.getDpsInputs()[1]) &&
         isStatic(op->getResult(0));
}

struct FuseDequantizationMatmulPass
    : dispatchlab::globalopt::impl::FuseDequantizationMatmulPassBase<
          FuseDequantizationMatmulPass> {
  void runOnOperation() override {
    SmallVector<GroupedMatmul> candidates;
    for (auto matmul :
         getOperation().getFunctionBody().getOps<linalg::GenericOp>()) {
      // Dynamic shapes are left, as IREE leaves them to the plain path.
      if (!isGroupedContraction(matmul) || !hasStaticShapes(matmul))
        continue;
      // A contraction has two inputs; the first that is a dequantization
      // is the one tried, as in IREE.
      for (Value input : matmul.getDpsInputs()) {
        auto dequant = input.getDefiningOp<linalg::GenericOp>();
        if (!dequant || !isGroupedDequantization(dequant))
          continue;
        if (FailureOr<GroupedMatmul> m = matchGroupedMatmul(dequant, matmul);
            succeeded(m))
          candidates.push_back(*m);
        break;
      }
    }
    IRRewriter rewriter(&getContext());
    for (GroupedMatmul &m : candidates) {
      rewriter.setInsertionPointAfter(m.matmul);
      rewriter.replaceOp(m.matmul, Reassociation(rewriter, m).build());
    }
  }
};

} // namespace
