//===- SerializeSmallTileLoops.cpp - small dispatches on one thread -------===//
//
// With --threads N every dispatch's tiles become tasks. A dispatch with
// little work then costs more in handing tiles to another core (waking it,
// and moving data between the cores' caches) than the second core gives
// back: on two threads, most of MobileNetV3-small's dispatches under 30 us
// took 1.5-40 times as long as on one. The tile loops of a dispatch whose
// FLOPs and bytes are both below a threshold stay a sequential loop nest on
// the calling thread. IREE's CPU backend likewise grows a small dispatch's
// workgroups until each has a minimum workload (KernelDispatch's
// kMinimumWorkload), so that a small dispatch is one workgroup.
//
//===----------------------------------------------------------------------===//

#include "core/codegen/Passes.h"

#include "mlir/Dialect/SCF/Transforms/Transforms.h"

namespace dispatchlab {
#define GEN_PASS_DEF_SERIALIZESMALLTILELOOPSPASS
#include "core/codegen/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;

namespace dispatchlab {
namespace {

struct SerializeSmallTileLoopsPass
    : impl::SerializeSmallTileLoopsPassBase<SerializeSmallTileLoopsPass> {
  using Base::Base;

  /// Whether the dispatch's work, as OutlineDispatchRegions recorded it, is
  /// below both thresholds.
  bool isSmall(func::FuncOp function) const {
    auto flops = function->getAttrOfType<IntegerAttr>(kDispatchFlopsAttr);
    auto bytes = function->getAttrOfType<IntegerAttr>(kDispatchBytesAttr);
    return flops && bytes && flops.getInt() < maxFlops &&
           bytes.getInt() < maxBytes;
  }

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!function->hasAttr(kDispatchFunctionAttr) || !isSmall(function))
      return;
    SmallVector<scf::ForallOp> loops;
    function.walk([&](scf::ForallOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp loop : loops) {
      rewriter.setInsertionPoint(loop);
      if (failed(scf::forallToForLoop(rewriter, loop)))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace dispatchlab
