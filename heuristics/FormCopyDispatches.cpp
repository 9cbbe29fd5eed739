//===- FormCopyDispatches.cpp - slow copy dispatches for slices -----------===//
//
// Mirrors the slice handling of IREE's ConvertTensorToFlow pass:
// a contiguous top-level slice becomes a DMA copy (flow.tensor.slice/update)
// and stays as is here; any other top-level slice is wrapped in a dispatch of
// its own, IREE's "slow copy dispatch".
//
//===----------------------------------------------------------------------===//

#include "heuristics/DispatchRegionBuilder.h"
#include "heuristics/Passes.h"
#include "heuristics/SliceContiguity.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace dispatchlab {
#define GEN_PASS_DEF_FORMCOPYDISPATCHESPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

namespace {
struct FormCopyDispatchesPass
    : public dispatchlab::impl::FormCopyDispatchesPassBase<
          FormCopyDispatchesPass> {
  using FormCopyDispatchesPassBase::FormCopyDispatchesPassBase;

  void runOnOperation() override {
    SmallVector<Operation *> slowCopies;
    getOperation().walk([&](Operation *op) {
      if (isa<tensor::ExtractSliceOp, tensor::InsertSliceOp>(op) &&
          !op->getParentOfType<dispatch::RegionOp>() && !isContiguousSlice(op))
        slowCopies.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : slowCopies) {
      FailureOr<dispatch::RegionOp> region =
          wrapOpsInDispatchRegion(rewriter, {op});
      if (failed(region))
        return signalPassFailure();
      dispatch::DispatchDialect::setKindAttr(*region, "copy");
    }
  }
};
} // namespace
