//===- UtilCompatDialect.td - IREE's util.func spelling ------*- tablegen -*-===//
//
// Just enough of IREE's `util` dialect to read IREE-style inputs verbatim:
// `util.func` and `util.return` (the model loader rewrites them to `func`),
// immutable `util.global`s, their `util.global.load`s and the
// `util.initializer`s that store them (the loader rewrites them to
// constants, weight arguments and code in the functions), `#util.byte_pattern`,
// `util.optimization_barrier` and `#util.preprocessing_pipeline`.
//
//===----------------------------------------------------------------------===//

#ifndef DISPATCHLAB_COMPAT_UTILCOMPATDIALECT_TD
#define DISPATCHLAB_COMPAT_UTILCOMPATDIALECT_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Util_Dialect : Dialect {
  let name = "util";
  let cppNamespace = "::dispatchlab::util";
  let summary = "IREE's util spellings: functions, globals, initializers, "
                "optimization_barrier";
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
}

// What util.global.address gives: a reference to a global of `targetType`
// (the spelling of IREE's older frontends, its e2e MNIST among them).
def Util_PtrType : TypeDef<Util_Dialect, "Ptr"> {
  let summary = "An indirect reference to a util.global";
  let mnemonic = "ptr";
  let parameters = (ins "::mlir::Type":$targetType);
  let assemblyFormat = "`<` $targetType `>`";
}

// The pipeline IREE runs on a function before dispatch creation
// (`attributes {preprocessing_pipeline = ...}`). dispatchlab does not run
// it; the model loader warns.
def Util_PreprocessingPipelineAttr
    : AttrDef<Util_Dialect, "PreprocessingPipeline"> {
  let mnemonic = "preprocessing_pipeline";
  let summary = "A textual pass pipeline to run before dispatch creation";
  let parameters = (ins StringRefParameter<>:$pipeline);
  let assemblyFormat = "`<` $pipeline `>`";
}

// The placeholder contents IREE's tests give a weight (every byte N).
def Util_BytePatternAttr
    : AttrDef<Util_Dialect, "BytePattern", [TypedAttrInterface]> {
  let mnemonic = "byte_pattern";
  let summary = "A global's contents: every byte the given value";
  let parameters = (ins AttributeSelfTypeParameter<"">:$type,
                        "int64_t":$pattern);
  let assemblyFormat = "`<` $pattern `>`";
}

// A model's weight or constant as IREE holds it: `util.global private @w =
// dense<...> : tensor<...>`, or without a value (a parameter).
def Util_GlobalOp : Op<Util_Dialect, "global", [Symbol]> {
  let summary = "A module-level value (IREE's weights and constants)";
  let arguments = (ins OptionalAttr<StrAttr>:$sym_visibility,
                       SymbolNameAttr:$sym_name,
                       TypeAttr:$type,
                       UnitAttr:$is_mutable,
                       OptionalAttr<AnyAttr>:$initial_value);
  let hasCustomAssemblyFormat = 1;
}

def Util_GlobalLoadOp : Op<Util_Dialect, "global.load"> {
  let summary = "Reads a util.global";
  let arguments = (ins FlatSymbolRefAttr:$global, UnitAttr:$is_immutable);
  let results = (outs AnyType:$result);
  let assemblyFormat =
      "(`immutable` $is_immutable^)? $global attr-dict `:` type($result)";
}

// AffineScope as IREE's: its arguments are affine symbols, so canonicalized
// affine.apply ops over them print as IREE's do.
def Util_FuncOp : Op<Util_Dialect, "func", [
    AffineScope, AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove]> {
  let summary = "A function spelled the IREE way";
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() {
      return isExternal() ? nullptr : &getBody();
    }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
  }];
}

// IREE's initializer of globals: runs once before any function, storing
// the values it computes (after HoistIntoGlobals, a model's weight-only
// work). The loader moves its computation back into the functions that
// load what it stores.
def Util_InitializerOp : Op<Util_Dialect, "initializer", [
    IsolatedFromAbove, SingleBlock]> {
  let summary = "Computes globals once, before any function";
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
}

def Util_GlobalAddressOp : Op<Util_Dialect, "global.address", [Pure]> {
  let summary = "A reference to a util.global, read by global.load.indirect";
  let arguments = (ins FlatSymbolRefAttr:$global);
  let results = (outs Util_PtrType:$result);
  let assemblyFormat = "$global attr-dict `:` qualified(type($result))";
}

def Util_GlobalLoadIndirectOp : Op<Util_Dialect, "global.load.indirect", [
    TypesMatchWith<"the result is what the reference refers to", "source",
                   "result",
                   "::llvm::cast<PtrType>($_self).getTargetType()">]> {
  let summary = "Reads the util.global a global.address refers to";
  let arguments = (ins Util_PtrType:$source);
  let results = (outs AnyType:$result);
  let assemblyFormat =
      "$source attr-dict `:` qualified(type($source)) `->` type($result)";
}

def Util_GlobalStoreOp : Op<Util_Dialect, "global.store"> {
  let summary = "Writes a util.global (in an initializer)";
  let arguments = (ins AnyType:$value, FlatSymbolRefAttr:$global);
  let assemblyFormat = "$value `,` $global attr-dict `:` type($value)";
}

def Util_ReturnOp : Op<Util_Dialect, "return", [
    Pure, ParentOneOf<["FuncOp", "InitializerOp"]>, ReturnLike, Terminator]> {
  let summary = "Returns from a util.func or util.initializer";
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

// As in IREE, no side-effect traits: unknown effects keep canonicalization
// and CSE from folding or merging it, and it is no fusion op, so dispatch
// formation neither puts it in a dispatch nor fuses across it.
def Util_OptimizationBarrierOp : Op<Util_Dialect, "optimization_barrier", [
    AllTypesMatch<["operands", "results"]>]> {
  let summary = "Identity that optimizations do not look through";
  let arguments = (ins Variadic<AnyType>:$operands);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

#endif // DISPATCHLAB_COMPAT_UTILCOMPATDIALECT_TD
