//===- FuseEncodingOpsIntoDispatchRegions.cpp - encode where computed -----===//
//
// Mirrors IREE's DispatchCreation FuseEncodingOpsIntoDispatchRegions: a
// set_encoding hoisted out of its contraction's dispatch moves into the
// dispatch computing what it encodes, when that dispatch only maps elements
// (IREE's isFusableWithSetEncoding), so the producer writes the encoded
// layout directly. Every other one stays between dispatches; IREE turns it
// into a flow.tensor.encode, not a dispatch.
//
//===----------------------------------------------------------------------===//

#include "compat/EncodingCompatDialect.h"
#include "heuristics/DispatchRegionBuilder.h"
#include "heuristics/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"

namespace dispatchlab {
#define GEN_PASS_DEF_FUSEENCODINGOPSINTODISPATCHREGIONSPASS
#include "heuristics/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

namespace {
/// IREE's isFusableWithSetEncoding: every op of the dispatch with a shaped
/// result is a reshape, an empty tensor or a Linalg op without reductions.
bool onlyMapsElements(dispatch::RegionOp region) {
  for (Operation &op : region.getBody().front()) {
    if (llvm::none_of(op.getResultTypes(), llvm::IsaPred<ShapedType>))
      continue;
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::EmptyOp>(
            op))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || linalgOp.getNumReductionLoops() != 0)
      return false;
  }
  return true;
}

/// The dispatch `op` may move into: the one whose result it encodes, when
/// an op of that dispatch computes the result and only maps elements.
dispatch::RegionOp getFusableProducer(encoding::SetEncodingOp op) {
  auto result = dyn_cast<OpResult>(op.getSource());
  auto region =
      result ? dyn_cast<dispatch::RegionOp>(result.getOwner()) : nullptr;
  if (!region)
    return nullptr;
  Value yielded = region.getReturnOp()->getOperand(result.getResultNumber());
  if (!yielded.getDefiningOp() || !onlyMapsElements(region))
    return nullptr;
  return region;
}

struct FuseEncodingOpsIntoDispatchRegionsPass
    : public dispatchlab::impl::FuseEncodingOpsIntoDispatchRegionsPassBase<
          FuseEncodingOpsIntoDispatchRegionsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // As IREE does first: one set_encoding per encoded value and layout.
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());

    SmallVector<encoding::SetEncodingOp> outside;
    getOperation()->walk([&](encoding::SetEncodingOp op) {
      if (!op->getParentOfType<dispatch::RegionOp>())
        outside.push_back(op);
    });
    for (encoding::SetEncodingOp op : outside)
      if (dispatch::RegionOp region = getFusableProducer(op))
        if (failed(moveConsumerIntoDispatchRegion(rewriter, op, region)))
          return signalPassFailure();
  }
};
} // namespace
