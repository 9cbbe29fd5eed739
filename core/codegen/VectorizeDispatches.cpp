//===- VectorizeDispatches.cpp - Linalg ops of dispatches to vectors ------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace dispatchlab {
#define GEN_PASS_DEF_VECTORIZEDISPATCHESPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

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
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, op, /*inputVectorSizes=*/{},
                            /*inputScalableVecDims=*/{},
                            /*vectorizeNDExtract=*/false,
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
  }
};

} // namespace
} // namespace dispatchlab
