//===- Passes.td - passes of the model-loading pipeline -----*- tablegen -*-===//

#ifndef DISPATCHLAB_CORE_PIPELINE_PASSES_TD
#define DISPATCHLAB_CORE_PIPELINE_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertPreformedRegionsPass
    : Pass<"dispatchlab-convert-preformed-regions", "mlir::ModuleOp"> {
  let summary = "Make IREE's pre-formed flow.dispatch.region ops our "
                "dispatch.region ops";
  let description = [{
    Each `flow.dispatch.region` (a dispatch formed before dispatchlab saw
    the input) becomes a `dispatch.region` holding the same body, so
    formation and CloneProducersIntoDispatchRegions treat it as one of their
    own, as IREE's passes treat it. Result extents and workload operands are
    dropped: our regions read shapes from their bodies. A region nested in
    another dispatch is refused (IREE never nests dispatches). The model
    loader runs this pass on every MLIR input.
  }];
  let dependentDialects = ["::dispatchlab::dispatch::DispatchDialect"];
}

#endif // DISPATCHLAB_CORE_PIPELINE_PASSES_TD
