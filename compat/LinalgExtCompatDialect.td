//===- LinalgExtCompatDialect.td - IREE's iree_linalg_ext ops -*- tablegen -*-===//
//
// IREE's LinalgExt ops spelled as IREE spells them, so IR from IREE's
// frontends and tests parses verbatim. The ops carry what dispatch formation
// asks of them (ins/outs, indexing maps, loops); they have no lowering here.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COMPAT_LINALGEXTCOMPATDIALECT_TD
#define DISPATCHLAB_COMPAT_LINALGEXTCOMPATDIALECT_TD

include "mlir/Dialect/Utils/StructuredOpsUtils.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def LinalgExt_Dialect : Dialect {
  let name = "iree_linalg_ext";
  let cppNamespace = "::dispatchlab::linalg_ext";
  let summary = "IREE's LinalgExt op spellings, for dispatch formation only";
  let useDefaultAttributePrinterParser = 1;
}

// `#iree_linalg_ext.iterator_type<parallel>`: upstream's iterator enum under
// IREE's attribute name.
def LinalgExt_IteratorTypeAttr
    : EnumAttr<LinalgExt_Dialect, IteratorType, "iterator_type"> {
  let assemblyFormat = "`<` $value `>`";
}
def LinalgExt_IteratorTypeArrayAttr
    : TypedArrayAttrBase<LinalgExt_IteratorTypeAttr,
                         "LinalgExt iterator types">;

// The loop structure IREE's LinalgFusionOpInterface exposes: what the fusion
// rules read from an op that is not a Linalg structured op.
def LinalgExt_FusionOpInterface : OpInterface<"FusionOpInterface"> {
  let cppNamespace = "::dispatchlab::linalg_ext";
  let description = [{
    Loops, iterator types and the per-operand / per-result indexing maps of
    an op; a null map means the operand is not indexed by the loops.
  }];
  let methods = [
    InterfaceMethod<"Iterator type of each loop.",
      "::llvm::SmallVector<::mlir::utils::IteratorType>",
      "getLoopIteratorTypes">,
    InterfaceMethod<"Static size of each loop (kDynamic if unknown).",
      "::llvm::SmallVector<int64_t>", "getStaticLoopRanges">,
    InterfaceMethod<"Indexing map of each operand, null if none.",
      "::llvm::SmallVector<::mlir::AffineMap>", "getIndexingMapsForOperands">,
    InterfaceMethod<"Indexing map of each result, null if none.",
      "::llvm::SmallVector<::mlir::AffineMap>", "getIndexingMapsForResults">,
  ];
}

class LinalgExt_Op<string mnemonic, list<Trait> traits = []>
    : Op<LinalgExt_Dialect, mnemonic, !listconcat(traits,
        [DestinationStyleOpInterface])> {
  let hasVerifier = 1;
}

def LinalgExt_ScatterOp : LinalgExt_Op<"scatter", [Pure,
    DeclareOpInterfaceMethods<LinalgExt_FusionOpInterface>]> {
  let summary = "Writes slices of `updates` into `original` at `indices`";
  let arguments = (ins AnyRankedTensor:$updates, AnyRankedTensor:$indices,
                       Optional<AnyRankedTensor>:$mask,
                       AnyRankedTensor:$original,
                       DenseI64ArrayAttr:$dimension_map,
                       DefaultValuedAttr<BoolAttr, "true">:$unique_indices);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    attr-dict `dimension_map` `=` $dimension_map
    `unique_indices` `(` $unique_indices `)`
    `ins` `(` $updates `,` $indices (`,` $mask^)? `:` type($updates) `,`
      type($indices) (`,` type($mask)^)? `)`
    `outs` `(` $original `:` type($original) `)`
    $region (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOriginalMutable();
    }
  }];
}

def LinalgExt_GatherOp : LinalgExt_Op<"gather", [Pure,
    DeclareOpInterfaceMethods<LinalgExt_FusionOpInterface>]> {
  let summary = "Reads slices of `source` at `indices` into `output`";
  let arguments = (ins AnyRankedTensor:$source, AnyRankedTensor:$indices,
                       Optional<AnyRankedTensor>:$mask,
                       AnyRankedTensor:$output,
                       DenseI64ArrayAttr:$dimension_map);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    attr-dict `dimension_map` `=` $dimension_map
    `ins` `(` $source `,` $indices (`,` $mask^)? `:` type($source) `,`
      type($indices) (`,` type($mask)^)? `)`
    `outs` `(` $output `:` type($output) `)`
    (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOutputMutable();
    }
  }];
}

def LinalgExt_SortOp : LinalgExt_Op<"sort", [Pure, AttrSizedOperandSegments]> {
  let summary = "Sorts `outputs` in place along `dimension`";
  let arguments = (ins Variadic<AnyType>:$inputs,
                       Variadic<AnyRankedTensor>:$outputs,
                       I64Attr:$dimension);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    attr-dict `dimension` `(` $dimension `)`
    (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    `outs` `(` $outputs `:` type($outputs) `)`
    $region (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOutputsMutable();
    }
  }];
}

