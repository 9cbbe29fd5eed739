//===- LowerVectors.cpp - n-D vector ops to LLVM-ready ones ---------------===//

#include "core/codegen/LogisticExpansion.h"
#include "core/codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_LOWERVECTORSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

/// A contraction of narrower floats into a wider accumulator (f16 or bf16
/// inputs summed in f32: demoted contraction inputs) extends its inputs
/// first. Upstream's outer-product lowering takes one element type and left
/// batch contractions of that kind unlowered.
struct ExtendContractionInputs : OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ContractionOp op,
                                PatternRewriter &rewriter) const override {
    auto accType = dyn_cast<FloatType>(getElementTypeOrSelf(op.getAccType()));
    if (!accType)
      return failure();
    auto extend = [&](Value input) -> Value {
      auto type = cast<VectorType>(input.getType());
      auto element = dyn_cast<FloatType>(type.getElementType());
      if (!element || element.getWidth() >= accType.getWidth())
        return input;
      return arith::ExtFOp::create(rewriter, op.getLoc(), type.clone(accType),
                                   input);
    };
    Value lhs = extend(op.getLhs());
    Value rhs = extend(op.getRhs());
    if (lhs == op.getLhs() && rhs == op.getRhs())
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.getLhsMutable().assign(lhs);
      op.getRhsMutable().assign(rhs);
    });
    return success();
  }
};

struct LowerVectorsPass : impl::LowerVectorsPassBase<LowerVectorsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Before exp becomes a polynomial, while a sigmoid's shape is visible.
    RewritePatternSet logistic(&getContext());
    populateLogisticExpansionPatterns(logistic);
    if (failed(applyPatternsGreedily(getOperation(), std::move(logistic))))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    patterns.add<ExtendContractionInputs>(&getContext(), /*benefit=*/2);
    vector::populateVectorToVectorCanonicalizationPatterns(patterns);
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerParallel);
    // 16x16 is the AVX-512 register tile; other shapes take generic shuffles
    // (as Shuffle16x16 itself does for them).
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vectorWidth == 16
                      ? vector::VectorTransposeLowering::Shuffle16x16
                      : vector::VectorTransposeLowering::Shuffle1D);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    // A transfer whose rows are no wider than a register (an interleaving
    // copy's 16x3 tile) over contiguous memory becomes one 1-D transfer:
    // whole vector stores instead of a 3-float store per row (IREE's
    // LLVMCPU vector-shape optimization flattens up to the native vector
    // width likewise).
    vector::populateFlattenVectorTransferPatterns(patterns, vectorWidth * 32);
    // A read whose every use takes one element (an outer product's
    // broadcast left-hand side) becomes one scalar load per element, which
    // x86 folds into a broadcast from memory; LLVM otherwise loaded a
    // 3-channel convolution's 8x3 input tile in pairs and broadcast them with
    // shuffles, on the port its FMAs need. IREE's LLVMCPU vector lowering
    // adds these patterns likewise.
    vector::populateScalarVectorTransferLoweringPatterns(
        patterns, /*benefit=*/1, /*allowMultipleUses=*/true);
    // Transcendentals LLVM has no vector code for (it would call libm once
    // per lane) become polynomials in vector arithmetic, as IREE's CPU
    // backend does.
    // powf by a small constant exponent (LayerNorm's variance squares with
    // powf(x, 2.0)) becomes multiplications, as IREE's math transforms do,
    // instead of a libm call per lane.
    populateMathAlgebraicSimplificationPatterns(patterns);
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return llvm::is_contained(
          {math::ErfOp::getOperationName(), math::TanhOp::getOperationName(),
           math::ExpOp::getOperationName(), math::ExpM1Op::getOperationName(),
           math::LogOp::getOperationName(), math::Log1pOp::getOperationName(),
           math::Log2Op::getOperationName()},
          name);
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace dispatchlab
