//===- LogisticExpansion.cpp - a sigmoid in vector arithmetic -------------===//
//
// IREE's CPU backend computes `1 / (1 + exp(z))` as written: upstream's
// polynomial exp (clamping its argument both ways, rounding, rebuilding the
// power of two from an integer conversion) and a division. EfficientNets
// apply that sigmoid after nearly every convolution, where it cost more
// vector instructions than a small convolution's contraction (30 against 16
// FMAs a vector). The expansion here takes the exponential of -|z| only, so
// it never overflows and needs one clamp, rounds and rebuilds 2^n from one
// biased addition, divides by a reciprocal estimate refined with FMAs, and
// reflects for z < 0: 22 instructions with SiLU's product, as XNNPACK's
// AVX-512 sigmoid kernels structure it (with our own constants).
//
//===----------------------------------------------------------------------===//

#include "core/codegen/LogisticExpansion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace dispatchlab {
namespace {

/// ln(2^-126): below it 2^n would be subnormal and the biased exponent would
/// wrap. The sigmoid there is under 1.2e-38; the clamp returns about that.
constexpr float kCutoff = -87.33654f;
constexpr float kLog2e = 1.44269504f;
/// 1.5 * 2^23 + 127: adding it rounds a float of magnitude under 2^22 to an
/// integer n and leaves n + 127, the exponent field of 2^n, in the low bits.
constexpr float kRoundingBias = 12583039.0f;
/// ln 2 split so that n * kLn2High is exact for |n| <= 126 (15 bits).
constexpr float kLn2High = 0.693145751953125f;
constexpr float kLn2Low = 1.42860677e-6f;
/// e^t ~ 1 + t (c1 + c2 t + ... + c6 t^5) on [-ln2/2, ln2/2], c6 first:
/// near-minimax in relative error, 2.0e-9 exact and 1.2 ulp evaluated in
/// f32 (scripts/fit_exp_polynomial.py fits and checks them).
constexpr float kExpCoefficients[] = {1.3843654e-3f, 8.3741555e-3f,
                                      4.1668002e-2f, 1.6666432e-1f,
                                      4.9999994e-1f, 1.0f};

Value splat(ImplicitLocOpBuilder &b, VectorType type, float value) {
  return createScalarOrSplatConstant(b, b.getLoc(), type, APFloat(value));
}

/// e^a for a vector of a <= 0 (NaN passes through).
Value expOfNonPositive(ImplicitLocOpBuilder &b, Value a) {
  auto type = cast<VectorType>(a.getType());
  Value cutoff = splat(b, type, kCutoff);
  Value below = arith::CmpFOp::create(b, arith::CmpFPredicate::OLT, a, cutoff);
  a = arith::SelectOp::create(b, below, cutoff, a);
  Value bias = splat(b, type, kRoundingBias);
  Value biased = math::FmaOp::create(b, a, splat(b, type, kLog2e), bias);
  auto intType = type.clone(b.getI32Type());
  Value bits = arith::BitcastOp::create(b, intType, biased);
  Value shift = createScalarOrSplatConstant(b, b.getLoc(), intType, 23);
  Value scale = arith::BitcastOp::create(
      b, type, arith::ShLIOp::create(b, bits, shift));
  Value n = arith::SubFOp::create(b, biased, bias);
  Value t = math::FmaOp::create(b, n, splat(b, type, -kLn2High), a);
  t = math::FmaOp::create(b, n, splat(b, type, -kLn2Low), t);
  Value p = splat(b, type, kExpCoefficients[0]);
  for (float c : ArrayRef(kExpCoefficients).drop_front())
    p = math::FmaOp::create(b, p, t, splat(b, type, c));
  Value scaledT = arith::MulFOp::create(b, t, scale);
  return math::FmaOp::create(b, scaledT, p, scale);
}

/// 1 / (1 + e^z) = f for z >= 0 and 1 - f for z < 0, where
/// f = e^-|z| / (1 + e^-|z|) is in (0, 1/2]: the denominator is in [1, 2],
/// so the reciprocal estimate (`arcp ninf`; `contract` lets its Newton step
/// use FMAs) stays within an ulp or two.
Value logistic(ImplicitLocOpBuilder &b, Value z) {
  auto type = cast<VectorType>(z.getType());
  Value one = splat(b, type, 1.0f);
  Value e = expOfNonPositive(
      b, arith::NegFOp::create(b, math::AbsFOp::create(b, z)));
  Value f = arith::DivFOp::create(
      b, e, arith::AddFOp::create(b, e, one),
      arith::FastMathFlags::arcp | arith::FastMathFlags::ninf |
          arith::FastMathFlags::contract);
  Value negative = arith::CmpFOp::create(b, arith::CmpFPredicate::OLT, z,
                                         splat(b, type, 0.0f));
  return arith::SelectOp::create(b, negative,
                                 arith::SubFOp::create(b, one, f), f);
}

/// The argument z of `1 / (1 + exp(z))` at `op`, if that is what it divides.
FailureOr<Value> logisticArgument(arith::DivFOp op) {
  auto type = dyn_cast<VectorType>(op.getType());
  if (!type || !type.getElementType().isF32() ||
      !matchPattern(op.getLhs(), m_OneFloat()))
    return failure();
  auto sum = op.getRhs().getDefiningOp<arith::AddFOp>();
  if (!sum)
    return failure();
  Value exp = matchPattern(sum.getRhs(), m_OneFloat())   ? sum.getLhs()
              : matchPattern(sum.getLhs(), m_OneFloat()) ? sum.getRhs()
                                                         : Value();
  auto expOp = exp ? exp.getDefiningOp<math::ExpOp>() : math::ExpOp();
  if (!expOp)
    return failure();
  return expOp.getOperand();
}

struct ExpandLogistic : OpRewritePattern<arith::DivFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::DivFOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<Value> z = logisticArgument(op);
    if (failed(z))
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    rewriter.replaceOp(op, logistic(b, *z));
    return success();
  }
};

} // namespace

void populateLogisticExpansionPatterns(RewritePatternSet &patterns) {
  patterns.add<ExpandLogistic>(patterns.getContext());
}

} // namespace dispatchlab
