//===- DataLayoutPropagation.cpp - packs past reshapes --------------------===//
//
// Mirrors IREE's GlobalOptimization DataLayoutPropagation: upstream's
// propagation patterns under IREE's control function, which lets a pack
// bubble up through the collapse_shape producing its source and an unpack
// sink through the expand_shape reading its result, and nothing else. A
// weight reshaped before its pack is then packed straight from the weight.
//
//===----------------------------------------------------------------------===//

#include "globalopt/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dispatchlab::globalopt {
#define GEN_PASS_DEF_DATALAYOUTPROPAGATIONPASS
#include "globalopt/Passes.h.inc"
} // namespace dispatchlab::globalopt

using namespace mlir;

namespace {
/// IREE's control function: only the reshape moves.
bool isPropagatedAcrossReshape(OpOperand *use) {
  Operation *producer = use->get().getDefiningOp();
  Operation *consumer = use->getOwner();
  if (isa<linalg::PackOp>(consumer))
    return isa_and_nonnull<tensor::CollapseShapeOp>(producer);
  if (isa_and_nonnull<linalg::UnPackOp>(producer))
    return isa<tensor::ExpandShapeOp>(consumer);
  return false;
}

struct DataLayoutPropagationPass
    : dispatchlab::globalopt::impl::DataLayoutPropagationPassBase<
          DataLayoutPropagationPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateDataLayoutPropagationPatterns(patterns,
                                                  isPropagatedAcrossReshape);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation()->emitOpError("data layout propagation did not converge");
      return signalPassFailure();
    }
  }
};
} // namespace
