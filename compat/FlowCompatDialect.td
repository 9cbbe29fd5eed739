//===- FlowCompatDialect.td - IREE's flow.dispatch.region ----*- tablegen -*-===//
//
// IREE's `flow.dispatch.region` / `flow.return`, so inputs holding dispatches
// formed already (IREE's CloneProducersIntoDispatchRegions tests, say) parse
// verbatim; the model loader turns them into our dispatch.region. Also the
// `flow.tensor` ops IREE's dispatch-formation inputs use, which are no
// fusion ops and stay between dispatches, and `#flow.parameter.named`.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COMPAT_FLOWCOMPATDIALECT_TD
#define DISPATCHLAB_COMPAT_FLOWCOMPATDIALECT_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Flow_Dialect : Dialect {
  let name = "flow";
  let cppNamespace = "::dispatchlab::flow";
  let summary = "IREE flow.dispatch.region, flow.return, flow.tensor spellings";
  let useDefaultAttributePrinterParser = 1;
}

// A weight kept outside the program, in a parameter archive:
// `util.global private @w = #flow.parameter.named<"scope"::"key"> :
// tensor<...>` (the scope optional), as IREE's importers write weights
// they externalize. The model loader makes such a global a weight
// argument, filled as --parameters says (the archive is not read).
def Flow_ParameterNamedAttr
    : AttrDef<Flow_Dialect, "ParameterNamed", [TypedAttrInterface]> {
  let mnemonic = "parameter.named";
  let summary = "A global's contents: the parameter `key` of `scope`";
  let parameters = (ins AttributeSelfTypeParameter<"">:$type,
                        OptionalParameter<"mlir::StringAttr">:$scope,
                        "mlir::StringAttr":$key);
  let hasCustomAssemblyFormat = 1;
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

def Flow_TensorUpdateOp : Op<Flow_Dialect, "tensor.update", [
    Pure, AttrSizedOperandSegments, AllTypesMatch<["target", "result"]>,
    AllElementTypesMatch<["update", "target"]>,
    AllRanksMatch<["update", "target"]>]> {
  let summary = "Writes `update` into `target` at `start_indices`";
  let description = [{
    The result is `target` updated in place (IREE ties the two): the
    assembly names `target` again before the result type.
  }];
  let arguments = (ins AnyRankedTensor:$target, Variadic<Index>:$target_dims,
                       Variadic<Index>:$start_indices,
                       AnyRankedTensor:$update, Variadic<Index>:$update_dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $update `,` $target `[` $start_indices `]` `:`
    type($update) (`{` $update_dims^ `}`)? `->`
    custom<TiedResult>(ref($target), type($result), $target_dims)
    attr-dict-with-keyword
  }];
  let hasVerifier = 1;
}

// A tensor from an attribute: elements, or a weight kept in a parameter
// archive (`flow.tensor.constant #flow.parameter.named<"model"::"w"> :
// tensor<...>`, as IREE's torch importer reads the weights it externalizes
// inside functions). The model loader makes it a constant or a weight
// argument.
def Flow_TensorConstantOp : Op<Flow_Dialect, "tensor.constant", [
    Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "A tensor holding an attribute's contents";
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "attr-dict $value";
}

// No Pure trait, as in IREE: the constant must not fold to a static one.
def Flow_TensorDynamicConstantOp : Op<Flow_Dialect, "tensor.dynamic_constant"> {
  let summary = "A constant whose result type hides (some of) its extents";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "attr-dict $value `->` type($result)";
  let hasVerifier = 1;
}

#endif // DISPATCHLAB_COMPAT_FLOWCOMPATDIALECT_TD
