//===- GeneralizeNamedOps.cpp - IREE's named-op generalization ------------===//
//
// Mirrors what IREE's GlobalOptimization pipeline does before dispatch
// creation: upstream convert-elementwise-to-linalg for tensor-level
// elementwise ops (run inside this pass, see `convert-elementwise`), then
// GeneralizeLinalgNamedOps on exactly IREE's op list.
//
//===----------------------------------------------------------------------===//

#include "heuristics/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab {
#define GEN_PASS_DEF_GENERALIZENAMEDOPSPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

// Mirrors IREE's GeneralizeLinalgNamedOps candidate list. `linalg.fill` is
// deliberately absent: a generalized fill would no longer be cloneable.
static bool shouldGeneralize(linalg::LinalgOp op, bool generalizeMatmul) {
  if (isa<linalg::GenericOp>(op))
    return false;
  if (generalizeMatmul && linalg::isaContractionOpInterface(op))
    return true;
  return isa<linalg::AbsOp, linalg::AddOp, linalg::BroadcastOp, linalg::CeilOp,
             linalg::CopyOp, linalg::DivOp, linalg::DivUnsignedOp,
             linalg::ExpOp, linalg::FloorOp, linalg::LogOp, linalg::MapOp,
             linalg::MaxOp, linalg::MulOp, linalg::NegFOp, linalg::ReduceOp,
             linalg::SubOp, linalg::TransposeOp>(op.getOperation()) ||
         linalg::isaConvolutionOpInterface(op);
}

namespace {
struct GeneralizeNamedOpsPass
    : public dispatchlab::impl::GeneralizeNamedOpsPassBase<
          GeneralizeNamedOpsPass> {
  using GeneralizeNamedOpsPassBase::GeneralizeNamedOpsPassBase;

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (convertElementwise) {
      // FormDispatchRegions only understands Linalg ops, so tensor-level
      // arith/math ops become generics first, as in IREE's input pipeline.
      RewritePatternSet patterns(&getContext());
      linalg::populateElementwiseToLinalgConversionPatterns(patterns);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }

    SmallVector<linalg::LinalgOp> candidates;
    func.walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<dispatch::RegionOp>() &&
          shouldGeneralize(op, generalizeMatmul))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::generalizeNamedOp(rewriter, op))) {
        op->emitOpError("failed to generalize");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
