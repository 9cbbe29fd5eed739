//===- DecomposeAggregatedOps.cpp - softmax into its generics -------------===//
//
// IREE's CPU codegen decomposes linalg.softmax (raised by RaiseSpecialOps)
// before tiling; this does the same with upstream's AggregatedOpInterface.
//
//===----------------------------------------------------------------------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace dispatchlab {
#define GEN_PASS_DEF_DECOMPOSEAGGREGATEDOPSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace {
struct DecomposeAggregatedOpsPass
    : dispatchlab::impl::DecomposeAggregatedOpsPassBase<
          DecomposeAggregatedOpsPass> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> ops;
    getOperation().walk(
        [&](linalg::AggregatedOpInterface op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : ops) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> values = op.decomposeOperation(rewriter);
      if (failed(values)) {
        op->emitOpError("could not be decomposed");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *values);
    }
  }
};
} // namespace
