//===- EraseUnusedLinalgOperands.cpp - drop dead generic operands ---------===//
//
// Mirrors IREE's GlobalOptimization EraseUnusedLinalgOperands, which runs
// upstream's patterns: an operand a generic never reads and a result nobody
// uses no longer tie the generic to its producers and consumers.
//
//===----------------------------------------------------------------------===//

#include "globalopt/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab::globalopt {
#define GEN_PASS_DEF_ERASEUNUSEDLINALGOPERANDSPASS
#include "globalopt/Passes.h.inc"
} // namespace dispatchlab::globalopt

using namespace mlir;

namespace {
struct EraseUnusedLinalgOperandsPass
    : dispatchlab::globalopt::impl::EraseUnusedLinalgOperandsPassBase<
          EraseUnusedLinalgOperandsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
