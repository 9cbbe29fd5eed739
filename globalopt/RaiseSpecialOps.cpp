//===- RaiseSpecialOps.cpp - generics back to the ops they spell ----------===//
//
// Mirrors IREE's GlobalOptimization RaiseSpecialOps: first each generic is
// tried as a slice (a tensor.extract in its body raised to an input, then a
// copy that drops constant positions raised to extract_slice), then the
// pattern families of RaisePatterns.h run together.
//
//===----------------------------------------------------------------------===//

#include "globalopt/Passes.h"
#include "globalopt/RaisePatterns.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab::globalopt {
#define GEN_PASS_DEF_RAISESPECIALOPSPASS
#include "globalopt/Passes.h.inc"
} // namespace dispatchlab::globalopt

using namespace mlir;
using namespace dispatchlab::globalopt;

namespace {

/// The slice raisings, in IREE's order. Like IREE's, they also rewrite
/// generics inside pre-formed dispatches: the result is the same copy.
void raiseSlices(Operation *root) {
  IRRewriter rewriter(root->getContext());
  SmallVector<linalg::GenericOp> generics;
  root->walk([&](linalg::GenericOp op) { generics.push_back(op); });
  for (linalg::GenericOp op : generics) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::GenericOp> withInput =
        raiseTensorExtractToInput(op, rewriter);
    if (succeeded(withInput)) {
      rewriter.replaceOp(op, *withInput);
      op = *withInput;
    }
    rewriter.setInsertionPoint(op);
    FailureOr<Operation *> slice = raiseToExtractSlice(op, rewriter);
    if (succeeded(slice))
      rewriter.replaceOp(op, *slice);
  }
}

struct RaiseSpecialOpsPass
    : dispatchlab::globalopt::impl::RaiseSpecialOpsPassBase<
          RaiseSpecialOpsPass> {
  void runOnOperation() override {
    raiseSlices(getOperation());
    RewritePatternSet patterns(&getContext());
    populateRaiseNamedOpPatterns(patterns);
    populateRaiseSoftmaxPatterns(patterns);
    populateRaiseRotateHalfPatterns(patterns);
    populateRaisePadPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
