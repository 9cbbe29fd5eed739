//===- SimplifyPackUnpack.cpp - packs that only reshape -------------------===//
//
// Mirrors IREE's GlobalOptimization SimplifyPackUnpack, which runs
// upstream's patterns after the late data-tiling route has materialized
// encodings: a pack or unpack that moves no element (unit tiles, no
// transpose, no padding) is a reshape, which formation treats as one.
//
//===----------------------------------------------------------------------===//

#include "globalopt/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab::globalopt {
#define GEN_PASS_DEF_SIMPLIFYPACKUNPACKPASS
#include "globalopt/Passes.h.inc"
} // namespace dispatchlab::globalopt

using namespace mlir;

namespace {
struct SimplifyPackUnpackPass
    : dispatchlab::globalopt::impl::SimplifyPackUnpackPassBase<
          SimplifyPackUnpackPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateSimplifyPackAndUnpackPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
