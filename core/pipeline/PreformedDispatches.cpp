//===- PreformedDispatches.cpp - IREE's dispatches as ours ----------------===//

#include "core/pipeline/PreformedDispatches.h"

#include "compat/FlowCompatDialect.h"
#include "heuristics/DispatchDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace dispatchlab {

void convertFlowDispatchRegions(ModuleOp module) {
  SmallVector<flow::DispatchRegionOp> regions;
  module.walk([&](flow::DispatchRegionOp op) { regions.push_back(op); });
  if (regions.empty())
    return;
  // The parser loaded only the dialects the input spells.
  module->getContext()->getOrLoadDialect<dispatch::DispatchDialect>();
  for (flow::DispatchRegionOp flowRegion : regions) {
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
}

} // namespace dispatchlab
