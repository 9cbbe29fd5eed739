//===- HalCompatDialect.td - IREE's hal tensor import/export -*- tablegen -*-===//
//
// The `hal` spellings of IREE's ABI-level inputs: `!hal.buffer_view` and
// `!hal.fence` arguments, `hal.buffer_view.dim`, and `hal.tensor.import`,
// `hal.tensor.export`, `hal.tensor.barrier` between them and tensors.
// Only the forms without device affinity, names, offsets or encodings.
// None is a fusion op: they stay outside dispatches.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COMPAT_HALCOMPATDIALECT_TD
#define DISPATCHLAB_COMPAT_HALCOMPATDIALECT_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Hal_Dialect : Dialect {
  let name = "hal";
  let cppNamespace = "::dispatchlab::hal";
  let summary = "IREE hal buffer view / fence / tensor import-export spellings";
  let useDefaultTypePrinterParser = 1;
}

class Hal_Type<string name, string typeMnemonic>
    : TypeDef<Hal_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def Hal_BufferViewType : Hal_Type<"BufferView", "buffer_view"> {
  let summary = "A buffer with its shape and element type, at the ABI";
}
def Hal_FenceType : Hal_Type<"Fence", "fence"> {
  let summary = "A point in a device timeline to wait on or signal";
}

class Hal_Op<string mnemonic, list<Trait> traits = []>
    : Op<Hal_Dialect, mnemonic, traits>;

def Hal_BufferViewDimOp : Hal_Op<"buffer_view.dim", [Pure]> {
  let summary = "The extent of one dimension of a buffer view";
  let arguments = (ins Hal_BufferViewType:$buffer_view, IndexAttr:$index);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    `<` $buffer_view `:` type($buffer_view) `>` `` `[` $index `]`
    `:` type($result) attr-dict-with-keyword
  }];
}

def Hal_TensorImportOp : Hal_Op<"tensor.import", [
    AttrSizedOperandSegments]> {
  let summary = "A tensor read from a buffer view, after `wait_fence`";
  let arguments = (ins Hal_BufferViewType:$source,
                       Variadic<Index>:$target_dims,
                       Optional<Hal_FenceType>:$wait_fence);
  let results = (outs AnyRankedTensor:$target);
  let assemblyFormat = [{
    (`wait` `(` $wait_fence^ `)` `=` `` `>`)? $source `:` type($source) `->`
    type($target) (`{` $target_dims^ `}`)? attr-dict
  }];
  let hasVerifier = 1;
}

def Hal_TensorExportOp : Hal_Op<"tensor.export"> {
  let summary = "A tensor handed out as a buffer view";
  let arguments = (ins AnyRankedTensor:$source, Variadic<Index>:$source_dims);
  let results = (outs Hal_BufferViewType:$target);
  let assemblyFormat = [{
    $source `:` type($source) (`{` $source_dims^ `}`)? `->` type($target)
    attr-dict
  }];
  let hasVerifier = 1;
}

def Hal_TensorBarrierOp : Hal_Op<"tensor.barrier", [
    AllTypesMatch<["sources", "results"]>]> {
  let summary = "Signals `signal_fence` once `sources` are ready";
  let arguments = (ins Variadic<AnyRankedTensor>:$sources,
                       Hal_FenceType:$signal_fence);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    `join` `` `(` $sources `:` type($sources) `)` `=` `` `>`
    $signal_fence `:` type($signal_fence) attr-dict-with-keyword
  }];
}

#endif // DISPATCHLAB_COMPAT_HALCOMPATDIALECT_TD
