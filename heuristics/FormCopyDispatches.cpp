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
#include "mlir/Transforms/RegionUtils.h"

namespace dispatchlab {
#define GEN_PASS_DEF_FORMCOPYDISPATCHESPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

namespace {
template <typename SliceOp>
SmallVector<Operation *> collectSlowCopies(Operation *root) {
  SmallVector<Operation *> slowCopies;
  root->walk([&](SliceOp op) {
    if (!op->template getParentOfType<dispatch::RegionOp>() &&
        !isContiguousSlice(op))
      slowCopies.push_back(op);
  });
  return slowCopies;
}

/// The ops `region` reads from above, through their own operands.
llvm::SetVector<Operation *> producersAbove(dispatch::RegionOp region) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(region.getBody(), captured);
  SmallVector<Value> worklist(captured.begin(), captured.end());
  llvm::SetVector<Operation *> producers;
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (def && producers.insert(def))
      llvm::append_range(worklist, def->getOperands());
  }
  return producers;
}

/// Erases the `candidates` that cloning left without a use, as IREE's later
/// canonicalization does.
void eraseUnused(RewriterBase &rewriter,
                 llvm::SetVector<Operation *> candidates) {
  bool erased = true;
  while (erased) {
    erased = false;
    for (Operation *op : candidates.takeVector()) {
      if (!isOpTriviallyDead(op)) {
        candidates.insert(op);
        continue;
      }
      rewriter.eraseOp(op);
      erased = true;
    }
  }
}

struct FormCopyDispatchesPass
    : public dispatchlab::impl::FormCopyDispatchesPassBase<
          FormCopyDispatchesPass> {
  using FormCopyDispatchesPassBase::FormCopyDispatchesPassBase;

  /// IREE's convertInsertSliceOps runs first and, in wrapInWorkgroupsOp,
  /// clones the cloneable producers (cloneProducersToRegion, default
  /// options) into each insert's dispatch: an extract_slice feeding the
  /// insert joins its dispatch rather than forming one of its own.
  LogicalResult formInsertDispatches(IRRewriter &rewriter) {
    for (Operation *op :
         collectSlowCopies<tensor::InsertSliceOp>(getOperation())) {
      FailureOr<dispatch::RegionOp> region =
          wrapOpsInDispatchRegion(rewriter, {op});
      if (failed(region))
        return failure();
      dispatch::DispatchDialect::setKindAttr(*region, "copy");
      llvm::SetVector<Operation *> producers = producersAbove(*region);
      cloneProducersIntoRegion(rewriter, *region, HeuristicOptions());
      eraseUnused(rewriter, std::move(producers));
    }
    return success();
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(formInsertDispatches(rewriter)))
      return signalPassFailure();
    for (Operation *op :
         collectSlowCopies<tensor::ExtractSliceOp>(getOperation())) {
      FailureOr<dispatch::RegionOp> region =
          wrapOpsInDispatchRegion(rewriter, {op});
      if (failed(region))
        return signalPassFailure();
      dispatch::DispatchDialect::setKindAttr(*region, "copy");
    }
  }
};
} // namespace
