//===- TensorExtCompatDialect.td - IREE's iree_tensor_ext ----*- tablegen -*-===//
//
// The `iree_tensor_ext` ops that dispatch-formation inputs use, spelled as
// IREE spells them: `bitcast` and the `compute_barrier.start/end` pair. All
// are Pure, as in IREE; none is a fusion op, so dispatch formation leaves
// them between dispatches.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COMPAT_TENSOREXTCOMPATDIALECT_TD
#define DISPATCHLAB_COMPAT_TENSOREXTCOMPATDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TensorExt_Dialect : Dialect {
  let name = "iree_tensor_ext";
  let cppNamespace = "::dispatchlab::tensor_ext";
  let summary = "IREE iree_tensor_ext spellings: bitcast, compute barriers";
}

class TensorExt_Op<string mnemonic, list<Trait> traits = []>
    : Op<TensorExt_Dialect, mnemonic, !listconcat(traits, [Pure])>;

def TensorExt_BitCastOp : TensorExt_Op<"bitcast", [AttrSizedOperandSegments]> {
  let summary = "Reinterprets a tensor's bytes as another shape/element type";
  let description = [{
    `source_dims` and `result_dims` are the dynamic extents of the source and
    result types; both tensors hold the same number of bits.
  }];
  let arguments = (ins AnyRankedTensor:$source,
                       Variadic<Index>:$source_dims,
                       Variadic<Index>:$result_dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source `:` type($source) (`{` $source_dims^ `}`)? `->`
    type($result) (`{` $result_dims^ `}`)? attr-dict-with-keyword
  }];
  let hasVerifier = 1;
}

class TensorExt_BarrierOp<string mnemonic, string direction>
    : TensorExt_Op<mnemonic> {
  let summary = "Identity that reshape propagation does not cross " # direction;
  let arguments = (ins AnyRankedTensor:$value, Variadic<Index>:$value_dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $value `:` type($value) (`{` $value_dims^ `}`)? `->` type($result)
    attr-dict-with-keyword
  }];
  let hasVerifier = 1;
}

def TensorExt_ComputeBarrierStartOp
    : TensorExt_BarrierOp<"compute_barrier.start", "downwards">;
def TensorExt_ComputeBarrierEndOp
    : TensorExt_BarrierOp<"compute_barrier.end", "upwards">;

#endif // DISPATCHLAB_COMPAT_TENSOREXTCOMPATDIALECT_TD
