//===- FlowCompatDialect.td - IREE's flow.dispatch.region ----*- tablegen -*-===//
//
// IREE's `flow.dispatch.region` / `flow.return`, so inputs holding dispatches
// formed already (IREE's CloneProducersIntoDispatchRegions tests, say) parse
// verbatim. The model loader turns them into our dispatch.region.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COMPAT_FLOWCOMPATDIALECT_TD
#define DISPATCHLAB_COMPAT_FLOWCOMPATDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Flow_Dialect : Dialect {
  let name = "flow";
  let cppNamespace = "::dispatchlab::flow";
  let summary = "IREE flow.dispatch.region / flow.return spellings";
}

def Flow_DispatchRegionOp : Op<Flow_Dialect, "dispatch.region", [
    AttrSizedOperandSegments, RecursiveMemoryEffects]> {
  let summary = "A dispatch formed before dispatchlab sees the input";
  let description = [{
    `result_dims` are the dynamic extents of the shaped results, in order;
    `workload` the optional `[...]` operands IREE's workgroup count uses.
    The workgroup count region (`count(...)`) is not read.
  }];
  let arguments = (ins Variadic<Index>:$result_dims,
                       Variadic<Index>:$workload);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Flow_ReturnOp : Op<Flow_Dialect, "return", [
    Pure, HasParent<"DispatchRegionOp">, ReturnLike, Terminator]> {
  let summary = "Yields the results of a flow.dispatch.region";
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

#endif // DISPATCHLAB_COMPAT_FLOWCOMPATDIALECT_TD
