//===- DispatchOps.td - dispatch region ops ------------------*- tablegen -*-===//

#ifndef DISPATCHLAB_HEURISTICS_DISPATCHOPS_TD
#define DISPATCHLAB_HEURISTICS_DISPATCHOPS_TD

include "heuristics/DispatchDialect.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Dispatch_RegionOp : Dispatch_Op<"region", [
    SingleBlockImplicitTerminator<"ReturnOp">,
    RecursiveMemoryEffects]> {
  let summary = "A group of tensor computations forming one dispatch";
  let description = [{
    The body computes the dispatch's results and yields them with
    `dispatch.return`. Values defined in the body are visible outside only
    through the region's results. Values from above may be captured.

    ```mlir
    %0 = dispatch.region -> (tensor<4x16xf32>) {
      %mm = linalg.matmul ...
      %relu = linalg.generic ...
      dispatch.return %relu : tensor<4x16xf32>
    }
    ```
  }];
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`->` `(` type($results)^ `)`)? $body attr-dict
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::mlir::TypeRange":$resultTypes)>];
  let extraClassDeclaration = [{
    /// The terminator of the body.
    ReturnOp getReturnOp();
  }];
}

def Dispatch_ReturnOp : Dispatch_Op<"return", [
    Pure, HasParent<"RegionOp">, ReturnLike, Terminator]> {
  let summary = "Yields the results of a dispatch region";
  let arguments = (ins Variadic<AnyType>:$operands);
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

#endif // DISPATCHLAB_HEURISTICS_DISPATCHOPS_TD
