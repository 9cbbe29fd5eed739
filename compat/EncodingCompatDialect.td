//===- EncodingCompatDialect.td - IREE's iree_encoding -------*- tablegen -*-===//
//
// IREE's `iree_encoding` spellings that dispatch-formation inputs use:
// `set_encoding`, `unset_encoding` and the `encoding` / `testing` attributes
// they put on tensor types. The attributes carry what IREE's assembly carries
// and nothing is resolved from them: dispatch formation only needs to know
// where the two ops may go.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COMPAT_ENCODINGCOMPATDIALECT_TD
#define DISPATCHLAB_COMPAT_ENCODINGCOMPATDIALECT_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Encoding_Dialect : Dialect {
  let name = "iree_encoding";
  let cppNamespace = "::dispatchlab::encoding";
  let summary = "IREE iree_encoding spellings: set/unset_encoding, encodings";
  let useDefaultAttributePrinterParser = 1;
}

def Encoding_OpType : I32EnumAttr<"EncodingOpType",
    "The kind of op an encoded operand feeds", [
      I32EnumAttrCase<"matmul", 0>, I32EnumAttrCase<"scaled_matmul", 1>,
      I32EnumAttrCase<"conv", 2>]> {
  let cppNamespace = "::dispatchlab::encoding";
  let genSpecializedAttr = 0;
}

class Encoding_Attr<string name, string attrMnemonic>
    : AttrDef<Encoding_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def Encoding_EncodingAttr : Encoding_Attr<"Encoding", "encoding"> {
  let summary = "The operand of a contraction-like op an encoded tensor feeds";
  let parameters = (ins
    "::mlir::IntegerAttr":$operand_index,
    EnumParameter<Encoding_OpType>:$op_type,
    "::mlir::ArrayAttr":$element_types,
    OptionalParameter<"::mlir::TypeAttr">:$original_element_type,
    OptionalParameter<"::mlir::ArrayAttr">:$user_indexing_maps,
    OptionalParameter<"::mlir::ArrayAttr">:$iteration_sizes);
  let assemblyFormat = [{
    `<` struct($operand_index, $op_type, $element_types,
               $original_element_type, $user_indexing_maps,
               custom<DynamicSizes>($iteration_sizes)) `>`
  }];
}

def Encoding_TestingAttr : Encoding_Attr<"Testing", "testing"> {
  let summary = "An encoding with no meaning, for tests";
  let parameters = (ins OptionalParameter<"::mlir::ArrayAttr">:$layouts,
                        OptionalParameter<"::mlir::Type">:$original_element_type);
  let assemblyFormat = "`<` struct(params) `>`";
}

class Encoding_Op<string mnemonic, list<Trait> traits = []>
    : Op<Encoding_Dialect, mnemonic, !listconcat(traits, [Pure])>;

def Encoding_SetEncodingOp : Encoding_Op<"set_encoding"> {
  let summary = "Gives a tensor an encoded layout (IREE: pack-like)";
  let arguments = (ins AnyRankedTensor:$source,
                       Variadic<Index>:$encoding_dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    attr-dict $source (`encoding_dims` `{` $encoding_dims^ `}`)? `:`
    type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Encoding_UnsetEncodingOp : Encoding_Op<"unset_encoding", [
    AttrSizedOperandSegments]> {
  let summary = "Returns an encoded tensor to the default layout "
                "(IREE: unpack-like)";
  let arguments = (ins AnyRankedTensor:$source,
                       Variadic<Index>:$result_dims,
                       Variadic<Index>:$encoding_dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    attr-dict $source (`encoding_dims` `{` $encoding_dims^ `}`)? `:`
    type($source) `->` type($result) (`` `{` $result_dims^ `}`)?
  }];
  let hasVerifier = 1;
}

#endif // DISPATCHLAB_COMPAT_ENCODINGCOMPATDIALECT_TD