def LinalgExt_TopkOp : LinalgExt_Op<"topk", [Pure]> {
  let summary = "The k best `values` (and their indices) along `dimension`";
  let arguments = (ins AnyRankedTensor:$values,
                       Optional<AnyRankedTensor>:$indices,
                       AnyRankedTensor:$output_values,
                       AnyRankedTensor:$output_indices,
                       I64Attr:$dimension);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    attr-dict `dimension` `(` $dimension `)`
    `ins` `(` $values (`,` $indices^)? `:` type($values)
      (`,` type($indices)^)? `)`
    `outs` `(` $output_values `,` $output_indices `:` type($output_values)
      `,` type($output_indices) `)`
    $region (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return ::mlir::MutableOperandRange(
          getOperation(), getODSOperandIndexAndLength(2).first, 2);
    }
  }];
}

def LinalgExt_FftOp : LinalgExt_Op<"fft", [Pure, AttrSizedOperandSegments]> {
  let summary = "One stage of a 1-D FFT over the innermost dim, in place";
  let arguments = (ins AnyType:$stage,
                       Optional<AnyRankedTensor>:$real_coeff,
                       Optional<AnyRankedTensor>:$imag_coeff,
                       AnyRankedTensor:$real, AnyRankedTensor:$imag);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    attr-dict
    `ins` `(` $stage (`,` $real_coeff^ `,` $imag_coeff)? `:` type($stage)
      (`,` type($real_coeff)^ `,` type($imag_coeff))? `)`
    `outs` `(` $real `,` $imag `:` type($real) `,` type($imag) `)`
    (`:` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return ::mlir::MutableOperandRange(
          getOperation(), getODSOperandIndexAndLength(3).first, 2);
    }
  }];
}

def LinalgExt_CustomOp : LinalgExt_Op<"custom_op", [RecursiveMemoryEffects,
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<LinalgExt_FusionOpInterface>]> {
  let summary = "A region of tensor ops over declared loops, kept whole";
  let arguments = (ins Variadic<AnyType>:$inputs,
                       Variadic<AnyRankedTensor>:$outputs,
                       AffineMapArrayAttr:$indexing_maps,
                       LinalgExt_IteratorTypeArrayAttr:$iterator_types);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    `{` `indexing_maps` `=` $indexing_maps `,`
    `iterator_types` `=` $iterator_types `}`
    attr-dict-with-keyword
    (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    (`outs` `(` $outputs^ `:` type($outputs) `)`)?
    $region (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOutputsMutable();
    }
  }];
}

def LinalgExt_AttentionOp : LinalgExt_Op<"attention", [Pure,
    DeclareOpInterfaceMethods<LinalgExt_FusionOpInterface>]> {
  let summary = "softmax(Q @ K^T * scale [+ mask]) @ V";
  let arguments = (ins AnyRankedTensor:$query, AnyRankedTensor:$key,
                       AnyRankedTensor:$value, AnyFloat:$scale,
                       Optional<AnyRankedTensor>:$mask,
                       AnyRankedTensor:$output,
                       AffineMapArrayAttr:$indexing_maps,
                       OptionalAttr<DictionaryAttr>:$decomposition_config);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    attr-dict
    `ins` `(` $query `,` $key `,` $value `,` $scale (`,` $mask^)? `:`
      type($query) `,` type($key) `,` type($value) `,` type($scale)
      (`,` type($mask)^)? `)`
    `outs` `(` $output `:` type($output) `)`
    $region (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOutputMutable();
    }
  }];
}

def LinalgExt_OnlineAttentionOp : LinalgExt_Op<"online_attention", [Pure,
    DeclareOpInterfaceMethods<LinalgExt_FusionOpInterface>]> {
  let summary = "Attention that also carries the running max and sum";
  let arguments = (ins AnyRankedTensor:$query, AnyRankedTensor:$key,
                       AnyRankedTensor:$value, AnyFloat:$scale,
                       Optional<AnyRankedTensor>:$mask,
                       AnyRankedTensor:$output, AnyRankedTensor:$max,
                       AnyRankedTensor:$sum,
                       AffineMapArrayAttr:$indexing_maps,
                       OptionalAttr<DictionaryAttr>:$decomposition_config);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    attr-dict
    `ins` `(` $query `,` $key `,` $value `,` $scale (`,` $mask^)? `:`
      type($query) `,` type($key) `,` type($value) `,` type($scale)
      (`,` type($mask)^)? `)`
    `outs` `(` $output `,` $max `,` $sum `:` type($output) `,` type($max)
      `,` type($sum) `)`
    $region (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return ::mlir::MutableOperandRange(
          getOperation(), getODSOperandIndexAndLength(5).first, 3);
    }
  }];
}

def LinalgExt_YieldOp : Op<LinalgExt_Dialect, "yield", [Pure, ReturnLike,
    Terminator, ParentOneOf<["ScatterOp", "SortOp", "TopkOp", "CustomOp",
                             "AttentionOp", "OnlineAttentionOp"]>]> {
  let summary = "Yields the values of a LinalgExt op's region";
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

#endif // DISPATCHLAB_COMPAT_LINALGEXTCOMPATDIALECT_TD
