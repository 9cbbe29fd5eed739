//===- CloneProducersIntoDispatchRegions.cpp - clone cheap producers ------===//
//
// Mirrors IREE's CloneProducersIntoDispatchRegions pass: clone
// fills, empties, small constants, bit-extends and slices into each dispatch
// that reads them; drop what is left dead; give every linalg.generic or
// iree_linalg_ext.gather still outside a dispatch a dispatch of its own;
// clone again.
//
//===----------------------------------------------------------------------===//

#include "compat/LinalgExtCompatDialect.h"
#include "heuristics/DispatchRegionBuilder.h"
#include "heuristics/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Iterators.h"
#include "mlir/Transforms/RegionUtils.h"

namespace dispatchlab {
#define GEN_PASS_DEF_CLONEPRODUCERSINTODISPATCHREGIONSPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

namespace {
struct CloneProducersIntoDispatchRegionsPass
    : public dispatchlab::impl::CloneProducersIntoDispatchRegionsPassBase<
          CloneProducersIntoDispatchRegionsPass> {
  CloneProducersIntoDispatchRegionsPass() = default;
  explicit CloneProducersIntoDispatchRegionsPass(
      const HeuristicOptions &options)
      : options(options) {}

  /// The pass options are the knobs, as HeuristicOptions spells them.
  LogicalResult initializeOptions(
      StringRef text,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    return options.parsePassOptions(text, errorHandler);
  }

  void cloneIntoAll(IRRewriter &rewriter, FunctionOpInterface func,
                    const HeuristicOptions &options) {
    SmallVector<dispatch::RegionOp> regions;
    func.walk([&](dispatch::RegionOp region) { regions.push_back(region); });
    for (dispatch::RegionOp region : regions)
      cloneProducersIntoRegion(rewriter, region, options);
    // The originals of cloned ops are usually dead now.
    (void)eraseUnreachableBlocks(rewriter, func->getRegions());
    bool changed = true;
    while (changed) {
      changed = false;
      func.walk<WalkOrder::PostOrder, mlir::ReverseIterator>(
          [&](Operation *op) {
            if (op != func.getOperation() && isOpTriviallyDead(op)) {
              rewriter.eraseOp(op);
              changed = true;
            }
          });
    }
  }

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (func.isExternal())
      return;
    IRRewriter rewriter(func.getContext());

    cloneIntoAll(rewriter, func, options);

    // A gather left outside (no consumer cloned it) gets a dispatch of its
    // own, like a generic.
    SmallVector<Operation *> leftovers;
    func.walk([&](Operation *op) {
      if (isa<linalg::GenericOp, linalg_ext::GatherOp>(op) &&
          !op->getParentOfType<dispatch::RegionOp>())
        leftovers.push_back(op);
    });
    for (Operation *op : leftovers)
      if (failed(wrapOpsInDispatchRegion(rewriter, {op})))
        return signalPassFailure();

    cloneIntoAll(rewriter, func, options);
  }

private:
  HeuristicOptions options;
};
} // namespace

std::unique_ptr<Pass> dispatchlab::createCloneProducersIntoDispatchRegionsPass(
    const HeuristicOptions &options) {
  return std::make_unique<CloneProducersIntoDispatchRegionsPass>(options);
}
