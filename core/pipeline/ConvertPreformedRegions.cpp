//===- ConvertPreformedRegions.cpp - IREE's dispatches as ours ------------===//

#include "core/pipeline/Passes.h"

#include "compat/FlowCompatDialect.h"

#include "mlir/IR/Builders.h"

namespace dispatchlab {
#define GEN_PASS_DEF_CONVERTPREFORMEDREGIONSPASS
#include "core/pipeline/Passes.h.inc"
} // namespace dispatchlab

using namespace mlir;
using namespace dispatchlab;

namespace {
/// Our regions do not nest, and IREE never forms a dispatch in a dispatch.
LogicalResult refuseNested(flow::DispatchRegionOp flowRegion) {
  Operation *parent = flowRegion->getParentOp();
  while (parent && !isa<flow::DispatchRegionOp, dispatch::RegionOp>(parent))
    parent = parent->getParentOp();
  if (!parent)
    return success();
  return flowRegion.emitOpError(
      "is nested in another dispatch; pre-formed dispatches must not nest");
}

void convert(flow::DispatchRegionOp flowRegion) {
  OpBuilder builder(flowRegion);
  auto region = dispatch::RegionOp::create(builder, flowRegion.getLoc(),
                                           flowRegion.getResultTypes());
  region.getBody().takeBody(flowRegion.getBody());
  Operation *terminator = region.getBody().front().getTerminator();
  builder.setInsertionPoint(terminator);
  dispatch::ReturnOp::create(builder, terminator->getLoc(),
                             terminator->getOperands());
  terminator->erase();
  flowRegion.replaceAllUsesWith(region.getResults());
  flowRegion.erase();
}

struct ConvertPreformedRegionsPass
    : public dispatchlab::impl::ConvertPreformedRegionsPassBase<
          ConvertPreformedRegionsPass> {
  using ConvertPreformedRegionsPassBase::ConvertPreformedRegionsPassBase;

  void runOnOperation() override {
    SmallVector<flow::DispatchRegionOp> regions;
    getOperation().walk(
        [&](flow::DispatchRegionOp op) { regions.push_back(op); });
    if (llvm::any_of(regions, [](flow::DispatchRegionOp op) {
          return failed(refuseNested(op));
        }))
      return signalPassFailure();
    for (flow::DispatchRegionOp flowRegion : regions)
      convert(flowRegion);
  }
};
} // namespace
