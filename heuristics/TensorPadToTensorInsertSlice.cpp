//===- TensorPadToTensorInsertSlice.cpp - pad as fill + insert_slice ------===//
//
// Mirrors IREE's DispatchCreation TensorPadToTensorInsertSlice pass:
// a constant-value pad outside dispatches becomes tensor.empty + linalg.fill
// + tensor.insert_slice, so the fill is a splat and the insert_slice can join
// its source's dispatch instead of the pad forming a dispatch of its own.
//
//===----------------------------------------------------------------------===//

#include "heuristics/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_TENSORPADTOTENSORINSERTSLICEPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

// Quantized convolutions carry zero-point inputs besides image and filter;
// IREE does not keep pads for them because they do not fuse the pad.
static bool isQuantizedConv(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && isa<linalg::ConvolutionOpInterface>(op) &&
         linalgOp.getNumDpsInputs() > 2;
}

namespace {
// The rewrite itself is upstream's pad decomposition; only the gating is
// IREE's.
struct PadToInsertSlice : public linalg::DecomposePadOpPattern {
  PadToInsertSlice(MLIRContext *context, bool skipOneLinalgUseCase)
      : DecomposePadOpPattern(context),
        skipOneLinalgUseCase(skipOneLinalgUseCase) {}

  LogicalResult matchAndRewrite(tensor::PadOp padOp,
                                PatternRewriter &rewriter) const override {
    if (padOp->getParentOfType<dispatch::RegionOp>())
      return rewriter.notifyMatchFailure(padOp, "inside a dispatch");
    if (!padOp.getConstantPaddingValue())
      return rewriter.notifyMatchFailure(padOp, "non-constant padding");
    // Mirrors IREE's skipOneLinalgUseCase: the pad is left for
    // FormDispatchRegions to fuse into its single Linalg consumer.
    if (skipOneLinalgUseCase && padOp->hasOneUse()) {
      Operation *user = *padOp->getUsers().begin();
      if (isa<linalg::LinalgOp>(user) && !isQuantizedConv(user))
        return rewriter.notifyMatchFailure(padOp, "single Linalg use");
    }
    return DecomposePadOpPattern::matchAndRewrite(padOp, rewriter);
  }

  bool skipOneLinalgUseCase;
};

struct TensorPadToTensorInsertSlicePass
    : public dispatchlab::impl::TensorPadToTensorInsertSlicePassBase<
          TensorPadToTensorInsertSlicePass> {
  using TensorPadToTensorInsertSlicePassBase::
      TensorPadToTensorInsertSlicePassBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<PadToInsertSlice>(&getContext(), skipOneLinalgUseCase);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
