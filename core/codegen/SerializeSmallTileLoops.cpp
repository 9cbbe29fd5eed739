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
#include "mlir/Dialect/Utils/StaticValueUtils.h"

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

  /// The points a tile loop covers: the product of its ranges (0 when one
  /// is not constant).
  static int64_t getCoveredPoints(scf::ForallOp loop) {
    std::optional<SmallVector<int64_t>> lower =
        getConstantIntValues(loop.getMixedLowerBound());
    std::optional<SmallVector<int64_t>> upper =
        getConstantIntValues(loop.getMixedUpperBound());
    if (!lower || !upper)
      return 0;
    int64_t points = 1;
    for (auto [low, high] : llvm::zip_equal(*lower, *upper))
      points *= high - low;
    return points;
  }

  /// Whether `share` of the dispatch's work, as OutlineDispatchRegions
  /// recorded it, is below both thresholds.
  bool isSmall(func::FuncOp function, double share) const {
    auto flops = function->getAttrOfType<IntegerAttr>(kDispatchFlopsAttr);
    auto bytes = function->getAttrOfType<IntegerAttr>(kDispatchBytesAttr);
    return flops && bytes && share * flops.getInt() < maxFlops &&
           share * bytes.getInt() < maxBytes;
  }

  /// Each tile loop counts for its share of the dispatch's points: a loop
  /// over the whole result for all of its work, the parts of a split
  /// (TileAndFuseDispatches' getSplitPoint) for theirs, so that a one-row
  /// remainder does not wake another core (on two threads, splitting
  /// posenet's 33-wide depthwise convolutions took them from 0.05 to 0.10
  /// ms).
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!function->hasAttr(kDispatchFunctionAttr))
      return;
    SmallVector<std::pair<scf::ForallOp, int64_t>> loops;
    int64_t totalPoints = 0;
    function.walk([&](scf::ForallOp loop) {
      if (loop->getParentOfType<scf::ForallOp>())
        return;
      loops.push_back({loop, getCoveredPoints(loop)});
      totalPoints += loops.back().second;
    });
    // Nested loops first (the walk is post-order), then their parent.
    SmallVector<scf::ForallOp> serialized;
    for (auto [loop, points] : loops) {
      double share = points && totalPoints ? double(points) / totalPoints : 1;
      if (isSmall(function, share))
        loop.walk([&](scf::ForallOp nested) { serialized.push_back(nested); });
    }
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp loop : serialized) {
      rewriter.setInsertionPoint(loop);
      if (failed(scf::forallToForLoop(rewriter, loop)))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace dispatchlab
