//===- PreformedDispatches.h - IREE's dispatches as ours --------*- C++ -*-===//

#ifndef DISPATCHLAB_CORE_PIPELINE_PREFORMEDDISPATCHES_H
#define DISPATCHLAB_CORE_PIPELINE_PREFORMEDDISPATCHES_H

#include "mlir/IR/BuiltinOps.h"

namespace dispatchlab {

/// Rewrites every `flow.dispatch.region` of `module` (one formed before
/// dispatchlab saw the input) into a `dispatch.region` holding the same body,
/// so dispatch formation and CloneProducersIntoDispatchRegions treat it as
/// one of their own, as IREE's passes treat it. Result extents and workload
/// operands are dropped: our regions read shapes from their bodies.
void convertFlowDispatchRegions(mlir::ModuleOp module);

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_PIPELINE_PREFORMEDDISPATCHES_H
