//===- FusionScope.h - which ops a pre/post-FDR pass may touch --*- C++ -*-===//

#ifndef DISPATCHLAB_HEURISTICS_FUSIONSCOPE_H
#define DISPATCHLAB_HEURISTICS_FUSIONSCOPE_H

#include "heuristics/DispatchDialect.h"

namespace dispatchlab {

/// Mirrors IREE's isNonNullAndOutsideDispatch / its intra-dispatch
/// counterpart: the preprocessing instances of the fusion passes only touch
/// ops outside dispatches; the post-FDR instances only ops of one dispatch.
inline bool isInFusionScope(mlir::Operation *producer,
                            mlir::Operation *consumer, bool intraDispatch) {
  if (!producer || !consumer)
    return false;
  auto producerRegion = producer->getParentOfType<dispatch::RegionOp>();
  auto consumerRegion = consumer->getParentOfType<dispatch::RegionOp>();
  if (intraDispatch)
    return producerRegion && producerRegion == consumerRegion;
  return !producerRegion && !consumerRegion;
}

} // namespace dispatchlab

#endif // DISPATCHLAB_HEURISTICS_FUSIONSCOPE_H
